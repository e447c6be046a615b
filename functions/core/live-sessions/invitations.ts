import * as z from 'zod';
import { emailHtml, escapeHtml, fromSchool, plainText, senderOf, type EmailMessage } from '#core/accounts/password-reset-email.ts';
import { type Page, type SliceWork, throughPages } from '#core/jobs/slices.ts';
import { sessionCalendar } from '#core/live-sessions/calendar.ts';
import { SESSION_MAIL_JOB, type SessionMailKind, type StoredSession } from '#core/live-sessions/ports.ts';
import { dueMail } from '#core/mail/mail-queue.ts';
import type { Clock, Ids, MailAttachment, MailSchool, MailSchoolOf, QueuedMail } from '#core/ports.ts';

/**
 * The session emails (issue 30 point 3): each learner actively enrolled in the session's course gets the invitation
 * of every version of a session (scheduled, changed, cancelled) and the reminder an hour before it starts, each
 * exactly once, through the mail queue (core/mail/mail-queue.ts, sent and paced by the mail sender job).
 *
 * - The 'session-mail' job (functions/jobs/session-mail.ts) is a sliced fan-out run (decisions 0032-0034) started by
 *   the session routes (`SessionMailRuns`, after the save) and, for reminders, by the due job: it pages the course's
 *   enrolments and queues one email per active learner.
 * - A learner enrolling later gets the invitation of each upcoming session from the table's stream
 *   (functions/streams/reactions/session-invitations.ts, `inviteLateEnrolee`).
 * - Exactly once: a claim per learner and session (functions/data/session-mail.ts) written in the same transaction as
 *   the queued email, under a condition on the version last sent; a slice killed after some of its learners and
 *   delivered again, a stream batch replayed, a run started twice: their claims fail and nothing is queued again.
 *
 * Rules: a run for an older version than the stored session stops (the newer run tells them); a reminder run for a
 * start since moved stops; a learner never invited gets no cancellation; a session that ended gets nothing; a learner
 * no longer active gets nothing.
 */

/** What one email of a session is: the invitation (`REQUEST`), its cancellation (`CANCEL`) or the reminder. */
export type SessionMailClaim =
  | { kind: 'invitation'; sequence: number }
  | { kind: 'cancellation'; sequence: number }
  | { kind: 'reminder'; startsAt: string };

/** A learner as the run pages them: the course's enrolments, active or not. */
export interface SessionLearner {
  readonly learnerId: string;
  readonly email: string;
  readonly active: boolean;
}

/** What the job and the stream consumer read and write (functions/data/session-mail.ts, live-sessions.ts, enrollments.ts). */
export interface SessionMailStore {
  /** The session as stored now (consistent). */
  session(sessionId: string): Promise<StoredSession | undefined>;
  /** The course's title, undefined when the course is gone. */
  courseTitle(courseId: string): Promise<string | undefined>;
  /** One page of the course's enrolments, in key order. */
  learners(courseId: string, cursor: string | undefined): Promise<Page<SessionLearner>>;
  /**
   * The learner's claim on this email of the session and the queued email, in one transaction: false (nothing
   * written) when the claim already covers it (sent before) or, for a cancellation, when the learner was never invited.
   */
  queue(sessionId: string, learnerId: string, claim: SessionMailClaim, mail: QueuedMail): Promise<boolean>;
  /** A course's scheduled sessions that have not ended at `now`. */
  upcoming(courseId: string, now: string): Promise<StoredSession[]>;
}

export interface SessionMailDeps {
  store: SessionMailStore;
  ids: Ids;
  clock: Clock;
  /** Who the calendar files name as organiser (the platform's sender) and their UIDs' domain. */
  calendar: { organizer: { name: string; email: string }; uidDomain: string };
  /** The course's school (issue 32): a branded creator's session emails come from it. */
  mailSchool: MailSchoolOf;
  /** Starts a run of the mail sender at once for what was queued, named by `key`; a failure waits for its schedule. */
  startSender: (key: string) => Promise<void>;
  log: (message: string, fields: Record<string, unknown>) => void;
}

export const sessionMailInput = z.object({
  sessionId: z.string().min(1),
  courseId: z.string().min(1),
  mail: z.enum(['invitation', 'reminder']),
  sequence: z.number().int().min(0),
  startsAt: z.string().min(1),
});

/** The file name and MIME types of the attached calendar. */
export const SESSION_ICS = 'session.ics';
const icsType = (session: StoredSession) => `text/calendar; method=${session.status === 'cancelled' ? 'CANCEL' : 'REQUEST'}`;

