import { describe, expect, it, vi } from 'vitest';
import type { Submission, SubmissionList } from '@contracts/submissions.ts';
import { startQueues, takeOldest } from './merge-queues.ts';

/** The cross-course Submissions list: the courses' queues merged oldest first, each read only as far as needed. */

const sub = (courseId: string, minute: number): Submission => ({
  id: `${courseId}-${minute}`,
  courseId,
  lessonId: 'l1',
  lessonTitle: 'Task',
  learnerEmail: 'ada@example.com',
  text: 'x',
  files: [],
  status: 'submitted',
  submittedAt: new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString(),
  feedback: null,
  gradedAt: null,
});

/** A course's queue served 2 a page, as the server would (its cursor: the index to go on from). */
const server = (queues: Record<string, Submission[]>) =>
  vi.fn(async (courseId: string, cursor: string | undefined): Promise<SubmissionList> => {
    const from = Number(cursor ?? 0);
    const all = queues[courseId] ?? [];
    return { items: all.slice(from, from + 2), nextCursor: from + 2 < all.length ? String(from + 2) : null };
  });

describe('takeOldest', () => {
  it('pages through several courses oldest first, never showing one twice or out of order', async () => {
    const a = [1, 4, 5, 9].map((m) => sub('a', m));
    const b = [2, 3, 8].map((m) => sub('b', m));
    const c: Submission[] = [];
    const read = server({ a, b, c });
    const first = await takeOldest(startQueues(['a', 'b', 'c']), read, 3);
    expect(first.items.map((s) => s.id)).toEqual(['a-1', 'b-2', 'b-3']);
    const second = await takeOldest(first.queues!, read, 3);
    expect(second.items.map((s) => s.id)).toEqual(['a-4', 'a-5', 'b-8']);
    const third = await takeOldest(second.queues!, read, 3);
    expect(third.items.map((s) => s.id)).toEqual(['a-9']);
    expect(third.queues).toBeNull();
    // Each course page read once: a twice, b twice, c once.
    expect(read).toHaveBeenCalledTimes(5);
  });

  it('reads on past an empty page that has more behind it', async () => {
    const read = vi
      .fn<(courseId: string, cursor: string | undefined) => Promise<SubmissionList>>()
      .mockResolvedValueOnce({ items: [], nextCursor: 'more' })
      .mockResolvedValueOnce({ items: [sub('a', 1)], nextCursor: null });
    const page = await takeOldest(startQueues(['a']), read, 20);
    expect(page.items.map((s) => s.id)).toEqual(['a-1']);
    expect(read).toHaveBeenLastCalledWith('a', 'more');
    expect(page.queues).toBeNull();
  });

  it('answers an empty page and no more for no courses', async () => {
    expect(await takeOldest([], server({}), 20)).toEqual({ items: [], queues: null });
  });
});
