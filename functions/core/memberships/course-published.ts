import { membershipSource } from '#core/access/access.ts';
import { throughPages } from '#core/jobs/slices.ts';
import { membershipCovers } from '#core/memberships/memberships.ts';
import type { CourseRepository, EnrollmentRepository, MembershipRepository, StoredMember, UserRepository } from '#core/ports.ts';

/**
 * A course published reaches the members of every membership that gives it (its creator's 'all' ones, or one naming
 * it) at once, not at their subscription's next event (issue 34): the 'course-changed' run's `published` change walks
 * each such membership's subscriptions a page at a time, within the slice's time, and enrols each live member in the
 * course under the subscription's source.
 *
 * Why enrol on publish rather than let the access module answer from the membership: everything a learner has of a
 * course hangs on the enrolment (My Courses, progress, completion and its certificate, drip plans, the creator's CRM
 * and counts), so an access answer without one would open the player but leave the rest blind, and every one of
 * those readers would need the membership too. Enrolling keeps one rule: the membership's courses are enrolments
 * carrying its source, as its subscription events make them. It is idempotent (`enroll` adds a source once, so a
 * retried slice or a repeated run changes nothing) and bounded (a page of members per step, at most
 * MEMBERSHIPS_PER_CREATOR_MAX memberships, the run's cursor carrying on where time ran out).
 */
export interface MembersOnPublishDeps {
  memberships: Pick<MembershipRepository, 'listByCreator' | 'members'>;
  courses: Pick<CourseRepository, 'listByCreator'>;
  enrollments: Pick<EnrollmentRepository, 'enroll'>;
  users: Pick<UserRepository, 'getUser'>;
  clock: { now(): Date };
}

/** Members read a page at a time. */
export const MEMBERS_PAGE = 100;
const ENROL_CONCURRENCY = 8;

/** A subscription that holds its courses now (as the subscription events enrol): trialing, active, past due. */
const live = (member: StoredMember): boolean => member.status === 'trialing' || member.status === 'active' || member.status === 'past_due';

/** The run's cursor: the membership being walked and its members' cursor ('<membershipId>|<cursor>'). */
const parseCursor = (cursor: string | undefined): { membershipId: string; members: string | undefined } | undefined => {
  if (!cursor) return undefined;
  const at = cursor.indexOf('|');
  return { membershipId: cursor.slice(0, at), members: cursor.slice(at + 1) || undefined };
};

export const enrolMembersOnPublish = async (
  deps: MembersOnPublishDeps,
  change: { courseId: string; creatorId: string },
  cursor: string | undefined,
  timeUp: () => boolean,
): Promise<{ cursor?: string; counts: { enrolled: number } }> => {
  const counts = { enrolled: 0 };
  const course = (await deps.courses.listByCreator(change.creatorId)).find((c) => c.id === change.courseId);
  // Unpublished again (or deleted) since: nothing to give; a later publish starts its own run.
  if (course?.status !== 'published') return { counts };
  // In id order, so the cursor's place holds while memberships are made or deleted during the run.
  const memberships = (await deps.memberships.listByCreator(change.creatorId)).filter((m) => membershipCovers(m, course)).sort((a, b) => a.id.localeCompare(b.id));
  const at = parseCursor(cursor);
  const now = deps.clock.now().toISOString();
  for (const membership of memberships) {
    if (at && membership.id < at.membershipId) continue;
    const done = await throughPages<StoredMember>({
      cursor: at?.membershipId === membership.id ? at.members : undefined,
      timeUp,
      concurrency: ENROL_CONCURRENCY,
      page: (c) => deps.memberships.members(membership.id, { cursor: c, limit: MEMBERS_PAGE }),
      handle: async (member) => {
        if (!member.learnerId || !live(member)) return;
        const user = await deps.users.getUser(member.learnerId);
        if (!user) return;
        const result = await deps.enrollments.enroll({
          courseId: course.id,
          learnerId: member.learnerId,
          creatorId: membership.creatorId,
          learnerEmail: user.email,
          learnerJoinedAt: user.createdAt,
          courseTitle: course.title,
          enrolledAt: now,
          licenseId: undefined,
          source: membershipSource(membership.id, member.subscriptionId),
        });
        if (result.status !== 'already') counts.enrolled++;
      },
    });
    if (done.cursor !== undefined) return { cursor: `${membership.id}|${done.cursor}`, counts };
    // This membership done and the time up: the next slice starts after it ('\u0000' sorts past this id, before any other).
    if (timeUp()) return { cursor: `${membership.id}\u0000|`, counts };
  }
  return { counts };
};
