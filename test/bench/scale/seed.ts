import type { CreditAccount, StoredCommission, StoredLicense, User } from '#core/ports.ts';
import { referralWrites } from '#data/affiliates.ts';
import { accountPut } from '#data/credits.ts';
import { dynamoCourses } from '#data/courses.ts';
import { dynamoEnrollments } from '#data/enrollments.ts';
import { dynamoLicenses } from '#data/licenses.ts';
import { dynamoUsers } from '#data/users.ts';
import { capturePutsOf } from './capture.ts';

/**
 * The scale bench's seed builders: items in exactly the shapes the data modules write, taken from the modules' own
 * writes (capture.ts) or their exported item helpers (accountPut, referralWrites). Pure: nothing is sent; scale.ts
 * writes the items with BatchWriteItem. Ids and emails carry a `tag` so each seeding is told apart from the others
 * in the same table.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export const learnerId = (tag: string, n: number): string => `${tag}-u${n}`;
export const learnerEmail = (tag: string, n: number): string => `${tag}-u${n}@scale.example.com`;

/** `count` accounts of `role` (profile and email claim, as createUser writes them; no Cognito user: nothing signs in). */
export const userItems = async (tag: string, count: number, opts: { role?: User['role']; from?: number; createdAt?: string } = {}): Promise<Record<string, unknown>[]> => {
  const users = dynamoUsers();
  const from = opts.from ?? 0;
  const createdAt = opts.createdAt ?? new Date().toISOString();
  return capturePutsOf(['User', 'UserEmail'], async () => {
    for (let n = from; n < from + count; n++) await users.createUser({ id: learnerId(tag, n), email: learnerEmail(tag, n), role: opts.role ?? 'learner', createdAt });
  });
};

export interface SeedCourse {
  id: string;
  title: string;
  creatorId: string;
}

/**
 * The enrolments of learners `from`..`from + count - 1` of `tag` on `course`, as `enroll` writes a new one, enrolled over
 * the last year (newest last); `licenseId` when they hold a seat.
 */
export const enrolmentItems = async (
  tag: string,
  course: SeedCourse,
  from: number,
  count: number,
  opts: { now?: number; licenseId?: (n: number) => string | undefined } = {},
): Promise<Record<string, unknown>[]> => {
  const enrollments = dynamoEnrollments();
  const now = opts.now ?? Date.now();
  return capturePutsOf(['Enrollment'], async () => {
    for (let i = 0; i < count; i++) {
      const n = from + i;
      const enrolledAt = new Date(now - Math.floor(((count - i) / count) * 365 * DAY_MS)).toISOString();
      const licenseId = opts.licenseId?.(n);
      await enrollments.enroll({
        courseId: course.id,
        learnerId: learnerId(tag, n),
        creatorId: course.creatorId,
        learnerEmail: learnerEmail(tag, n),
        learnerJoinedAt: enrolledAt,
        courseTitle: course.title,
        enrolledAt,
        ...(licenseId ? { licenseId } : {}),
      });
    }
  });
};

/** `count` credit accounts whose period ended at `periodEnd` (due for the monthly reset), as accountPut writes one. */
export const creditAccountItems = (tag: string, count: number, periodEnd: string): Record<string, unknown>[] =>
  Array.from({ length: count }, (_, n) => {
    const account: CreditAccount = { userId: learnerId(tag, n), creditsRemaining: 7, creditsUsed: 193, monthlyAllocation: 200, planType: 'pro', billingPeriodEnd: periodEnd };
    return accountPut(account).Put.Item;
  });

/** `count` pending commissions of one affiliate, due for approval at `approveAt`, as a paid order's referral writes them. */
export const commissionItems = (input: { creatorId: string; affiliateId: string; tag: string; count: number; approveAt: string; at: string; amount: number }): Record<string, unknown>[] =>
  Array.from({ length: input.count }, (_, n) => {
    const [put] = referralWrites({
      creatorId: input.creatorId,
      orderId: `${input.tag}-o${n}`,
      courseTitle: 'Scale course',
      orderAmount: input.amount * 5,
      at: input.at,
      affiliateId: input.affiliateId,
      commission: { affiliateId: input.affiliateId, amount: input.amount, approveAt: input.approveAt },
    });
    return (put as { Put: { Item: Record<string, unknown> } }).Put.Item;
  });

export type SeedCommission = StoredCommission;

/**
 * `count` licences of `seats` seats each on `course`, held by leaders `tag`-l<n> (their accounts too), the seats taken by
 * learners `tag`-u<...> with their enrolments (through the licence), as create, assign and enroll write them.
 * `expiresAt` null: open-ended. The learners' own accounts are written too.
 */
export const licenceItems = async (input: {
  tag: string;
  course: SeedCourse;
  count: number;
  seats: number;
  expiresAt: string | null;
  createdAt?: string;
  /** One leader of its own for every licence (an account that signs in): no leader accounts are written. */
  leader?: { id: string; email: string };
}): Promise<{ items: Record<string, unknown>[]; licenceIds: string[] }> => {
  const { tag, course, count, seats } = input;
  const leaderOf = (n: number) => input.leader ?? { id: `${tag}-l${n}`, email: `${tag}-l${n}@scale.example.com` };
  const createdAt = input.createdAt ?? new Date().toISOString();
  const licenses = dynamoLicenses();
  const licenceIds = Array.from({ length: count }, (_, n) => `lic_${tag}_${n}`);
  const leaders = input.leader
    ? []
    : await capturePutsOf(['User', 'UserEmail'], async () => {
        for (let n = 0; n < count; n++) await dynamoUsers().createUser({ ...leaderOf(n), role: 'leader', createdAt });
      });
  const licenceAndSeats = await capturePutsOf(['License', 'Seat'], async () => {
    for (let n = 0; n < count; n++) {
      const license: StoredLicense = {
        id: licenceIds[n]!,
        courseId: course.id,
        courseTitle: course.title,
        creatorId: course.creatorId,
        leaderId: leaderOf(n).id,
        leaderEmail: leaderOf(n).email,
        seatsTotal: seats,
        seatsUsed: seats,
        expiresAt: input.expiresAt,
        status: 'active',
        source: 'granted',
        orderId: null,
        createdAt,
      };
      await licenses.create(license);
      for (let s = 0; s < seats; s++) {
        const m = n * seats + s;
        await licenses.assign({ licenseId: license.id, email: learnerEmail(tag, m), learnerId: learnerId(tag, m), status: 'active', assignedAt: createdAt });
      }
    }
  });
  const members = await userItems(tag, count * seats, { createdAt });
  const enrolments = await enrolmentItems(tag, course, 0, count * seats, { licenseId: (m) => licenceIds[Math.floor(m / seats)] });
  return { items: [...leaders, ...licenceAndSeats, ...members, ...enrolments], licenceIds };
};

/** A draft course of `creatorId`, as the course module's create writes it (what enrolments and licences hang on). */
export const courseItems = async (course: SeedCourse, createdAt = new Date().toISOString()): Promise<Record<string, unknown>[]> =>
  capturePutsOf(['Course'], () =>
    dynamoCourses().create({
      id: course.id,
      creatorId: course.creatorId,
      title: course.title,
      description: '',
      status: 'draft',
      lessonCount: 0,
      priceAmount: 0,
      seatPriceAmount: 0,
      enrolledCount: 0,
      createdAt,
      updatedAt: createdAt,
    }),
  );
