import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { StoredSession } from '#core/live-sessions/ports.ts';

/**
 * A session as an RFC 5545 calendar (issue 30 point 3): `METHOD:REQUEST` while scheduled, `METHOD:CANCEL` once
 * cancelled, one VEVENT whose `UID` never changes and whose `SEQUENCE` is the session's (raised on every change), so a
 * calendar that received the first invitation updates or removes the same event. Times in UTC; the join link as the
 * location and URL (never the host link). `stamp`: when this version was made (the session's `updatedAt`), so the same
 * version is byte for byte the same file.
 */
export const sessionCalendar = (
  session: StoredSession,
  context: { courseTitle: string; organizer: { name: string; email: string }; uidDomain: string },
): string => {
  const cancelled = session.status === 'cancelled';
  const calendar = ical({
    name: context.courseTitle,
    method: cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    prodId: { company: 'Course Platform', product: 'Live sessions', language: 'EN' },
  });
  const start = new Date(session.startsAt);
  calendar.createEvent({
    id: sessionUid(session.id, context.uidDomain),
    sequence: session.sequence,
    stamp: new Date(session.updatedAt),
    start,
    end: new Date(start.getTime() + session.durationMinutes * 60_000),
    summary: `${session.title} (${context.courseTitle})`,
    description: [session.description, `Join: ${session.joinUrl}`].filter((line) => line !== '').join('\n\n'),
    location: session.joinUrl,
    url: session.joinUrl,
    organizer: context.organizer,
    status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
};

/** The event's UID: the session's, for ever. */
export const sessionUid = (sessionId: string, domain: string): string => `session-${sessionId}@${domain}`;
