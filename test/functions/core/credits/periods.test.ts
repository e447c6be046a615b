import { describe, expect, it } from 'vitest';
import { addMonths, nextPeriodEnd, periodKey } from '#core/credits/periods.ts';

describe('billing periods', () => {
  it('adds calendar months without overflowing short months', () => {
    expect(addMonths('2026-01-31T10:00:00.000Z', 1)).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths('2028-01-31T10:00:00.000Z', 1)).toBe('2028-02-29T10:00:00.000Z');
    expect(addMonths('2026-11-15T00:00:00.000Z', 2)).toBe('2027-01-15T00:00:00.000Z');
  });

  it('catches up to the first period end after now, a month at a time from the old end', () => {
    expect(nextPeriodEnd('2026-08-10T00:00:00.000Z', new Date('2026-11-21T00:00:00.000Z'))).toBe('2026-12-10T00:00:00.000Z');
    expect(nextPeriodEnd('2026-01-31T00:00:00.000Z', new Date('2026-03-01T00:00:00.000Z'))).toBe('2026-03-31T00:00:00.000Z');
  });

  it('names a period by the month its end falls in', () => {
    expect(periodKey('2026-08-10T00:00:00.000Z')).toBe('2026-08');
  });
});
