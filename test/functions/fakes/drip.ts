import type { DripEnrollment, DripPlan, DripPlanStore } from '#core/enrollments/drip-notices.ts';
import type { QueuedMail } from '#core/ports.ts';

/**
 * Drip plans with the rules of functions/data/drip.ts and drip-notices.ts: `schedule` guarded by the `noticed` read,
 * `notice` adds its lessons and queues its emails only while none of them was noticed (one transaction), the due index
 * is the plans with `dueAt <= now`, earliest first.
 */
export const memoryDripPlans = (enrollments: () => readonly (DripEnrollment & { courseId: string })[] = () => []) => {
  const plans = new Map<string, DripPlan>();
  const queued: QueuedMail[] = [];
  const key = (courseId: string, learnerId: string) => `${courseId}/${learnerId}`;
  const copy = (plan: DripPlan): DripPlan => ({ ...plan, noticed: [...plan.noticed] });
  const store: DripPlanStore = {
    async due(now, limit, after) {
      const due = [...plans.values()].filter((p) => p.dueAt !== undefined && p.dueAt <= `${now}#~`).sort((a, b) => a.dueAt!.localeCompare(b.dueAt!));
      const start = after ? Number(after) : 0;
      const items = due.slice(start, start + limit).map(copy);
      return { items, nextCursor: start + limit < due.length ? String(start + limit) : null };
    },
    async get(courseId, learnerId) {
      const plan = plans.get(key(courseId, learnerId));
      return plan ? copy(plan) : undefined;
    },
    async schedule(courseId, learnerId, dueAt, before) {
      const current = plans.get(key(courseId, learnerId));
      if (before && current?.noticed.length !== before.noticed.length) return 'changed';
      const { dueAt: _old, ...rest } = current ?? { courseId, learnerId, noticed: [] };
      plans.set(key(courseId, learnerId), { ...rest, ...(dueAt !== undefined ? { dueAt } : {}) });
      return 'saved';
    },
    async notice(plan, lessonIds, dueAt, mails) {
      const current = plans.get(key(plan.courseId, plan.learnerId));
      if (!current || lessonIds.some((id) => current.noticed.includes(id))) return 'changed';
      const { dueAt: _old, ...rest } = current;
      plans.set(key(plan.courseId, plan.learnerId), { ...rest, noticed: [...current.noticed, ...lessonIds], ...(dueAt !== undefined ? { dueAt } : {}) });
      queued.push(...mails);
      return 'saved';
    },
    async enrollments(courseId, cursor) {
      const all = enrollments().filter((e) => e.courseId === courseId);
      const start = cursor ? Number(cursor) : 0;
      return { items: all.slice(start, start + 2).map(({ learnerId, enrolledAt, status }) => ({ learnerId, enrolledAt, status })), nextCursor: start + 2 < all.length ? String(start + 2) : null };
    },
  };
  return { store, plans, queued };
};

/** For course-change tests that start no drip change: a re-plan finds no course and stops. */
export const noDripReplan = () => ({ plans: memoryDripPlans().store, courses: { getOutline: async () => undefined } });
