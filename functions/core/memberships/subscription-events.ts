import { membershipSource, sourcesOf } from '#core/access/access.ts';
import { accountOrInvite } from '#core/accounts/create-account.ts';
import { purchaseInvitationEmail } from '#core/enrollments/invitation-email.ts';
import { coursesGiven } from '#core/memberships/memberships.ts';
import type {
  Clock,
  CourseRepository,
  Directory,
  EnrollmentRepository,
  Mailer,
  MailSchoolOf,
  MembershipEvent,
  MembershipRepository,
  StoredMember,
  StoredMembership,
  UserRepository,
} from '#core/ports.ts';


/**
 * A membership's Connect events (issue 34 point 2), applied once and in any order:
 * - `customer.subscription.created/updated/deleted` replace the member's state only when not older than the one
 *   applied (Stripe's `created`, then the status's rank within one second: a renewal's `active` after its `past_due`
 *   of the same second is not; a `canceled` outranks them all), and a deleted subscription never comes back by a late
 *   `updated` (the repository's condition);
 * - `checkout.session.completed` (subscription mode) names the buyer: their learner account, made and invited as a
 *   course buyer's is when the email is new.
 * Then, whatever came first, the learner's enrolments follow the member's state as stored (not the event's): live,
 * each course the membership gives holds the subscription's source (progress kept from any earlier enrolment);
 * ended (`canceled`, `unpaid`), the source leaves each (the enrolment goes with its last source, progress kept, so
 * resubscribing brings it back). Past due beyond the paid period is the access module's to refuse (it reads the time).
 */
export interface MembershipEventDeps {
  memberships: Pick<MembershipRepository, 'get' | 'member' | 'applyState' | 'bindLearner'>;
  courses: Pick<CourseRepository, 'listByCreator'>;
  enrollments: Pick<EnrollmentRepository, 'enroll' | 'revokeSource' | 'listByLearner'>;
  users: UserRepository;
  directory: Directory;
  mailer: Mailer;
  mailSchool: MailSchoolOf;
  clock: Clock;
  appOrigin: string;
  temporaryPassword: () => string;
}

export type MembershipEventOutcome = 'applied' | 'stale' | 'unknown' | 'unfulfillable';

/** Within one second of Stripe's `created`, the later state of a subscription's life wins. */
const statusRank: Record<StoredMember['status'], number> = { incomplete: 0, trialing: 1, active: 2, past_due: 3, unpaid: 4, canceled: 5 };
export const eventKeyOf = (created: number, status: StoredMember['status']): number => created * 10 + statusRank[status];

const LIVE: ReadonlySet<StoredMember['status']> = new Set(['trialing', 'active', 'past_due']);
const ENDED: ReadonlySet<StoredMember['status']> = new Set(['canceled', 'unpaid']);

/** The learner's enrolments made to follow the member's stored state (idempotent: a repeat changes nothing). */
export const followMember = async (deps: MembershipEventDeps, membership: StoredMembership, member: StoredMember): Promise<void> => {
  if (!member.learnerId) return;
  const learnerId = member.learnerId;
  const source = membershipSource(member.membershipId, member.subscriptionId);
  const courses = coursesGiven(membership, await deps.courses.listByCreator(membership.creatorId));
  if (LIVE.has(member.status)) {
    const user = await deps.users.getUser(learnerId);
    if (!user) return;
    const now = deps.clock.now().toISOString();
    for (const course of courses) {
      await deps.enrollments.enroll({
        courseId: course.id,
        learnerId,
        creatorId: membership.creatorId,
        learnerEmail: user.email,
        learnerJoinedAt: user.createdAt,
        courseTitle: course.title,
        enrolledAt: now,
        licenseId: undefined,
        source,
      });
    }
  } else if (ENDED.has(member.status)) {
    for (const course of courses) await deps.enrollments.revokeSource(course.id, learnerId, source);
  }
};

/**
 * A membership its creator deleted while subscriptions to it run on (deleting stops new members, not Stripe's
 * billing): its subscriptions' rows outlive it, so their events still apply, and an ending still takes the source off
 * every enrolment of the learner that carries it (the deleted membership's courses are no longer known). A checkout for
 * it, or an event of a subscription never seen, has nothing to hold to: 'unknown', answered 200 as other unknowns.
 */
const followEndedWithoutMembership = async (deps: MembershipEventDeps, member: StoredMember): Promise<void> => {
  if (!member.learnerId || !ENDED.has(member.status)) return;
  const source = membershipSource(member.membershipId, member.subscriptionId);
  for (const enrollment of await deps.enrollments.listByLearner(member.learnerId)) {
    if (sourcesOf(enrollment).includes(source)) await deps.enrollments.revokeSource(enrollment.courseId, member.learnerId, source);
  }
};

export const applyMembershipEvent = async (
  deps: MembershipEventDeps,
  event: MembershipEvent,
): Promise<MembershipEventOutcome> => {
  const membership = await deps.memberships.get(event.membershipId);
  if (!membership) {
    const known = event.kind === 'subscription' ? await deps.memberships.member(event.membershipId, event.subscriptionId) : undefined;
    if (!known || event.kind !== 'subscription') return 'unknown';
    const applied = await deps.memberships.applyState({
      membershipId: event.membershipId,
      subscriptionId: event.subscriptionId,
      identity: { creatorId: known.creatorId, accountId: known.accountId, createdAt: known.createdAt },
      state: event.state,
      eventKey: eventKeyOf(event.created, event.state.status),
    });
    const member = await deps.memberships.member(event.membershipId, event.subscriptionId);
    if (member) await followEndedWithoutMembership(deps, member);
    return applied ? 'applied' : 'stale';
  }
  const identity = { creatorId: membership.creatorId, accountId: event.account, createdAt: deps.clock.now().toISOString() };
  let applied = true;
  if (event.kind === 'subscription') {
    applied = await deps.memberships.applyState({
      membershipId: event.membershipId,
      subscriptionId: event.subscriptionId,
      identity,
      state: event.state,
      eventKey: eventKeyOf(event.created, event.state.status),
    });
  } else {
    if (!event.email) return 'unfulfillable';
    const school = await deps.mailSchool(membership.creatorId);
    const account = await accountOrInvite(deps, {
      email: event.email.toLowerCase(),
      role: 'learner',
      invitation: (temporaryPassword, user) =>
        purchaseInvitationEmail({ appOrigin: deps.appOrigin, email: user.email, courseTitle: membership.title, temporaryPassword, amount: membership.priceAmount, school }),
    });
    // An email of another role (a creator's own, say) cannot hold a learner's place: the member stays without access.
    if (!account) return 'unfulfillable';
    await deps.memberships.bindLearner({ membershipId: event.membershipId, subscriptionId: event.subscriptionId, identity, email: account.user.email, learnerId: account.user.id });
  }
  const member = await deps.memberships.member(event.membershipId, event.subscriptionId);
  if (member) await followMember(deps, membership, member);
  return applied ? 'applied' : 'stale';
};
