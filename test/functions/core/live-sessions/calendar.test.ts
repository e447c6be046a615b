import { describe, expect, it } from 'vitest';
import { sessionCalendar } from '#core/live-sessions/calendar.ts';
import type { StoredSession } from '#core/live-sessions/ports.ts';

const session: StoredSession = {
  id: 'ses01',
  courseId: 'course-1',
  creatorId: 'c1',
  title: 'Live Q&A; knives, forks \\ spoons',
  description: 'Bring questions.\nAnd knives.',
  startsAt: '2026-11-22T18:00:00.000Z',
  durationMinutes: 45,
  provider: 'zoom',
  timeZone: 'Europe/London',
  meetingId: 'm1',
  joinUrl: 'https://zoom.example/j/123?pwd=a,b',
  hostUrl: 'https://zoom.example/s/123?host',
  status: 'scheduled',
  sequence: 2,
  createdAt: '2026-11-20T09:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.123Z',
};
const context = { courseTitle: 'Knife skills, advanced', organizer: { name: 'Knife "School"', email: 'mail@example.com' }, uidDomain: 'courses.example' };

/** The content lines as a calendar reads them: continuation lines (CRLF and a space) joined back. */
const unfolded = (file: string): string[] => file.replace(/\r\n /g, '').split('\r\n');

describe("a session's calendar file, written without a library", () => {
  it('is one VEVENT in a VCALENDAR, CRLF lines, UTC times without milliseconds, the same file for the same version', () => {
    const file = sessionCalendar(session, context);
    expect(unfolded(file)).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Course Platform//Live sessions//EN',
      'METHOD:REQUEST',
      'NAME:Knife skills\\, advanced',
      'X-WR-CALNAME:Knife skills\\, advanced',
      'BEGIN:VEVENT',
      'UID:session-ses01@courses.example',
      'SEQUENCE:2',
      'DTSTAMP:20261120T100000Z',
      'DTSTART:20261122T180000Z',
      'DTEND:20261122T184500Z',
      'SUMMARY:Live Q&A\\; knives\\, forks \\\\ spoons (Knife skills\\, advanced)',
      'LOCATION:https://zoom.example/j/123?pwd=a\\,b',
      'DESCRIPTION:Bring questions.\\nAnd knives.\\n\\nJoin: https://zoom.example/j/123?pwd=a\\,b',
      `ORGANIZER;CN="Knife ^'School^'":mailto:mail@example.com`,
      'URL;VALUE=URI:https://zoom.example/j/123?pwd=a\\,b',
      'STATUS:CONFIRMED',
      'END:VEVENT',
      'END:VCALENDAR',
    ]);
    expect(file).not.toContain('host');
    expect(sessionCalendar(session, context)).toBe(file);
  });

  it('cancels the same UID, with no empty description line when the session had none', () => {
    const lines = unfolded(sessionCalendar({ ...session, status: 'cancelled', sequence: 3, description: '' }, context));
    expect(lines).toContain('METHOD:CANCEL');
    expect(lines).toContain('STATUS:CANCELLED');
    expect(lines).toContain('SEQUENCE:3');
    expect(lines).toContain('UID:session-ses01@courses.example');
    expect(lines).toContain('DESCRIPTION:Join: https://zoom.example/j/123?pwd=a\\,b');
  });

  it('folds lines longer than 75 octets without splitting a character, and unfolds to the same text', () => {
    const description = `${'é'.repeat(60)} 🎉 ${'long text '.repeat(20)}`;
    const file = sessionCalendar({ ...session, description }, context);
    for (const line of file.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(file).not.toContain('\uFFFD');
    expect(unfolded(file)).toContain(`DESCRIPTION:${description}\\n\\nJoin: https://zoom.example/j/123?pwd=a\\,b`);
  });
});
