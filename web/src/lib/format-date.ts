/** A day as the screens show it ('20 Nov 2026'), in the viewer's zone. */
export const formatDay = (iso: string): string =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** A local calendar day ('2026-12-31', a date input's value) as the instant it ends there: a "last day" works through it. */
export const endOfDay = (day: string): string => {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(year, month - 1, date, 23, 59, 59, 999).toISOString();
};

/** Today as a date input's value, in the viewer's zone. */
export const today = (now: Date = new Date()): string =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
