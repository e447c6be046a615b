import { licenseGivesAccess } from '#core/licenses/access.ts';
import type { Clock, Enrollment, EnrollmentRepository, LicenseRepository, MembershipRepository, NewEnrollment, StoredLicense, StoredMember } from '#core/ports.ts';

/**
 * Whether a learner may open a course, answered in one place (issue 34 point 4): every learner route that opens a
 * course (the course, its outline, a lesson, a file, completing a lesson, a quiz attempt, a session's calendar) asks
 * here, and nowhere else decides it. The answer comes from the learner's sources of access:
 * - their enrolment: their own (bought, or given by the creator) or a bundle's they bought (its `sources`), active;
 * - a team licence's seat: an active enrolment through the licence (`licenseId`), which needs the licence to give
 *   access now (past its end date it is refused at once, before the daily job ends it).
 * - a membership's subscription (`membership:<membershipId>:<subscriptionId>` in the enrolment's `sources`, put there
 *   by the subscription's events): while Stripe says active or trialing, or past due until the paid period ends; a
 *   cancelled or unpaid one gives nothing (its events take the source away; progress stays on the enrolment, and a
 *   new subscription's source brings it back).
 * The enrolment is also where the learner's progress lives, so every source answers with it.
 * Its own small module: the learner routes' bundles carry it, not licensing's or sales' code.
 */

/** The source of an enrolment the learner holds by their own means: bought alone, given by the creator, a seat. */
export const OWN_SOURCE = 'own';
/** The source of an enrolment a bundle's order gave (or also covers). */
export const bundleSource = (orderId: string): string => `order:${orderId}`;
/** The source of an enrolment a membership's subscription gives. */
export const membershipSource = (membershipId: string, subscriptionId: string): string => `membership:${membershipId}:${subscriptionId}`;
const MEMBERSHIP_PREFIX = 'membership:';
/** A membership source's membership and subscription, or undefined for another kind of source. */
export const membershipOfSource = (source: string): { membershipId: string; subscriptionId: string } | undefined => {
  if (!source.startsWith(MEMBERSHIP_PREFIX)) return undefined;
  const [membershipId = '', subscriptionId = ''] = source.slice(MEMBERSHIP_PREFIX.length).split(':');
  return membershipId && subscriptionId ? { membershipId, subscriptionId } : undefined;
};

/**
 * A subscription gives access while Stripe says `active` or `trialing`, or `past_due` until the period it paid for
 * ends (Stripe is retrying the payment); `unpaid`, `canceled` and `incomplete` give nothing (API.md).
 */
export const memberGivesAccess = (member: Pick<StoredMember, 'status' | 'currentPeriodEnd'>, now: Date): boolean =>
  member.status === 'active' ||
  member.status === 'trialing' ||
  (member.status === 'past_due' && member.currentPeriodEnd !== null && now.getTime() < Date.parse(member.currentPeriodEnd));

/** An enrolment's sources as stored (absent: its own alone, as every enrolment made before bundles). */
export const sourcesOf = (e: Pick<Enrollment, 'sources'>): string[] => e.sources ?? [OWN_SOURCE];

/**
 * A removed enrolment enrolled again, as the repository writes it (functions/data/enrollments.ts and its in-memory
 * fake alike): its progress kept under its first enrolment date; the learner's email and the course title refreshed;
 * its access now through this enrolment's licence, or their own; `source` its only source (none: its own).
 */
export const restoredEnrollment = (existing: Enrollment, input: Pick<NewEnrollment, 'learnerEmail' | 'courseTitle' | 'licenseId'>, source: string | undefined): Enrollment => {
  const { licenseId: _previous, sources: _before, ...kept } = existing;
  return {
    ...kept,
    status: 'active',
    learnerEmail: input.learnerEmail,
    courseTitle: input.courseTitle,
    ...(input.licenseId ? { licenseId: input.licenseId } : {}),
    ...(source ? { sources: [source] } : {}),
  };
};

/** What the access module reads (its port): the learner's enrolment in the course, a licence, the time. */
export interface AccessSources {
  enrollments: Pick<EnrollmentRepository, 'get'>;
  licenses: Pick<LicenseRepository, 'get'>;
  /** The membership subscriptions an enrolment names (absent: no membership gives access through this reader). */
  memberships?: Pick<MembershipRepository, 'member'> | undefined;
  clock: Clock;
}

/** Where a learner's access to a course comes from. */
export type AccessSource = 'enrollment' | 'license' | 'bundle' | 'membership';

/** What a source's answer needs of the enrolment. */
type EnrollmentSource = Pick<Enrollment, 'status' | 'licenseId' | 'sources'>;

export type CourseAccess<E extends EnrollmentSource = Enrollment> =
  /** The learner may open the course: through `source`, with their enrolment (their progress). */
  | { open: true; source: AccessSource; enrollment: E }
  /** No source gives access: the course is answered as one that does not exist. */
  | { open: false; reason: 'none' }
  /** Their only source was a team licence that has ended (or gone): they are told so, and to ask their leader. */
  | { open: false; reason: 'license-ended'; enrollment: E };

/**
 * One enrolment's access, as read with its licence (`license`: the enrolment's licence as read; undefined when it has
 * none, or the licence is gone): pure, for those that read the sources themselves (the certificates job).
 */
export const enrollmentAccess = <E extends EnrollmentSource>(
  enrollment: E | undefined,
  license: Pick<StoredLicense, 'status' | 'expiresAt'> | undefined,
  now: Date,
  /** The membership subscriptions the enrolment names, as read (one gone is left out). */
  members: readonly Pick<StoredMember, 'status' | 'currentPeriodEnd'>[] = [],
): CourseAccess<E> => {
  if (enrollment?.status !== 'active') return { open: false, reason: 'none' };
  if (enrollment.licenseId) {
    return license && licenseGivesAccess(license, now) ? { open: true, source: 'license', enrollment } : { open: false, reason: 'license-ended', enrollment };
  }
  const sources = sourcesOf(enrollment);
  if (sources.includes(OWN_SOURCE)) return { open: true, source: 'enrollment', enrollment };
  // A bundle's order gives it for good (until refunded, which takes the source away).
  if (sources.some((source) => !membershipOfSource(source))) return { open: true, source: 'bundle', enrollment };
  return members.some((member) => memberGivesAccess(member, now)) ? { open: true, source: 'membership', enrollment } : { open: false, reason: 'none' };
};

/** The membership subscriptions an enrolment names, read by their keys (consistent reads). */
export const membersOf = async (deps: Pick<AccessSources, 'memberships'>, enrollment: Pick<Enrollment, 'sources'> | undefined): Promise<StoredMember[]> => {
  if (!enrollment || !deps.memberships) return [];
  const reader = deps.memberships;
  const refs = sourcesOf(enrollment).flatMap((source) => membershipOfSource(source) ?? []);
  const found = await Promise.all(refs.map((ref) => reader.member(ref.membershipId, ref.subscriptionId)));
  return found.flatMap((member) => member ?? []);
};

/** Whether `learnerId` may open `courseId` now, and through what (the course's own state is the caller's to check). */
export const courseAccess = async (deps: AccessSources, learnerId: string, courseId: string): Promise<CourseAccess> => {
  const enrollment = await deps.enrollments.get(courseId, learnerId);
  const license = enrollment?.status === 'active' && enrollment.licenseId ? await deps.licenses.get(enrollment.licenseId) : undefined;
  const members = enrollment?.status === 'active' ? await membersOf(deps, enrollment) : [];
  return enrollmentAccess(enrollment, license, deps.clock.now(), members);
};
