import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * Live sessions (issue 30, ../shared/API.md "Live sessions through the providers' own APIs"): a meeting in the
 * creator's own Zoom, Microsoft Teams or Google Calendar account, scheduled for a course's learners.
 */
export const sessionProviders = ['zoom', 'teams', 'google'] as const;
export type SessionProvider = (typeof sessionProviders)[number];

export const SESSION_TITLE_MAX = 200;
export const SESSION_DESCRIPTION_MAX = 5_000;
export const SESSION_MINUTES_MIN = 15;
export const SESSION_MINUTES_MAX = 480;
/** How far ahead a session may be scheduled. */
export const SESSION_DAYS_AHEAD_MAX = 366;
/** The Join button is live from this many minutes before the start until the end. */
export const JOIN_OPENS_MINUTES_BEFORE = 15;
/** Learners are reminded this many minutes before the start. */
export const REMINDER_MINUTES_BEFORE = 60;
/** Sessions per course that have not ended (scheduled ones ahead): a bound on the learner's and the reminder's reads. */
export const UPCOMING_SESSIONS_PER_COURSE_MAX = 50;

const title = z
  .string()
  .trim()
  .min(1, 'Enter a title for the session.')
  .max(SESSION_TITLE_MAX, `Use at most ${SESSION_TITLE_MAX} characters for the title.`);
const startsAt = isoDate;
const durationMinutes = z
  .number()
  .int('Enter the duration in whole minutes.')
  .min(SESSION_MINUTES_MIN, `A session lasts at least ${SESSION_MINUTES_MIN} minutes.`)
  .max(SESSION_MINUTES_MAX, `A session lasts at most ${SESSION_MINUTES_MAX / 60} hours.`);

/** An IANA time zone the runtime knows (how the provider shows the meeting to its host). */
export const timeZone = z.string().refine((zone) => {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}, 'Choose a known time zone (such as Europe/London).');

/** POST /api/courses/{courseId}/sessions. `timeZone`: the creator's (the browser's), Europe/London when absent. */
export const scheduleSessionBody = z.strictObject({
  title,
  startsAt,
  durationMinutes,
  provider: z.enum(sessionProviders, 'Choose Zoom, Microsoft Teams or Google Calendar.'),
  description: z.string().trim().max(SESSION_DESCRIPTION_MAX, `Use at most ${SESSION_DESCRIPTION_MAX} characters for the description.`).optional(),
  timeZone: timeZone.optional(),
});
export type ScheduleSessionBody = z.infer<typeof scheduleSessionBody>;

/** PATCH /api/courses/{courseId}/sessions/{sessionId}: at least one change. */
export const updateSessionBody = z
  .strictObject({ title: title.optional(), startsAt: startsAt.optional(), durationMinutes: durationMinutes.optional(), timeZone: timeZone.optional() })
  .refine((body) => body.title !== undefined || body.startsAt !== undefined || body.durationMinutes !== undefined, 'Change the title, the time or the duration.');
export type UpdateSessionBody = z.infer<typeof updateSessionBody>;

export const sessionStatuses = ['scheduled', 'cancelled'] as const;
/**
 * Whether the provider has the session as it is: 'done', or 'pending' (a change or the cancellation the provider was
 * down for or refused; the platform's session changed all the same and the provider is tried again until it agrees,
 * `providerError` saying why it has not yet).
 */
export const providerSyncs = ['done', 'pending'] as const;

/** A session as its creator sees it (the host link included). */
export const liveSession = z.object({
  id: z.string(),
  courseId: z.string(),
  title: z.string(),
  description: z.string(),
  startsAt: isoDate,
  durationMinutes: z.number().int(),
  provider: z.enum(sessionProviders),
  joinUrl: z.string(),
  hostUrl: z.string(),
  status: z.enum(sessionStatuses),
  createdAt: isoDate,
  updatedAt: isoDate,
  providerSync: z.enum(providerSyncs),
  providerError: z.string().optional(),
});
export type LiveSession = z.infer<typeof liveSession>;

export const liveSessionList = z.object({ items: z.array(liveSession) });

/** A session as a learner (or a leader) sees it: never the host link. */
export const learnerSession = liveSession
  .pick({ id: true, courseId: true, title: true, description: true, startsAt: true, durationMinutes: true, provider: true, joinUrl: true })
  .extend({ courseTitle: z.string() });
export type LearnerSession = z.infer<typeof learnerSession>;

export const learnerSessionList = z.object({ items: z.array(learnerSession) });

/** GET /api/learner/sessions?courseId=: one course's sessions only (the course player). */
export const learnerSessionsQuery = z.strictObject({ courseId: z.string().trim().min(1, 'Give the course id.').max(100, 'That is not a course id.').optional() });

/** When the Join button is live: from JOIN_OPENS_MINUTES_BEFORE before the start until the end. */
export const joinWindow = (session: Pick<LearnerSession, 'startsAt' | 'durationMinutes'>): { opensAt: number; endsAt: number } => {
  const start = Date.parse(session.startsAt);
  return { opensAt: start - JOIN_OPENS_MINUTES_BEFORE * 60_000, endsAt: start + session.durationMinutes * 60_000 };
};

export const canJoin = (session: Pick<LearnerSession, 'startsAt' | 'durationMinutes'>, now: number): boolean => {
  const { opensAt, endsAt } = joinWindow(session);
  return now >= opensAt && now < endsAt;
};
