import type { Context, ScheduledEvent } from 'aws-lambda';
import { sendWeeklyReports } from '#core/licenses/weekly-report.ts';
import { weeklyReportDeps } from '#functions/composition/deps-campaigns.ts';
import { invocation } from '#middleware/invocation.ts';

/**
 * Mondays, by EventBridge Scheduler: each group leader's weekly team email (new completions, stalled members), once
 * per leader and week however often it runs; a run near its timeout stops and a rerun goes on with the rest.
 */
export const handler = (event: Partial<ScheduledEvent> = {}, context?: Pick<Context, 'getRemainingTimeInMillis'>) =>
  invocation({ job: 'leader-weekly-report' }, async (log) => {
    const result = await sendWeeklyReports(weeklyReportDeps(() => context?.getRemainingTimeInMillis() ?? 25_000));
    log.info('weekly team reports', { scheduledAt: event.time, ...result });
    return result;
  });
