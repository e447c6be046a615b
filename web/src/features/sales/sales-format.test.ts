import { describe, expect, it } from 'vitest';
import { axisTicks, chartPoints, dayLabel, revenueSummary, signedPounds } from './sales-format.ts';
import { analytics30, quietAnalytics } from './test/fixtures.ts';

describe('sales formats', () => {
  it("writes a UTC day as '25 Nov' and money below zero with its sign", () => {
    expect(dayLabel('2026-11-25')).toBe('25 Nov');
    expect(dayLabel('2027-01-03')).toBe('3 Jan');
    expect(signedPounds(-4_000)).toBe('-£40');
    expect(signedPounds(123_450)).toBe('£1,234.50');
  });

  it('charts 30 days day by day, and longer windows week by week ending on the last day', () => {
    expect(chartPoints(analytics30.series)).toEqual({ unit: 'day', points: analytics30.series });
    const series = quietAnalytics(90).series.map((day, n) => ({ ...day, sales: n % 2, revenue: (n % 2) * 1_000 }));
    const { unit, points } = chartPoints(series);
    expect(unit).toBe('week');
    expect(points).toHaveLength(13);
    expect(points.at(-1)).toEqual({ date: series[83]!.date, revenue: 4_000, sales: 4 });
    expect(points[0]!.date).toBe(series[0]!.date);
    expect(points.reduce((sum, p) => sum + p.sales, 0)).toBe(45);
  });

  it('says the best week of a long window in words', () => {
    const year = quietAnalytics(365);
    year.series[364] = { ...year.series[364]!, revenue: 9_900, sales: 2 };
    expect(revenueSummary({ ...year, revenue: 9_900, sales: 2 })).toBe(
      `Revenue and sales per week from ${dayLabel(year.series[0]!.date)} to ${dayLabel(year.series[364]!.date)}: £99 from 2 sales. The best week was that of ${dayLabel(year.series[358]!.date)}, with £99 from 2 sales.`,
    );
  });

  it('puts round ticks around the values, below zero only when a value is', () => {
    expect(axisTicks(0, 10)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(axisTicks(-49, 196)).toEqual([-50, 0, 50, 100, 150, 200]);
    expect(axisTicks(0, 1_234)).toEqual([0, 250, 500, 750, 1_000, 1_250]);
    expect(axisTicks(0, 4, true)).toEqual([0, 1, 2, 3, 4]);
    expect(axisTicks(0, 13, true)).toEqual([0, 5, 10, 15]);
  });
});