const endsAt = (s: Pick<StoredSession, 'startsAt' | 'durationMinutes'>) => Date.parse(s.startsAt) + s.durationMinutes * 60_000;

/** "Tuesday 1 December 2026, 14:00 UTC" in a time zone (an unknown zone: UTC alone). */
const when = (iso: string, timeZone: string): string => {
  const format = (zone: string) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }).format(new Date(iso));
  const utc = format('UTC');
  try {
    return timeZone === 'UTC' ? utc : `${utc} (${format(timeZone)}, ${timeZone})`;
  } catch {
    return utc;
  }
};

const duration = (minutes: number): string => {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h > 0 ? `${h} hour${h === 1 ? '' : 's'}` : '', m > 0 ? `${m} minute${m === 1 ? '' : 's'}` : ''].filter(Boolean).join(' ');
};

/** The claim an email of `session` takes: its version's invitation or cancellation, or the reminder of its start. */
export const claimOf = (session: StoredSession, mail: SessionMailKind): SessionMailClaim =>
  mail === 'reminder' ? { kind: 'reminder', startsAt: session.startsAt } : session.status === 'cancelled' ? { kind: 'cancellation', sequence: session.sequence } : { kind: 'invitation', sequence: session.sequence };

/**
 * The subjects: the platform's fixed words, never the creator's (decision 0031: a creator's text goes only inside the
 * body, escaped), so a session titled to look like a security alert cannot make the platform's mail say so.
 */
export const SESSION_SUBJECTS = {
  invited: 'You are invited to a live session',
  changed: 'A live session has changed',
  cancelled: 'A live session was cancelled',
  reminder: 'A live session starts in an hour',
} as const;

/**
 * The email of a session to one learner: the session's and course's titles, the date and time (UTC and the creator's
 * time zone), the duration, the Join link (never the host link) and the calendar file (`session.ics`: `METHOD:REQUEST`
 * or `METHOD:CANCEL`, the session's UID and SEQUENCE). The titles are the creator's words: plain text in the text
 * part, escaped in the HTML.
 */
export const sessionEmail = (
  session: StoredSession,
  courseTitle: string,
  claim: SessionMailClaim,
  calendar: SessionMailDeps['calendar'],
  school?: MailSchool,
): EmailMessage & { attachments: MailAttachment[] } => {
  const title = plainText(session.title);
  const subject = { invitation: session.sequence === 0 ? SESSION_SUBJECTS.invited : SESSION_SUBJECTS.changed, cancellation: SESSION_SUBJECTS.cancelled, reminder: SESSION_SUBJECTS.reminder }[claim.kind];
  const lead = {
    invitation: session.sequence === 0 ? 'you are invited to a live session of your course.' : 'a live session of your course has changed. Here is its new time.',
    cancellation: 'a live session of your course was cancelled. It is removed from your calendar when you open the attached file.',
    reminder: 'a live session of your course starts in an hour.',
  }[claim.kind];
  const cancelled = claim.kind === 'cancellation';
  const lines = [
    `${senderOf(school)}: ${lead}`,
    '',
    `Session: ${title}`,
    `Course: ${plainText(courseTitle)}`,
    `When: ${when(session.startsAt, session.timeZone)}`,
    `Duration: ${duration(session.durationMinutes)}`,
    ...(cancelled ? [] : ['', `Join: ${session.joinUrl}`]),
    '',
    cancelled ? 'The attached calendar file (session.ics) removes it from your calendar.' : 'Add it to your calendar with the attached file (session.ics).',
  ];
  const [t, c, w, d, join] = [session.title, courseTitle, when(session.startsAt, session.timeZone), duration(session.durationMinutes), session.joinUrl].map(escapeHtml);
  const heading = { invitation: session.sequence === 0 ? 'You are invited to a live session' : 'A live session has changed', cancellation: 'A live session was cancelled', reminder: 'A live session starts in an hour' }[claim.kind];
  const html = emailHtml(`<h1 style="margin:0 0 16px;font-size:20px">${heading}</h1>
<p style="margin:0 0 8px;line-height:1.5">Session: <strong>${cancelled ? `<s>${t}</s>` : t}</strong></p>
<p style="margin:0 0 8px;line-height:1.5">Course: ${c}</p>
<p style="margin:0 0 8px;line-height:1.5">When: ${w}</p>
<p style="margin:0 0 16px;line-height:1.5">Duration: ${d}</p>
${cancelled ? '' : `<p style="margin:0 0 16px"><a href="${join}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">Join the session</a></p>\n`}<p style="margin:0;line-height:1.5;color:#52525b">${cancelled ? 'The attached calendar file removes it from your calendar.' : 'Add it to your calendar with the attached file.'}</p>`,
    480,
    school,
  );
  const ics = sessionCalendar(session, { courseTitle, ...calendar });
  return { subject, text: lines.join('\n'), html, attachments: [{ filename: SESSION_ICS, contentType: icsType(session), content: ics }], ...fromSchool(school) };
};

