import { idempotencyHeaders } from '#contracts/common.ts';
import { supportReplyBody } from '#contracts/support.ts';
import { replySupportRequest } from '#core/support/support.ts';
import { replySupportDeps } from '#functions/composition/deps-support.ts';
import { adminActor } from '#middleware/admin-actor.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/admin/support/{requestId}/replies: 201 and the request with the reply (on the audit log); the creator is emailed it. */
export const handler = httpRoute({ route: 'reply-support-request', body: supportReplyBody, headers: idempotencyHeaders }, async ({ auth, body, params, headers, annotate }): Promise<Reply> =>
  new Reply(
    201,
    await replySupportRequest(replySupportDeps((message, fields) => annotate({ warning: message, ...fields })), { actor: await adminActor(auth.userId), requestId: params['requestId'] ?? '', body, idempotencyKey: headers['idempotency-key'] }),
  ),
);
