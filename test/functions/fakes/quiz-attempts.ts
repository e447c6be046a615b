import type { QuizAttemptRepository, StoredQuizAttempts } from '#core/ports.ts';
import { withHooks } from './hooks.ts';

/** Quiz attempts in memory, with functions/data/quiz-attempts.ts's rule (recorded only over the count read). */
export const memoryQuizAttempts = () => {
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
    async record(state, seenAttempts) {
      const k = key(state.courseId, state.learnerId, state.lessonId);
      if ((items.get(k)?.attempts ?? 0) !== seenAttempts) return 'changed';
      items.set(k, structuredClone(state));
      return 'recorded';
    },
  });
  return Object.assign(repo, { items });
};
