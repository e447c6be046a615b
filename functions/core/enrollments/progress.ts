/**
 * The learner's progress and study streak, as pure functions of what is stored (docs/data-model.md "Enrolments").
 */

/**
 * Percent of the course's current lessons the learner has completed, rounded: a completed lesson that was deleted
 * since no longer counts, and a course without lessons is 0.
 */
export const progressOf = (completedLessonIds: readonly string[], lessonIds: readonly string[]): number => {
  if (lessonIds.length === 0) return 0;
  const completed = new Set(completedLessonIds);
  const done = lessonIds.filter((id) => completed.has(id)).length;
  return Math.round((100 * done) / lessonIds.length);
};

/** The calendar day (YYYY-MM-DD) of `at` in the IANA time zone `timeZone`. */
export const localDay = (at: Date, timeZone: string): string => {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
};

/** The day `n` days after `day` (negative: before), on the calendar alone (no time zone involved). */
export const addDays = (day: string, n: number): string => {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
};

/** How far back the streak looks: a streak longer than this shows as this. */
export const STREAK_WINDOW_DAYS = 366;

/**
 * Consecutive days with activity ending today or yesterday (a streak is not broken before the day is over); 0 when
 * the last active day is older. `days` are YYYY-MM-DD in the learner's zone, in any order.
 */
export const studyStreak = (days: readonly string[], today: string): number => {
  const active = new Set(days);
  let day = active.has(today) ? today : addDays(today, -1);
  let streak = 0;
  while (active.has(day) && streak < STREAK_WINDOW_DAYS) {
    streak++;
    day = addDays(day, -1);
  }
  return streak;
};
