import type { TrendWeek } from '@contracts/admin.ts';
import { formatPounds } from '@/lib/format-money.ts';

/** The charts' text equivalents: what a screen reader (or a reader who cannot see the chart) is told. */
export function signUpsSummary(weeks: TrendWeek[]): string {
  const total = weeks.reduce((sum, week) => sum + week.signUps, 0);
  return `Sign-ups per week over the last ${weeks.length} weeks: ${total} in total, ${weeks.at(-1)?.signUps ?? 0} this week.`;
}

export function mrrSummary(weeks: TrendWeek[]): string {
  return `Monthly recurring revenue at the end of each of the last ${weeks.length} weeks: from ${formatPounds(weeks[0]?.mrr ?? 0)} to ${formatPounds(weeks.at(-1)?.mrr ?? 0)} now.`;
}

/** '23 Nov' for a week starting on 2026-11-23. */
export function weekLabel(weekStart: string): string {
  const [, month = '1', day = '1'] = weekStart.split('-');
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${Number(day)} ${months[Number(month) - 1]}`;
}
