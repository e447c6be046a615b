/** Calendar months in UTC: 31 January + 1 month is the last day of February, never 3 March. */
export const addMonths = (iso: string, months: number): string => {
  const d = new Date(iso);
  const day = d.getUTCDate();
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString();
};

/** The first period end after `now`, stepping a month at a time from `end` (a job that was down catches up). */
export const nextPeriodEnd = (end: string, now: Date): string => {
  let months = 1;
  let next = addMonths(end, months);
  while (Date.parse(next) <= now.getTime()) next = addMonths(end, ++months);
  return next;
};

/** The period a reset closes, named by the month its end falls in: RESET#2026-12. */
export const periodKey = (end: string): string => end.slice(0, 7);
