import { describe, expect, it } from 'vitest';
import { memoryQuizAttempts } from '#test/functions/fakes/quiz-attempts.ts';
import { SEND_ENCOURAGEMENT_TEXT } from '#contracts/courses.ts';
import { NotFoundError, UpstreamError } from '#core/errors.ts';
import { CRM_PAGE_SIZE, crmLearnerDetails, crmRow, listCrmLearners, saveLearnerNotes, sendRecommendation } from '#core/crm/learners.ts';
import type { Mailer } from '#core/ports.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { type FakeEnrollment, memoryCrm } from '#test/functions/fakes/crm.ts';
import { onBehalfFakes } from '#test/functions/fakes/on-behalf.ts';
import { CLAY_SCHOOL, memoryMailSchools } from '#test/functions/fakes/mail-schools.ts';

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.parse(NOW) - days * DAY).toISOString();

const enrollment = (overrides: Partial<FakeEnrollment> = {}): FakeEnrollment => ({
  creatorId: 'creator-1',
  courseId: 'course-1',
  learnerId: 'learner-1',
  enrolledAt: daysAgo(3),
  learnerEmail: 'ada@example.com',
  learnerJoinedAt: daysAgo(30),
  courseTitle: 'Baking Bread',
  progress: 40,
  lastActivity: daysAgo(1),
  completedAt: null,
  ...overrides,
});

const sentMail = () => {
  const sent: Parameters<Mailer['send']>[0][] = [];
  const mailer: Mailer & { sent: typeof sent; failNext?: boolean } = {
    sent,
    async send(message) {
      if (mailer.failNext) throw new Error('SES said no');
      sent.push(message);
    },
  };
  return mailer;
};

const setup = (enrollments: FakeEnrollment[] = [enrollment()], courses: Record<string, string> = { 'course-1': 'creator-1' }) => ({
  crm: memoryCrm({ enrollments, courses }),
  quizzes: memoryQuizAttempts(),
  clock: testClock(),
  ids: sequentialIds('rec'),
  mailer: sentMail(),
  appOrigin: 'http://localhost:5173',
  ...memoryMailSchools(),
  ...onBehalfFakes(),
});

describe('a CRM row', () => {
  it('shows the enrolment as it is', () => {
    expect(crmRow(enrollment(), 'Keen on sourdough', new Date(NOW))).toEqual({
      id: 'learner-1',
      email: 'ada@example.com',
      createdAt: daysAgo(30),
      courseId: 'course-1',
      courseName: 'Baking Bread',
      progress: 40,
      lastActivity: daysAgo(1),
      notes: 'Keen on sourdough',
      stalled: false,
      pendingSubmissions: 0,
    });
  });

  it("applies the spec's defaults: email 'Unknown', progress 0, course 'Unknown Course', no notes, activity = enrolment date", () => {
    const bare: FakeEnrollment = { creatorId: 'creator-1', courseId: 'course-1', learnerId: 'learner-1', enrolledAt: daysAgo(2) };
    expect(crmRow(bare, undefined, new Date(NOW))).toMatchObject({
      email: 'Unknown',
      progress: 0,
      courseName: 'Unknown Course',
      notes: '',
      lastActivity: daysAgo(2),
      createdAt: daysAgo(2),
    });
    expect(crmRow({ ...bare, learnerEmail: '', courseTitle: '' }, undefined, new Date(NOW))).toMatchObject({ email: 'Unknown', courseName: 'Unknown Course' });
  });

  it('is stalled after 14 days without lesson activity, not before, and never once completed', () => {
    const now = new Date(NOW);
    expect(crmRow(enrollment({ lastActivity: daysAgo(13.9) }), '', now).stalled).toBe(false);
    expect(crmRow(enrollment({ lastActivity: daysAgo(14) }), '', now).stalled).toBe(true);
    expect(crmRow(enrollment({ lastActivity: daysAgo(40), progress: 100, completedAt: daysAgo(40) }), '', now).stalled).toBe(false);
  });

  it('counts a learner who never started as stalled from their enrolment date', () => {
    const { lastActivity: _never, ...unstarted } = enrollment({ enrolledAt: daysAgo(20), progress: 0 });
    expect(crmRow(unstarted, '', new Date(NOW))).toMatchObject({ lastActivity: daysAgo(20), stalled: true });
  });
});

