import { describe, expect, it } from 'vitest';
import { formatDate, formatMonthDay } from './format.ts';

describe('the billing dates', () => {
  it('read as en-US writes them, in the viewer’s time zone, for every month', () => {
    const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
    const fullDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
    for (let month = 0; month < 12; month++) {
      for (const iso of [new Date(2026, month, 1, 0, 30).toISOString(), new Date(2027, month, 28, 23, 59).toISOString()]) {
        expect(formatMonthDay(iso)).toBe(monthDay.format(new Date(iso)));
        expect(formatDate(iso)).toBe(fullDate.format(new Date(iso)));
      }
    }
  });
});
