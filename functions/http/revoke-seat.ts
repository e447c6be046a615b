import { revokeSeat } from '#core/licenses/licenses.ts';
import { clock, enrollmentRepository, licenseRepository } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /api/leader/licenses/{licenseId}/seats/{email}: 204; the learner's access ends (progress kept), the seat is free. */
export const handler = httpRoute({ route: 'revoke-seat' }, async ({ auth, params }): Promise<Reply> => {
  await revokeSeat({ licenses: licenseRepository(), enrollments: enrollmentRepository(), clock }, { leaderId: auth.userId, licenseId: params['licenseId'] ?? '', email: (params['email'] ?? '').toLowerCase() });
  return new Reply(204, null);
});
