import { resetDueAccounts } from '#core/credits/credits.ts';
import { clock, creditRepository } from '#functions/composition/deps.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';

/**
 * Monthly AI-credit reset, a job of the engine (decision 0032): its hourly schedule starts a run (an account is reset
 * within the hour its period ends), whose slices go through the job's own queue, each resetting due accounts while
 * its invocation has time and handing the rest on. Keyed by period, so a slice delivered again, a double schedule or
 * an overlapping run applies nothing twice.
 */
export const work = () => resetDueAccounts({ credits: creditRepository(), clock });

export const handler = slicedJob('credit-reset', work);
