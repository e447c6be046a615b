import { sendWeeklyReports } from '#core/licenses/weekly-report.ts';
import { weeklyReportDeps } from '#functions/composition/deps-campaigns.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';

/**
 * Mondays, by EventBridge Scheduler, then on its own queue (decision 0033): each group leader's weekly team email (new
 * completions, stalled members), once per leader and week; the run's main lane pages the leaders and opens a lane per
 * page, the lanes sending in parallel, so every leader gets it whatever their number.
 */
export const work = (remainingMs: () => number) => sendWeeklyReports(weeklyReportDeps(remainingMs));

export const handler = slicedJob('leader-weekly-report', work);
