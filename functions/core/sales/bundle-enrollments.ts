import { bundleSource } from '#core/access/access.ts';
import type { EnrollmentRepository, Order, User } from '#core/ports.ts';

/**
 * What a bundle's order gives and takes back (issue 34): an enrolment in each of its courses, each holding the
 * order as its source (core/access/access.ts). A course the buyer holds already (bought alone, given by the creator,
 * another bundle) keeps its enrolment and progress, the order's source added beside the others; the order's refund or
 * dispute takes its source away, and the enrolment goes only where it was the last. Both safe to repeat.
 */

/** Whether the order is a bundle's (it names the bundle and its courses). */
export const isBundleOrder = (order: Pick<Order, 'bundleId' | 'courseIds'>): order is Order & { bundleId: string; courseIds: string[] } =>
  order.bundleId !== undefined && order.courseIds !== undefined;

/** The learner enrolled in each of the bundle order's courses, under the order's source. */
export const enrollBundle = async (
  deps: { enrollments: Pick<EnrollmentRepository, 'enroll'>; clock: { now(): Date } },
  order: Pick<Order, 'id' | 'creatorId' | 'courseIds' | 'courseTitles'>,
  learner: Pick<User, 'id' | 'email' | 'createdAt'>,
): Promise<void> => {
  const enrolledAt = deps.clock.now().toISOString();
  const titles = order.courseTitles ?? [];
  for (const [i, courseId] of (order.courseIds ?? []).entries()) {
    await deps.enrollments.enroll({
      courseId,
      learnerId: learner.id,
      creatorId: order.creatorId,
      learnerEmail: learner.email,
      learnerJoinedAt: learner.createdAt,
      courseTitle: titles[i] ?? order.id,
      enrolledAt,
      source: bundleSource(order.id),
    });
  }
};

/**
 * The bundle order's source taken from the learner's enrolments: each course goes unless held by other means. Answers
 * the courses whose enrolment went with it (their certificates go too).
 */
export const revokeBundle = async (
  deps: { enrollments: Pick<EnrollmentRepository, 'revokeSource'> },
  order: Pick<Order, 'id' | 'courseIds'>,
  learnerId: string,
): Promise<string[]> => {
  const removed: string[] = [];
  for (const courseId of order.courseIds ?? []) {
    if ((await deps.enrollments.revokeSource(courseId, learnerId, bundleSource(order.id))) === 'removed') removed.push(courseId);
  }
  return removed;
};
