import { assignSeatBody } from '#contracts/licenses.ts';
import { assignSeat } from '#core/licenses/licenses.ts';
import { licenseDeps } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/leader/licenses/{licenseId}/seats: 201 `{email, status: "active"}`; 409 NO_SEATS_LEFT when every seat is taken. */
export const handler = httpRoute({ route: 'assign-seat', body: assignSeatBody }, async ({ auth, body, params }): Promise<Reply> =>
  new Reply(201, await assignSeat(licenseDeps(), { leaderId: auth.userId, licenseId: params['licenseId'] ?? '', email: body.email })),
);
