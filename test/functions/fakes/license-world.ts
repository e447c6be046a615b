import type { PlanLevel } from '#contracts/entitlements.ts';
import type { User } from '#core/ports.ts';
import { grantLicense } from '#core/licenses/licenses.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { APP_ORIGIN, creator } from '#test/functions/fakes/deps.ts';
import { memoryCourseReader, memoryEnrollments, memoryMailer } from '#test/functions/fakes/enrollments.ts';
import { memoryLicenses } from '#test/functions/fakes/licenses.ts';
import { pricedCourse } from '#test/functions/fakes/payouts.ts';
import { onBehalfFakes, planSubscriptions } from '#test/functions/fakes/on-behalf.ts';
import { memoryUsers } from '#test/functions/fakes/users.ts';
import { memoryMailSchools } from '#test/functions/fakes/mail-schools.ts';

/**
 * Licensing in memory: two published courses (c1 of creator u1, c2 of u2), and what granting and seats need; the
 * creators on Pro unless `plans` says otherwise, `setPlan` moving one (an upgrade, a downgrade, an ended subscription).
 */
export const licenseWorld = (users: User[] = [creator()], plans: Record<string, PlanLevel> = {}) => {
  let n = 0;
  const { subscriptions, setPlan } = planSubscriptions({ u1: 'pro', u2: 'pro', ...plans });
  return {
    setPlan,
    courses: memoryCourseReader([pricedCourse(), pricedCourse({ id: 'c2', creatorId: 'u2', title: 'Other' })]),
    licenses: memoryLicenses(),
    enrollments: memoryEnrollments(),
    users: memoryUsers(users),
    ...onBehalfFakes(subscriptions),
    mailer: memoryMailer(),
    clock: testClock(NOW),
    ids: sequentialIds('lic'),
    appOrigin: APP_ORIGIN,
    ...memoryMailSchools(),
    temporaryPassword: () => `Temp-Pass-${++n}aA`,
  };
};
export type LicenseWorld = ReturnType<typeof licenseWorld>;

export const grant = (d: LicenseWorld, over: Partial<{ leaderEmail: string; seats: number; expiresAt: string }> = {}) =>
  grantLicense(d, { creatorId: 'u1', courseId: 'c1', body: { leaderEmail: 'lead@example.com', seats: 2, ...over } });
export const leaderOf = async (d: LicenseWorld, email = 'lead@example.com') => (await d.users.getUserIdByEmail(email))!;

