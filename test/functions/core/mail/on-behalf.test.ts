import { describe, expect, it } from 'vitest';
import { AppError } from '#core/errors.ts';
import { assignSeat } from '#core/licenses/licenses.ts';
import { checkMailOnBehalf, EMAIL_NOT_VERIFIED_MESSAGE, TRIAL_DAILY_SENDS } from '#core/mail/on-behalf.ts';
import { NOW, testClock } from '#test/functions/fakes/clock.ts';
import { grant, leaderOf, licenseWorld } from '#test/functions/fakes/license-world.ts';
import { onBehalfFakes } from '#test/functions/fakes/on-behalf.ts';

const codeOf = async (promise: Promise<unknown>): Promise<string | undefined> => {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
};

describe('mail the platform sends on a user\'s behalf (issue 27 point 4)', () => {
  it('is refused, 403 EMAIL_NOT_VERIFIED, for a sender whose email is not verified, and allowed once it is', async () => {
    const d = { ...onBehalfFakes(), clock: testClock(NOW) };
    d.directory.unverified.add('u1');
    await expect(checkMailOnBehalf(d, 'u1', 'verified-only')).rejects.toMatchObject({ code: 'EMAIL_NOT_VERIFIED', message: EMAIL_NOT_VERIFIED_MESSAGE });
    await expect(checkMailOnBehalf(d, 'u1', 'trial-capped')).rejects.toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    d.directory.unverified.delete('u1');
    await expect(checkMailOnBehalf(d, 'u1', 'trial-capped')).resolves.toBeUndefined();
  });

  it(`caps a trial creator at ${TRIAL_DAILY_SENDS} invitations and recommendations a UTC day (429 RATE_LIMITED), not a paying one`, async () => {
    const clock = testClock('2026-11-20T23:59:00.000Z');
    const d = { ...onBehalfFakes({ trial: { status: 'trialing' }, paying: { status: 'active' } }), clock };
    for (let i = 0; i < TRIAL_DAILY_SENDS; i++) await checkMailOnBehalf(d, 'trial', 'trial-capped');
    const refused = checkMailOnBehalf(d, 'trial', 'trial-capped');
    await expect(refused).rejects.toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining(`${TRIAL_DAILY_SENDS} invitations and recommendations a day`) });
    // A check that is not capped takes nothing and still passes; a paying creator is not counted.
    await expect(checkMailOnBehalf(d, 'trial', 'verified-only')).resolves.toBeUndefined();
    for (let i = 0; i < TRIAL_DAILY_SENDS + 5; i++) await checkMailOnBehalf(d, 'paying', 'trial-capped');
    expect([...d.sendQuota.days.keys()]).toEqual(['trial#2026-11-20']);
    // The next UTC day starts again.
    clock.set('2026-11-21T00:00:01.000Z');
    await expect(checkMailOnBehalf(d, 'trial', 'trial-capped')).resolves.toBeUndefined();
  });

  it('a creator who has not verified cannot invite a leader: no account is made and nothing is sent', async () => {
    const d = licenseWorld();
    d.directory.unverified.add('u1');
    expect(await codeOf(grant(d))).toBe('EMAIL_NOT_VERIFIED');
    expect(d.directory.accounts.size).toBe(0);
    expect(d.mailer.sent).toEqual([]);
  });

  it("a leader's seat invitation needs a verified leader, and is not capped", async () => {
    const d = licenseWorld();
    const license = await grant(d, { seats: 3 });
    const leaderId = await leaderOf(d);
    d.directory.unverified.add(leaderId);
    expect(await codeOf(assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' }))).toBe('EMAIL_NOT_VERIFIED');
    expect(d.mailer.sent.map((m) => m.to)).toEqual(['lead@example.com']);
    d.directory.unverified.delete(leaderId);
    expect(await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' })).toEqual({ email: 'ann@example.com', status: 'active' });
  });
});
