import type { StoredSession } from '#core/live-sessions/ports.ts';

/**
 * A session as an RFC 5545 calendar (issue 30 point 3): `METHOD:REQUEST` while scheduled, `METHOD:CANCEL` once
 * cancelled, one VEVENT whose `UID` never changes and whose `SEQUENCE` is the session's (raised on every change), so a
 * calendar that received the first invitation updates or removes the same event. Times in UTC; the join link as the
 * location and URL (never the host link). `stamp`: when this version was made (the session's `updatedAt`), so the same
 * version is byte for byte the same file.
 *
 * Written here rather than with a calendar library: one event of fixed properties is a few lines, and the library
 * was ~36 KB of each bundle that sends an invitation (the stream reactions' among them, against their size budget).
 * The lines are those ical-generator wrote (the same properties, order, escaping and folding), but the calendar's
 * name is escaped as the TEXT it is.
 */
export const sessionCalendar = (
  session: StoredSession,
  context: { courseTitle: string; organizer: { name: string; email: string }; uidDomain: string },
): string => {
  const cancelled = session.status === 'cancelled';
  const start = new Date(session.startsAt);
  const end = new Date(start.getTime() + session.durationMinutes * 60_000);
  const description = [session.description, `Join: ${session.joinUrl}`].filter((line) => line !== '').join('\n\n');
  const name = text(context.courseTitle);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Course Platform//Live sessions//EN',
    `METHOD:${cancelled ? 'CANCEL' : 'REQUEST'}`,
    `NAME:${name}`,
    `X-WR-CALNAME:${name}`,
    'BEGIN:VEVENT',
    `UID:${sessionUid(session.id, context.uidDomain)}`,
    `SEQUENCE:${session.sequence}`,
    `DTSTAMP:${utc(new Date(session.updatedAt))}`,
    `DTSTART:${utc(start)}`,
    `DTEND:${utc(end)}`,
    `SUMMARY:${text(`${session.title} (${context.courseTitle})`)}`,
    `LOCATION:${text(session.joinUrl)}`,
    `DESCRIPTION:${text(description)}`,
    `ORGANIZER;CN="${parameter(context.organizer.name)}":mailto:${text(context.organizer.email)}`,
    `URL;VALUE=URI:${text(session.joinUrl)}`,
    `STATUS:${cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(fold).join('\r\n');
};

/** The event's UID: the session's, for ever. */
export const sessionUid = (sessionId: string, domain: string): string => `session-${sessionId}@${domain}`;

/** A TEXT value (RFC 5545 3.3.11): backslash, semicolon and comma escaped, a line break as `\n`. */
const text = (value: string): string => value.replace(/[\\;,]/g, (match) => `\\${match}`).replace(/\r\n|\r|\n/g, '\\n');

/** A quoted parameter value (RFC 6868): `^`, `"` and line breaks caret-encoded (backslashes mean nothing there). */
const parameter = (value: string): string => value.replace(/\^/g, '^^').replace(/"/g, "^'").replace(/\r\n|\r|\n/g, '^n');

/** A UTC date-time, `YYYYMMDDTHHMMSSZ` (no milliseconds). */
const utc = (date: Date): string => `${date.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

/** Content lines are at most 75 octets (RFC 5545 3.1): longer ones continue on lines that start with a space; a character is never split. */
const LINE_OCTETS = 74;

const fold = (line: string): string => {
  let folded = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    octets += size;
    if (octets > LINE_OCTETS) {
      folded += '\r\n ';
      octets = size;
    }
    folded += char;
  }
  return folded;
};
