import type { CreatorAnalytics } from '@contracts/sales.ts';
import { formatPounds } from '@/lib/format-money.ts';

/** The chart's height in pixels: the chart's and its placeholder's. */
export const CHART_HEIGHT = 260;

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '25 Nov' for the UTC day 2026-11-25 (read from the string: the day is the server's, not the viewer's zone's). */
export function dayLabel(date: string): string {
  const [, month = '1', day = '1'] = date.split('-');
  return `${Number(day)} ${months[Number(month) - 1] ?? ''}`;
}

/** Pounds that may be below zero: a window's refunds can outweigh its sales ('-£40'). */
export const signedPounds = (pence: number): string => (pence < 0 ? `-${formatPounds(-pence)}` : formatPounds(pence));

/** '1 sale', '3 sales'. */
export const countOf = (count: number, one: string, many = `${one}s`): string => `${count.toLocaleString('en-GB')} ${count === 1 ? one : many}`;

export interface ChartPoint {
  /** The bucket's first day, YYYY-MM-DD. */
  date: string;
  revenue: number;
  sales: number;
}

/**
 * What the chart draws: a 30-day window one bar a day; longer ones one bar a week (seven days ending on the window's
 * last day, so the newest week is whole and only the oldest may be short), since 90 or 365 daily bars read as noise.
 */
export function chartPoints(series: CreatorAnalytics['series']): { unit: 'day' | 'week'; points: ChartPoint[] } {
  if (series.length <= 31) return { unit: 'day', points: series };
  const points: ChartPoint[] = [];
  for (let end = series.length; end > 0; end -= 7) {
    const week = series.slice(Math.max(0, end - 7), end);
    points.unshift({
      date: week[0]!.date,
      revenue: week.reduce((sum, day) => sum + day.revenue, 0),
      sales: week.reduce((sum, day) => sum + day.sales, 0),
    });
  }
  return { unit: 'week', points };
}

/** The chart's text equivalent: what a screen reader (or a reader who cannot see the chart) is told. */
export function revenueSummary(analytics: CreatorAnalytics): string {
  const { unit, points } = chartPoints(analytics.series);
  const first = analytics.series[0];
  const last = analytics.series.at(-1);
  const span = first && last ? `from ${dayLabel(first.date)} to ${dayLabel(last.date)}` : `over the last ${analytics.days} days`;
  const best = points.reduce<ChartPoint | undefined>((top, point) => (point.revenue > (top?.revenue ?? 0) ? point : top), undefined);
  const total = `${signedPounds(analytics.revenue)} from ${countOf(analytics.sales, 'sale')}`;
  const refunds = analytics.refunds > 0 ? `, after ${countOf(analytics.refunds, 'refund')}` : '';
  const when = best && (unit === 'day' ? `day was ${dayLabel(best.date)}` : `week was that of ${dayLabel(best.date)}`);
  const peak = best ? ` The best ${when}, with ${formatPounds(best.revenue)} from ${countOf(best.sales, 'sale')}.` : '';
  return `Revenue and sales per ${unit} ${span}: ${total}${refunds}.${peak}`;
}

/** Round axis ticks from `low` to `high` in about five steps of 1, 2, 2.5 or 5 times a power of ten (`whole`: no 2.5). */
export function axisTicks(low: number, high: number, whole = false): number[] {
  const raw = Math.max((high - low) / 5, whole ? 1 : Number.EPSILON);
  const power = 10 ** Math.floor(Math.log10(raw));
  const multiples = whole && power === 1 ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10];
  const step = (multiples.find((m) => m * power >= raw) ?? 10) * power;
  const ticks: number[] = [];
  for (let tick = Math.floor(low / step) * step; tick < high + step; tick += step) {
    ticks.push(Number(tick.toFixed(2)));
    if (tick >= high) break;
  }
  return ticks;
}
