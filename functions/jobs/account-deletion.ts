import { ACCOUNT_DELETION_JOB, runAccountDeletion } from '#core/accounts/delete-account.ts';
import type { SliceWork } from '#core/jobs/slices.ts';
import { accountDeletionJobDeps } from '#functions/composition/deps-account-deletion.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';

/**
 * One person's deletion as slices: each goes on from the deletion item's step (core/accounts/delete-account.ts); the
 * cursor only says the run is not done, the item says where it stands.
 */
export const work =
  (_remainingMs: () => number): SliceWork<{ steps: number }> =>
  async (slice, timeUp) => {
    const userId = String(slice.input?.['userId'] ?? '');
    if (userId === '') return { counts: { steps: 0 } };
    const { finished, steps } = await runAccountDeletion(accountDeletionJobDeps(), userId, timeUp);
    return { ...(finished ? {} : { cursor: String(steps) }), counts: { steps } };
  };

/** Started only by DELETE /api/me, through its queue: it has no schedule. */
export const handler = slicedJob(ACCOUNT_DELETION_JOB, work);