describe('the CRM list', () => {
  it("lists one row per enrolment in the creator's courses, newest first, with each learner's note", async () => {
    const d = setup([
      enrollment({ learnerId: 'a', enrolledAt: daysAgo(5) }),
      enrollment({ learnerId: 'b', enrolledAt: daysAgo(1), courseId: 'course-2', courseTitle: 'Pastry' }),
      enrollment({ learnerId: 'a', enrolledAt: daysAgo(2), courseId: 'course-2', courseTitle: 'Pastry' }),
      enrollment({ learnerId: 'x', creatorId: 'creator-2' }),
    ]);
    await d.crm.saveNote('creator-1', 'a', { notes: 'Asked about rye', updatedAt: NOW });
    const list = await listCrmLearners(d, { creatorId: 'creator-1' });
    expect(list.items.map((row) => [row.id, row.courseName, row.notes])).toEqual([
      ['b', 'Pastry', ''],
      ['a', 'Pastry', 'Asked about rye'],
      ['a', 'Baking Bread', 'Asked about rye'],
    ]);
    expect(list.nextCursor).toBeNull();
  });

  it('costs one page query and one notes read, whatever the number of learners', async () => {
    const many = Array.from({ length: 60 }, (_, i) => enrollment({ learnerId: `l${i}`, enrolledAt: daysAgo(i + 1) }));
    const d = setup(many);
    const first = await listCrmLearners(d, { creatorId: 'creator-1' });
    expect(first.items).toHaveLength(CRM_PAGE_SIZE);
    expect(d.crm.calls).toEqual({ learnersPage: 1, getNotes: 1 });
    const second = await listCrmLearners(d, { creatorId: 'creator-1', cursor: first.nextCursor! });
    expect(second.items[0]!.id).toBe(`l${CRM_PAGE_SIZE}`);
  });

  it("lists one course's learners with ?courseId=, and another creator's course is 404", async () => {
    const d = setup([enrollment({ learnerId: 'a' }), enrollment({ learnerId: 'b', courseId: 'course-2' })], { 'course-1': 'creator-1', 'course-2': 'creator-1', theirs: 'creator-2' });
    expect((await listCrmLearners(d, { creatorId: 'creator-1', courseId: 'course-2' })).items.map((r) => r.id)).toEqual(['b']);
    await expect(listCrmLearners(d, { creatorId: 'creator-1', courseId: 'theirs' })).rejects.toThrow(NotFoundError);
    await expect(listCrmLearners(d, { creatorId: 'creator-1', courseId: 'missing' })).rejects.toThrow(NotFoundError);
  });

  it('is empty, without a notes read, for a creator with no learners', async () => {
    const d = setup([]);
    expect(await listCrmLearners(d, { creatorId: 'creator-1' })).toEqual({ items: [], nextCursor: null });
    expect(d.crm.calls.getNotes).toBe(0);
  });
});

describe("a learner's details", () => {
  it('shows progress per course, the note and the timeline', async () => {
    const d = setup([enrollment(), enrollment({ courseId: 'course-2', courseTitle: 'Pastry', progress: 100, completedAt: daysAgo(1), enrolledAt: daysAgo(2) })]);
    await saveLearnerNotes(d, { creatorId: 'creator-1', learnerId: 'learner-1', notes: 'Doing well' });
    await sendRecommendation(d, { creatorId: 'creator-1', learnerId: 'learner-1', recommendation: SEND_ENCOURAGEMENT_TEXT });
    const details = await crmLearnerDetails(d, { creatorId: 'creator-1', learnerId: 'learner-1' });
    expect(details).toMatchObject({ id: 'learner-1', email: 'ada@example.com', createdAt: daysAgo(30), notes: 'Doing well', notesUpdatedAt: NOW });
    expect(details.enrollments.map((e) => [e.courseName, e.progress, e.completedAt])).toEqual([
      ['Pastry', 100, daysAgo(1)],
      ['Baking Bread', 40, null],
    ]);
    expect(details.timeline).toEqual([{ kind: 'recommendation', text: SEND_ENCOURAGEMENT_TEXT, sentAt: NOW }]);
  });

  it('shows the submissions waiting for review per course, in the list and the details (issue 35 point 2)', async () => {
    const d = setup([enrollment(), enrollment({ courseId: 'course-2', courseTitle: 'Pastry', enrolledAt: daysAgo(2) })]);
    d.crm.pending.set('course-2#learner-1', 2);
    expect((await listCrmLearners(d, { creatorId: 'creator-1' })).items.map((r) => [r.courseName, r.pendingSubmissions])).toEqual([
      ['Pastry', 2],
      ['Baking Bread', 0],
    ]);
    const details = await crmLearnerDetails(d, { creatorId: 'creator-1', learnerId: 'learner-1' });
    expect(details.enrollments.map((e) => [e.courseName, e.pendingSubmissions])).toEqual([
      ['Pastry', 2],
      ['Baking Bread', 0],
    ]);
  });

  it("is 404 for another creator's learner, and for nobody", async () => {
    const d = setup([enrollment({ creatorId: 'creator-2' })]);
    await expect(crmLearnerDetails(d, { creatorId: 'creator-1', learnerId: 'learner-1' })).rejects.toThrow(NotFoundError);
    await expect(crmLearnerDetails(d, { creatorId: 'creator-1', learnerId: 'nobody' })).rejects.toThrow(NotFoundError);
  });
});

