import type { QuizAttemptRepository, StoredQuizAttempts } from '#core/ports.ts';
import { withHooks } from './hooks.ts';
import type { memoryEnrollments } from './enrollments.ts';

/**
 * Quiz attempts in memory, with functions/data/quiz-attempts.ts's rule (recorded only over the count read); given the
 * enrolments fake, an attempt's report moves and marks apply with it (all or nothing), as its transaction does.
 */
export const memoryQuizAttempts = (enrollments?: ReturnType<typeof memoryEnrollments>) => {
  const items = new Map<string, StoredQuizAttempts>();
  const key = (courseId: string, learnerId: string, lessonId: string) => `${courseId}/${learnerId}/${lessonId}`;
  const repo = withHooks<QuizAttemptRepository>({
    async get(courseId, learnerId, lessonId) {
      const found = items.get(key(courseId, learnerId, lessonId));
      return found && structuredClone(found);
    },
    async listByLearner(courseId, learnerId) {
      return structuredClone([...items.values()].filter((a) => a.courseId === courseId && a.learnerId === learnerId));
    },
    async record(state, seenAttempts, report) {
      const k = key(state.courseId, state.learnerId, state.lessonId);
      if ((items.get(k)?.attempts ?? 0) !== seenAttempts) return 'changed';
      if (enrollments && report) {
        const enrollment = enrollments.items.get(`${state.courseId}/${state.learnerId}`);
        if (!enrollment || enrollment.status !== 'active' || !enrollments.reports.allows(enrollment, report)) return 'changed';
        enrollments.reports.apply(state.courseId, report);
        enrollments.items.set(`${state.courseId}/${state.learnerId}`, enrollments.reports.marked(enrollment, report));
      }
      items.set(k, structuredClone(state));
      return 'recorded';
    },
  });
  return Object.assign(repo, { items });
};
