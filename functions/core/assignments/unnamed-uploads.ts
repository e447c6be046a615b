import type { StoredSubmissionFile, SubmissionFileStore, UnnamedUploadRepository } from '#core/assignments/ports.ts';
import { submissionFileKey } from '#core/assignments/rules.ts';
import { throughPages } from '#core/jobs/slices.ts';
import type { Clock } from '#core/ports.ts';

/**
 * Uploads no submission named (issue 35 point 2): a learner may start an upload and never hand it in. Each upload's
 * item is due at unnamedUploadLifetime's `dueAt` in a sparse index until a submission's write takes it off; the sweep
 * reads that index as of now and removes each due upload, bytes and item.
 *
 * Order, so that a kill at any point loses nothing and a racing submission never names a file without bytes:
 * 1. claim: the item is marked as being removed, only while still unnamed. A submission's write is conditioned on no
 *    such mark, so from here on nobody can name it; a submission that won the race keeps its file (claim false).
 * 2. the object deleted (idempotent).
 * 3. the item deleted.
 * The item stays in the index until step 3, so a run killed after 1 or 2 finds it again and repeats the (idempotent)
 * steps; deleting the item first would leave the object with nothing left to find it by, and deleting the object
 * before any mark could take the bytes of a file a submission names in between.
 */

export const UNNAMED_UPLOADS_PAGE = 25;
const CONCURRENCY = 4;

export interface UnnamedUploadDeps {
  uploads: UnnamedUploadRepository;
  files: Pick<SubmissionFileStore, 'deleteObjects'>;
  clock: Clock;
}

export type UnnamedUploadCounts = { uploadsRemoved: number; uploadsNamed: number };

/** One upload out, or left alone when a submission named it first. */
const removeUnnamed = async (deps: UnnamedUploadDeps, file: StoredSubmissionFile, counts: UnnamedUploadCounts): Promise<void> => {
  if (!(await deps.uploads.claim(file))) {
    counts.uploadsNamed++;
    return;
  }
  await deps.files.deleteObjects([submissionFileKey(file)]);
  await deps.uploads.remove(file);
  counts.uploadsRemoved++;
};

/** A slice's part of the sweep, from `cursor` while time remains: where to go on from (undefined: none due left). */
export const sweepUnnamedUploads = async (
  deps: UnnamedUploadDeps,
  cursor: string | undefined,
  timeUp: () => boolean,
): Promise<{ cursor: string | undefined; counts: UnnamedUploadCounts }> => {
  const counts: UnnamedUploadCounts = { uploadsRemoved: 0, uploadsNamed: 0 };
  const now = deps.clock.now().toISOString();
  const done = await throughPages({
    cursor,
    timeUp,
    page: (c) => deps.uploads.due(now, UNNAMED_UPLOADS_PAGE, c),
    handle: (file) => removeUnnamed(deps, file, counts),
    concurrency: CONCURRENCY,
  });
  return { cursor: done.cursor, counts };
};
