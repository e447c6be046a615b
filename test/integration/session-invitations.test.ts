import { beforeAll, describe, expect, it } from 'vitest';
import { attachment, mailsTo, type StoredMail } from './mail-support.ts';
import { accountWithRole, api, eventually } from './support.ts';
import { demoZoom } from './zoom-support.ts';

type Account = Awaited<ReturnType<typeof accountWithRole>>;

/**
 * The session invitations through the local cloud (issue 30 point 3): a creator schedules a session of a course with
 * three enrolled learners, changes it and cancels it; each learner gets each version's email once, with its `.ics`
 * (METHOD:REQUEST with SEQUENCE 0, then SEQUENCE 1, then METHOD:CANCEL), through the 'session-mail' job, the mail queue
 * and SES; a learner enrolling after the schedule is invited from the table's stream.
 */
const inDays = (days: number, hour = 18) => {
  const at = new Date(Date.now() + days * 86_400_000);
  at.setUTCHours(hour, 0, 0, 0);
  return at.toISOString();
};

/** The session emails a learner holds (not their enrolment's), oldest first. */
const sessionMails = async (to: string): Promise<StoredMail[]> => (await mailsTo(to)).filter((m) => /^(You are invited to a live session|A live session has changed|A live session was cancelled)$/.test(m.subject));

/** Waits until each of `learners` holds `count` session emails, then a little more, so that a second copy would show. */
const eachHolds = async (learners: Account[], count: number): Promise<StoredMail[][]> => {
  await eventually(
    () => Promise.all(learners.map((l) => sessionMails(l.email))),
    (all) => all.every((mails) => mails.length >= count),
    45_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return Promise.all(learners.map((l) => sessionMails(l.email)));
};

const ics = (mail: StoredMail) => {
  const file = attachment(mail, 'session.ics');
  expect(file, `${mail.subject}: session.ics attached`).toBeDefined();
  return file!;
};

let creator: Account;
let learners: Account[];
let late: Account;
let courseId: string;

beforeAll(async () => {
  [creator, late, ...learners] = await Promise.all([
    accountWithRole('creator', 'invites-creator'),
    accountWithRole('learner', 'invites-late'),
    ...[1, 2, 3].map((n) => accountWithRole('learner', `invites-learner${n}`)),
  ]);
  expect((await api('PUT', '/api/integrations', { token: creator.token, body: demoZoom() })).body.zoom.status).toBe('connected');
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Sourdough live' } })).body.id as string;
  expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
  for (const learner of learners) expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
}, 120_000);

describe('session invitations', () => {
  it('each learner gets each version once with its .ics: scheduled, a late enrolee too, changed, cancelled', async () => {
    const made = await api('POST', `/api/courses/${courseId}/sessions`, {
      token: creator.token,
      body: { title: 'Shaping Q&A', startsAt: inDays(3), durationMinutes: 45, provider: 'zoom', timeZone: 'Europe/Paris' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const session = made.body as { id: string; joinUrl: string; hostUrl: string };

    // Scheduled: one invitation each, REQUEST, SEQUENCE 0, the join link and never the host link.
    const invited = await eachHolds(learners, 1);
    for (const mails of invited) {
      expect(mails.map((m) => m.subject)).toEqual(['You are invited to a live session']);
      const file = ics(mails[0]!);
      expect(file.contentType).toMatch(/^text\/calendar/);
      expect(file.text).toMatch(/^METHOD:REQUEST\r?$/m);
      expect(file.text).toMatch(/^SEQUENCE:0\r?$/m);
      expect(file.text).toContain(`UID:session-${session.id}@`);
      // The platform's sender as organiser: its address alone in the mailto (MAIL_FROM carries a display name).
      expect(file.text).toMatch(/^ORGANIZER;CN="Course Platform":mailto:no-reply@example\.com\r?$/m);
      expect(mails[0]!.body.text).toContain(`Join: ${session.joinUrl}`);
      expect(mails[0]!.body.text).toContain('Course: Sourdough live');
      expect(JSON.stringify(mails[0])).not.toContain(session.hostUrl);
    }

    // A learner enrolling after the schedule is invited too (the table's stream).
    expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: late.email } })).status).toBe(201);
    const [lateMails] = await eachHolds([late], 1);
    expect(lateMails!.map((m) => m.subject)).toEqual(['You are invited to a live session']);
    expect(ics(lateMails![0]!).text).toMatch(/^SEQUENCE:0\r?$/m);

    // Changed: SEQUENCE 1, the same UID.
    const everyone = [...learners, late];
    expect((await api('PATCH', `/api/courses/${courseId}/sessions/${session.id}`, { token: creator.token, body: { title: 'Shaping Q&A (longer)', durationMinutes: 60 } })).status).toBe(200);
    const updated = await eachHolds(everyone, 2);
    for (const mails of updated) {
      expect(mails.map((m) => m.subject)).toEqual(['You are invited to a live session', 'A live session has changed']);
      const file = ics(mails[1]!).text;
      expect(file).toMatch(/^METHOD:REQUEST\r?$/m);
      expect(file).toMatch(/^SEQUENCE:1\r?$/m);
      expect(file).toContain(`UID:session-${session.id}@`);
    }

    // Cancelled: METHOD:CANCEL, and nothing twice.
    expect((await api('DELETE', `/api/courses/${courseId}/sessions/${session.id}`, { token: creator.token })).status).toBe(204);
    const cancelled = await eachHolds(everyone, 3);
    for (const mails of cancelled) {
      expect(mails.map((m) => m.subject)).toEqual(['You are invited to a live session', 'A live session has changed', 'A live session was cancelled']);
      const file = ics(mails[2]!);
      expect(file.contentType).toBe('text/calendar; method=CANCEL');
      expect(file.text).toMatch(/^METHOD:CANCEL\r?$/m);
      expect(file.text).toMatch(/^SEQUENCE:2\r?$/m);
    }
  }, 180_000);
});
