import { idempotencyHeaders } from '#contracts/common.ts';
import { createSupportRequestBody } from '#contracts/support.ts';
import { createSupportRequest } from '#core/support/support.ts';
import { createSupportRequestDeps } from '#functions/composition/deps-support.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/support/requests: 201 and the request (`priority` on the Pro plan); 429 past the day's requests. */
export const handler = httpRoute({ route: 'create-support-request', body: createSupportRequestBody, headers: idempotencyHeaders }, async ({ auth, body, headers }): Promise<Reply> =>
  new Reply(201, await createSupportRequest(createSupportRequestDeps(), { creatorId: auth.userId, body, idempotencyKey: headers['idempotency-key'] })),
);