describe('saving notes', () => {
  it('saves the note with its time, and the list shows it', async () => {
    const d = setup();
    expect(await saveLearnerNotes(d, { creatorId: 'creator-1', learnerId: 'learner-1', notes: 'Call on Friday' })).toEqual({ notes: 'Call on Friday', updatedAt: NOW });
    expect((await listCrmLearners(d, { creatorId: 'creator-1' })).items[0]!.notes).toBe('Call on Friday');
  });

  it("is 404 for another creator's learner, and nothing is written", async () => {
    const d = setup([enrollment({ creatorId: 'creator-2' })]);
    await expect(saveLearnerNotes(d, { creatorId: 'creator-1', learnerId: 'learner-1', notes: 'mine now' })).rejects.toThrow(NotFoundError);
    expect(d.crm.notes.size).toBe(0);
  });
});

describe('sending a recommendation', () => {
  it('emails the learner the text with a link back to their courses, and puts it on the timeline', async () => {
    const d = setup();
    expect(await sendRecommendation(d, { creatorId: 'creator-1', learnerId: 'learner-1', recommendation: 'Try <the> rye loaf' })).toEqual({ sent: true });
    expect(d.mailer.sent).toHaveLength(1);
    const mail = d.mailer.sent[0]!;
    expect(mail.to).toBe('ada@example.com');
    // Issue 27 point 4: the platform's subject; the course and the creator's words in the body, framed and escaped.
    expect(mail.subject).toBe('A message from your course creator on Course Platform');
    expect(mail.text).toContain('About: Baking Bread');
    expect(mail.text).toContain('> Try <the> rye loaf');
    expect(mail.text).toContain('http://localhost:5173/dashboard/learner');
    expect(mail.html).toContain('Try &lt;the&gt; rye loaf');
    expect(await d.crm.timeline('creator-1', 'learner-1', 10)).toEqual([{ id: 'rec-1', kind: 'recommendation', text: 'Try <the> rye loaf', sentAt: NOW }]);
  });

  it("comes from a branded creator's school (issue 32): its name as the sender's and first, its logo on top; unbranded, from the platform", async () => {
    const d = setup();
    await sendRecommendation(d, { creatorId: 'creator-1', learnerId: 'learner-1', recommendation: 'Keep going' });
    expect(d.mailer.sent[0]).not.toHaveProperty('fromName');
    expect(d.mailer.sent[0]!.text.startsWith('Course Platform: your course creator sent you this message.')).toBe(true);
    d.brand('creator-1');
    await sendRecommendation(d, { creatorId: 'creator-1', learnerId: 'learner-1', recommendation: 'Keep going' });
    const mail = d.mailer.sent[1]!;
    expect(mail).toMatchObject({ to: 'ada@example.com', fromName: 'Clay & Kiln', subject: 'A message from your course creator on Course Platform' });
    expect(mail.text.startsWith('Clay & Kiln: your course creator sent you this message.')).toBe(true);
    expect(mail.html).toContain(`<img src="${CLAY_SCHOOL.logoUrl}" alt="Clay &amp; Kiln"`);
  });

  it('is 502 when SES refuses, and nothing lands on the timeline', async () => {
    const d = setup();
    d.mailer.failNext = true;
    const sending = sendRecommendation(d, { creatorId: 'creator-1', learnerId: 'learner-1', recommendation: 'Keep going' });
    await expect(sending).rejects.toThrow(UpstreamError);
    await expect(sending).rejects.toMatchObject({ code: 'UPSTREAM_FAILED' });
    expect(d.crm.timelines.size).toBe(0);
  });

  it('is refused (403 EMAIL_NOT_VERIFIED) for a creator who has not verified their email: no mail, no timeline', async () => {
    const d = setup();
    d.directory.unverified.add('creator-1');
    await expect(sendRecommendation(d, { creatorId: 'creator-1', learnerId: 'learner-1', recommendation: 'Keep going' })).rejects.toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    expect(d.mailer.sent).toEqual([]);
    expect(d.crm.timelines.size).toBe(0);
  });

  it("is 404 for another creator's learner: no mail, no timeline", async () => {
    const d = setup([enrollment({ creatorId: 'creator-2' })]);
    await expect(sendRecommendation(d, { creatorId: 'creator-1', learnerId: 'learner-1', recommendation: 'Hi' })).rejects.toThrow(NotFoundError);
    expect(d.mailer.sent).toHaveLength(0);
    expect(d.crm.timelines.size).toBe(0);
  });

  it('is 404 when no address is known for the learner (nothing to send to)', async () => {
    const { learnerEmail: _none, ...noEmail } = enrollment();
    const d = setup([noEmail]);
    await expect(sendRecommendation(d, { creatorId: 'creator-1', learnerId: 'learner-1', recommendation: 'Hi' })).rejects.toThrow(NotFoundError);
  });
});

