import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredQuizAttempts } from '#core/ports.ts';
import { dynamoQuizAttempts } from '#data/quiz-attempts.ts';
import { useLocalCloudEnv } from '../support.ts';
import { unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const state = (courseId: string, learnerId: string, lessonId: string, attempts: number, over: Partial<StoredQuizAttempts> = {}): StoredQuizAttempts => ({
  courseId,
  learnerId,
  lessonId,
  title: 'Check',
  attempts,
  bestScore: 50,
  passed: false,
  lastCorrect: [true, false],
  updatedAt: '2026-11-26T10:00:00.000Z',
  ...over,
});

describe('dynamoQuizAttempts', () => {
  it('records an attempt only over the count read, so concurrent ones are counted one by one', async () => {
    const repo = dynamoQuizAttempts();
    const [courseId, learnerId] = [unique('course'), unique('learner')];
    const firsts = await Promise.all(Array.from({ length: 5 }, () => repo.record(state(courseId, learnerId, 'q1', 1), 0)));
    expect(firsts.filter((r) => r === 'recorded')).toHaveLength(1);
    expect(await repo.record(state(courseId, learnerId, 'q1', 2), 0)).toBe('changed');
    expect(await repo.record(state(courseId, learnerId, 'q1', 2, { passed: true, bestScore: 100 }), 1)).toBe('recorded');
    expect(await repo.get(courseId, learnerId, 'q1')).toEqual(state(courseId, learnerId, 'q1', 2, { passed: true, bestScore: 100 }));
  });

  it("lists a learner's quizzes of one course, no other learner's or course's", async () => {
    const repo = dynamoQuizAttempts();
    const [courseId, learnerId] = [unique('course'), unique('learner')];
    await repo.record(state(courseId, learnerId, 'q1', 1), 0);
    await repo.record(state(courseId, learnerId, 'q2', 1), 0);
    await repo.record(state(courseId, `${learnerId}-other`, 'q1', 1), 0);
    await repo.record(state(`${courseId}-other`, learnerId, 'q1', 1), 0);
    expect((await repo.listByLearner(courseId, learnerId)).map((a) => a.lessonId).sort()).toEqual(['q1', 'q2']);
  });
});
