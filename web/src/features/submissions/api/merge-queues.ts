import type { Submission, SubmissionList } from '@contracts/submissions.ts';

/**
 * One course's queue as the cross-course list reads it: the submissions read but not shown yet, and where its next
 * page starts (`undefined`: not read yet; `null`: read to its end).
 */
export interface CourseQueue {
  courseId: string;
  buffered: Submission[];
  next: string | null | undefined;
}

export const startQueues = (courseIds: string[]): CourseQueue[] => courseIds.map((courseId) => ({ courseId, buffered: [], next: undefined }));

const older = (a: Submission, b: Submission) => a.submittedAt < b.submittedAt || (a.submittedAt === b.submittedAt && a.id < b.id);

/**
 * The next `size` submissions across several courses' queues, oldest first, as the server orders each one: a merge
 * of the per-course pages (GET /api/courses/{id}/submissions, itself read by key, 20 at a time). Before each pick
 * every queue that may hold more has a head in hand, so nothing older is ever shown after something newer; a course
 * is read again only when its buffer runs out. Answers the page and the queues to go on from (null: all read).
 */
export async function takeOldest(
  queues: CourseQueue[],
  readPage: (courseId: string, cursor: string | undefined) => Promise<SubmissionList>,
  size: number,
): Promise<{ items: Submission[]; queues: CourseQueue[] | null }> {
  const state = queues.map((q) => ({ ...q, buffered: [...q.buffered] }));
  const items: Submission[] = [];
  while (items.length < size) {
    const empty = state.filter((q) => q.buffered.length === 0 && q.next !== null);
    if (empty.length > 0) {
      await Promise.all(
        empty.map(async (q) => {
          const page = await readPage(q.courseId, q.next ?? undefined);
          q.buffered = [...page.items];
          q.next = page.nextCursor;
        }),
      );
      continue; // a page may come back empty with more behind it: read on before picking
    }
    let oldest: (typeof state)[number] | undefined;
    for (const q of state) if (q.buffered[0] && (!oldest || older(q.buffered[0], oldest.buffered[0]!))) oldest = q;
    if (!oldest) break;
    items.push(oldest.buffered.shift()!);
  }
  const more = state.some((q) => q.buffered.length > 0 || q.next !== null);
  return { items, queues: more ? state : null };
}
