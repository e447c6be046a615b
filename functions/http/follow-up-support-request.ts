import { idempotencyHeaders } from '#contracts/common.ts';
import { supportFollowUpBody, type SupportRequest } from '#contracts/support.ts';
import { followUpSupportRequest } from '#core/support/support.ts';
import { replyIdFor, supportRepository } from '#functions/composition/deps-support.ts';
import { clock, ids } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/support/requests/{requestId}/replies: 201 and the creator's request with their new message. */
export const handler = httpRoute({ route: 'follow-up-support-request', body: supportFollowUpBody, headers: idempotencyHeaders }, async ({ auth, body, params, headers }): Promise<Reply> =>
  new Reply(201, (await followUpSupportRequest({ support: supportRepository(), clock, ids, replyIdFor }, { creatorId: auth.userId, requestId: params['requestId'] ?? '', body, idempotencyKey: headers['idempotency-key'] })) satisfies SupportRequest),
);
