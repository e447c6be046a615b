import { describe, expect, it } from 'vitest';
import { estimatedMonthly, lastWeekStarts, mrr, revenueBreakdown, trendWeeks, weekStartOf } from '#core/admin/platform-figures.ts';

describe('the platform figures', () => {
  it("estimates £29 a month per subscribed creator, as the spec does", () => {
    expect(estimatedMonthly(0)).toBe(0);
    expect(estimatedMonthly(3)).toBe(8700);
    expect(estimatedMonthly(-2)).toBe(0);
  });

  it('splits the estimate 70 / 25 / 5 % in whole pence that add up to it', () => {
    expect(revenueBreakdown(10_000)).toEqual({ creatorSubscriptions: 7000, courseLicenses: 2500, platformFees: 500 });
    const odd = revenueBreakdown(2900);
    expect(odd).toEqual({ creatorSubscriptions: 2030, courseLicenses: 725, platformFees: 145 });
    for (const estimate of [0, 2900, 5800, 31_900, 1_234_567]) {
      const parts = revenueBreakdown(estimate);
      expect(parts.creatorSubscriptions + parts.courseLicenses + parts.platformFees).toBe(estimate);
    }
  });

  it('prices the MRR at the plans: £28 Starter, £67 Pro', () => {
    expect(mrr({ starter: 0, pro: 0 })).toBe(0);
    expect(mrr({ starter: 2, pro: 1 })).toBe(2 * 2800 + 6700);
  });

  it('keys a week by its Monday (UTC), Sunday night included', () => {
    expect(weekStartOf('2026-11-23T00:00:00.000Z')).toBe('2026-11-23');
    expect(weekStartOf('2026-11-29T23:59:59.999Z')).toBe('2026-11-23');
    expect(weekStartOf('2026-11-30T00:00:00.000Z')).toBe('2026-11-30');
    expect(weekStartOf(new Date('2026-01-01T12:00:00Z'))).toBe('2025-12-29');
  });

  it('lists the last 12 Mondays, oldest first, ending with this week', () => {
    const weeks = lastWeekStarts(new Date('2026-11-25T10:00:00Z'));
    expect(weeks).toHaveLength(12);
    expect(weeks.at(-1)).toBe('2026-11-23');
    expect(weeks[0]).toBe('2026-09-07');
  });

  it("rebuilds each week's MRR from today's paid-up counts, and shows quiet weeks as zero sign-ups", () => {
    const weeks = ['2026-11-09', '2026-11-16', '2026-11-23'];
    const trend = trendWeeks(
      weeks,
      [
        { weekStart: '2026-11-09', signUps: 4, paying: { starter: 1, pro: 0 } },
        { weekStart: '2026-11-23', signUps: 2, paying: { starter: -1, pro: 1 } },
      ],
      { starter: 0, pro: 1 },
    );
    expect(trend).toEqual([
      { weekStart: '2026-11-09', signUps: 4, mrr: 2800 },
      { weekStart: '2026-11-16', signUps: 0, mrr: 2800 },
      { weekStart: '2026-11-23', signUps: 2, mrr: 6700 },
    ]);
  });
});