type Counts = { queued: number; already: number; inactive: number; superseded: number; ended: number };
const zero = (): Counts => ({ queued: 0, already: 0, inactive: 0, superseded: 0, ended: 0 });

/** Learners handled at once in a slice (one transaction each: network-bound). */
const QUEUE_CONCURRENCY = 8;

/**
 * Why a run has nothing (more) to send for `session` as stored now: undefined when it goes on. An invitation run of
 * an older version, a reminder run of a start since moved or of a cancelled session, and any run once the session
 * ended stop.
 */
const stopReason = (session: StoredSession | undefined, input: z.infer<typeof sessionMailInput>, now: Date): keyof Counts | undefined => {
  if (!session || session.courseId !== input.courseId) return 'superseded';
  if (input.mail === 'invitation' && session.sequence !== input.sequence) return 'superseded';
  if (input.mail === 'reminder' && (session.status !== 'scheduled' || session.startsAt !== input.startsAt)) return 'superseded';
  if (endsAt(session) <= now.getTime()) return 'ended';
  return undefined;
};

/** One learner's email of the session: queued with its claim, or nothing when the claim says it went already. */
const queueFor = async (
  deps: SessionMailDeps,
  session: StoredSession,
  course: { title: string; school: MailSchool | undefined },
  claim: SessionMailClaim,
  learner: { learnerId: string; email: string },
): Promise<boolean> => {
  const message = sessionEmail(session, course.title, claim, deps.calendar, course.school);
  return deps.store.queue(session.id, learner.learnerId, claim, dueMail(deps, { to: learner.email, ...message }));
};

/** The 'session-mail' job's work on one slice (the handler is functions/jobs/session-mail.ts). */
export const sessionMailWork =
  (deps: SessionMailDeps): SliceWork<Counts> =>
  async (slice, timeUp) => {
    const input = sessionMailInput.parse(slice.input);
    const counts = zero();
    const session = await deps.store.session(input.sessionId);
    const stop = stopReason(session, input, deps.clock.now());
    const [courseTitle, school] = session && !stop ? await Promise.all([deps.store.courseTitle(session.courseId), deps.mailSchool(session.creatorId)]) : [undefined, undefined];
    if (stop || !session || courseTitle === undefined) return { counts: { ...counts, [stop ?? 'superseded']: 1 } };
    const claim = claimOf(session, input.mail);
    const done = await throughPages({
      cursor: slice.cursor,
      timeUp,
      page: (cursor) => deps.store.learners(session.courseId, cursor),
      concurrency: QUEUE_CONCURRENCY,
      handle: async (learner) => {
        if (!learner.active) counts.inactive++;
        else if (await queueFor(deps, session, { title: courseTitle, school }, claim, learner)) counts.queued++;
        else counts.already++;
      },
    });
    if (counts.queued > 0) {
      const key = `${slice.run}:${slice.lane}:${slice.seq}`.replace(SESSION_MAIL_JOB, 'session');
      await deps.startSender(key).catch((error: unknown) => deps.log('sender not started: the queued emails go with its next scheduled run', { run: slice.run, error: String(error) }));
    }
    return { cursor: done.cursor, counts };
  };

/**
 * A learner whose enrolment became active (the table's stream): the invitation of each of the course's sessions still
 * ahead, each under the same claim as the job's (a replayed batch, or a learner the job reached too, queues nothing).
 * How many were queued.
 */
export const inviteLateEnrolee = async (deps: SessionMailDeps, enrolment: { courseId: string; learnerId: string; email: string }): Promise<number> => {
  const sessions = await deps.store.upcoming(enrolment.courseId, deps.clock.now().toISOString());
  if (sessions.length === 0) return 0;
  const [courseTitle, school] = await Promise.all([deps.store.courseTitle(enrolment.courseId), deps.mailSchool(sessions[0]!.creatorId)]);
  if (courseTitle === undefined) return 0;
  let queued = 0;
  for (const session of sessions) {
    if (await queueFor(deps, session, { title: courseTitle, school }, claimOf(session, 'invitation'), enrolment)) queued++;
  }
  return queued;
};
