import { describe, expect, it } from 'vitest';
import { createSequenceBody, type SequenceStep } from '#contracts/sequences.ts';
import { ValidationError } from '#core/errors.ts';
import type { Enrollment, QueuedMail } from '#core/ports.ts';
import { enterFromChange } from '#core/sequences/entries.ts';
import type { SequenceCounts, SequenceEntry, SequenceEntryRepository, SequenceRepository, StoredSequence } from '#core/sequences/ports.ts';
import { type EnrolmentImage } from '#core/sequences/rules.ts';
import { runSequenceSender, type SequenceSenderDeps } from '#core/sequences/sender.ts';
import { createSequence, sequenceStatsOf } from '#core/sequences/sequences.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';

/**
 * Email sequences (issue 33 part 2) on a clock the test moves: who enters, when each step is due, that each goes once,
 * and who leaves (removed from the course, back from inactivity, unsubscribed from the creator).
 */
const DAY = 86_400_000;
const T0 = '2026-11-21T12:00:00.000Z';

const step = (delayDays: number, subject: string, body = 'Hello {{learnerName}}, welcome to {{courseTitle}}.'): SequenceStep => ({ delayDays, subject, body });

const sequenceOf = (over: Partial<StoredSequence> & Pick<StoredSequence, 'id' | 'trigger' | 'steps'>): StoredSequence => ({
  creatorId: 'creator-1',
  name: over.id,
  active: true,
  createdAt: T0,
  updatedAt: T0,
  ...over,
});

/** The table, as far as sequences go: sequences, their counts, entries (with their conditions), the mail queue. */
const world = () => {
  const clock = testClock(T0);
  const sequences = new Map<string, StoredSequence>();
  const counts = new Map<string, SequenceCounts>();
  const entries = new Map<string, SequenceEntry & { leftFor?: string }>();
  const enrolments = new Map<string, Enrollment>();
  const queued: QueuedMail[] = [];
  const unsubscribed = new Set<string>();
  const keyOf = (e: Pick<SequenceEntry, 'sequenceId' | 'courseId' | 'learnerId' | 'event'>) => `${e.sequenceId}|${e.courseId}|${e.learnerId}|${e.event}`;
  const countsOf = (id: string) => counts.get(id) ?? (counts.set(id, { entered: 0, sent: {}, unsubscribed: 0 }), counts.get(id)!);
  const asRead = (e: SequenceEntry) => {
    const stored = entries.get(keyOf(e));
    return stored !== undefined && stored.step === e.step && stored.dueAt === e.dueAt ? stored : undefined;
  };
  const repo: SequenceRepository = {
    list: async (creatorId) => [...sequences.values()].filter((s) => s.creatorId === creatorId),
    get: async (creatorId, id) => (sequences.get(id)?.creatorId === creatorId ? sequences.get(id) : undefined),
    create: async (s) => (sequences.set(s.id, s), 'created'),
    save: async (s) => sequences.has(s.id) && (sequences.set(s.id, s), true),
    remove: async (_c, id) => sequences.delete(id),
    stats: async (_c, id) => countsOf(id),
  };
  const entryRepo: SequenceEntryRepository = {
    enter: async (e) => !entries.has(keyOf(e)) && (entries.set(keyOf(e), { ...e }), true),
    dropWaiting: async (ref) => {
      if (entries.get(keyOf(ref))?.entered === false) entries.delete(keyOf(ref));
    },
    due: async (now) => ({ items: [...entries.values()].filter((e) => e.dueAt !== null && e.dueAt <= now).sort((a, b) => a.dueAt!.localeCompare(b.dueAt!)).map((e) => ({ ...e })), nextCursor: null }),
    get: async (ref) => {
      const e = entries.get(keyOf(ref));
      return e && { ...e };
    },
    advance: async (e, next) => {
      const stored = asRead(e);
      if (!stored) return false;
      Object.assign(stored, { step: e.step + 1, dueAt: next.nextDueAt, entered: true });
      queued.push(next.mail);
      const c = countsOf(e.sequenceId);
      c.sent[String(e.step)] = (c.sent[String(e.step)] ?? 0) + 1;
      if (next.entered) c.entered++;
      return true;
    },
    leave: async (e, reason) => {
      const stored = asRead(e);
      if (!stored) return false;
      Object.assign(stored, { dueAt: null, leftFor: reason });
      if (reason === 'unsubscribed' && e.entered) countsOf(e.sequenceId).unsubscribed++;
      return true;
    },
  };
  const senderDeps: SequenceSenderDeps = {
    sequences: repo,
    entries: entryRepo,
    enrolments: { get: async (courseId, learnerId) => enrolments.get(`${courseId}|${learnerId}`) },
    unsubscribes: { unsubscribed: async (creatorId, emails) => new Set(emails.filter((e) => unsubscribed.has(`${creatorId}|${e}`))) },
    suppressed: async () => new Set(),
    learnerName: async (learnerId) => (learnerId === 'ann' ? 'Ann Lee' : undefined),
    school: async (creatorId) => (creatorId === 'creator-1' ? { name: 'Pottery School', logoUrl: null } : undefined),
    unsubscribeLink: async (creatorId, email) => {
      const url = `https://app.example/api/unsubscribe?token=${creatorId}.${email}`;
      return { url, headers: [{ name: 'List-Unsubscribe', value: `<${url}>` }, { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' }] };
    },
    sanitize: (html) => html,
    clock,
    startSender: async () => undefined,
    warn: () => undefined,
  };
  /** An enrolment's change as the stream carries it: the item stored, its entries written. */
  const change = async (next: Enrollment) => {
    const key = `${next.courseId}|${next.learnerId}`;
    const before = enrolments.get(key);
    enrolments.set(key, next);
    return enterFromChange({ sequencesOf: (creatorId) => repo.list(creatorId), entries: entryRepo }, before as EnrolmentImage | undefined, next);
  };
  const enrol = (learnerId: string, courseId = 'course-1', creatorId = 'creator-1'): Enrollment => ({
    courseId,
    learnerId,
    creatorId,
    learnerEmail: `${learnerId}@example.com`,
    learnerJoinedAt: T0,
    courseTitle: 'Wheel Throwing',
    status: 'active',
    enrolledAt: clock.now().toISOString(),
    completedLessonIds: [],
    progress: 0,
    lastActivity: clock.now().toISOString(),
    completedAt: null,
  });
  /** One run of the job (a slice with all the time it needs). */
  const run = async () => (await runSequenceSender(senderDeps)({ job: 'sequence-sender', run: 'r', lane: 'main', seq: 0 }, () => false)).counts;
  const mailsTo = (learnerId: string) => queued.filter((m) => m.to === `${learnerId}@example.com`);
  return { clock, sequences, repo, entries, enrolments, queued, unsubscribed, change, enrol, run, mailsTo, countsOf };
};

describe('a sequence on enrolment', () => {
  it('emails a newly enrolled learner its day-0 step once, the next step on its day, and nothing after the last', async () => {
    const w = world();
    w.sequences.set('welcome', sequenceOf({ id: 'welcome', trigger: { kind: 'enrolled', courseId: null }, steps: [step(0, 'Welcome, {{learnerName}}'), step(2, 'How is {{courseTitle}} going?')] }));
    await w.change(w.enrol('ann'));
    // The same record seen again (a retried stream batch) enters nobody twice.
    await w.change(w.enrolments.get('course-1|ann')!);
    expect((await w.run()).queued).toBe(1);
    expect((await w.run()).queued, 'a second run finds the step gone').toBe(0);
    const [first] = w.mailsTo('ann');
    expect(first).toMatchObject({ subject: 'Welcome, Ann Lee', fromName: 'Pottery School' });
    expect(first!.text).toContain('Hello Ann Lee, welcome to Wheel Throwing.');
    expect(first!.headers).toContainEqual({ name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' });
    expect(first!.html).toContain('Unsubscribe from Pottery School');

    w.clock.advance(2 * DAY - 60_000);
    expect((await w.run()).queued, 'a minute before day 2').toBe(0);
    w.clock.advance(60_000);
    expect((await w.run()).queued).toBe(1);
    w.clock.advance(30 * DAY);
    expect((await w.run()).queued).toBe(0);
    expect(w.mailsTo('ann').map((m) => m.subject)).toEqual(['Welcome, Ann Lee', 'How is Wheel Throwing going?']);
    expect(await sequenceStatsOf({ sequences: w.repo }, 'creator-1', 'welcome')).toEqual({ entered: 1, sent: [1, 1], unsubscribed: 0 });
  });

  it("enters only the sequences of the learner's course (or any course), of its creator, switched on", async () => {
    const w = world();
    w.sequences.set('this', sequenceOf({ id: 'this', trigger: { kind: 'enrolled', courseId: 'course-1' }, steps: [step(0, 'This course')] }));
    w.sequences.set('other', sequenceOf({ id: 'other', trigger: { kind: 'enrolled', courseId: 'course-2' }, steps: [step(0, 'Other course')] }));
    w.sequences.set('off', sequenceOf({ id: 'off', active: false, trigger: { kind: 'enrolled', courseId: null }, steps: [step(0, 'Switched off')] }));
    w.sequences.set('theirs', sequenceOf({ id: 'theirs', creatorId: 'creator-2', trigger: { kind: 'enrolled', courseId: null }, steps: [step(0, 'Another creator')] }));
    w.sequences.set('done', sequenceOf({ id: 'done', trigger: { kind: 'completed', courseId: null }, steps: [step(0, 'Well done')] }));
    await w.change(w.enrol('ann'));
    await w.run();
    expect(w.mailsTo('ann').map((m) => m.subject)).toEqual(['This course']);
    // Completing the course is the completion sequence's event.
    w.clock.advance(DAY);
    await w.change({ ...w.enrolments.get('course-1|ann')!, completedAt: w.clock.now().toISOString(), lastActivity: w.clock.now().toISOString() });
    await w.run();
    expect(w.mailsTo('ann').map((m) => m.subject)).toEqual(['This course', 'Well done']);
  });

  it('leaves a learner removed from the course: no further step', async () => {
    const w = world();
    w.sequences.set('welcome', sequenceOf({ id: 'welcome', trigger: { kind: 'enrolled', courseId: null }, steps: [step(0, 'One'), step(1, 'Two')] }));
    await w.change(w.enrol('ann'));
    await w.run();
    await w.change({ ...w.enrolments.get('course-1|ann')!, status: 'removed' });
    w.clock.advance(DAY);
    expect(await w.run()).toMatchObject({ queued: 0, left: 1 });
    expect(w.mailsTo('ann').map((m) => m.subject)).toEqual(['One']);
    expect([...w.entries.values()][0]).toMatchObject({ leftFor: 'removed', dueAt: null });
  });

  it("stops that creator's sequences for a learner who unsubscribed from them, and counts it; another creator's go on", async () => {
    const w = world();
    w.sequences.set('mine', sequenceOf({ id: 'mine', trigger: { kind: 'enrolled', courseId: null }, steps: [step(0, 'Mine one'), step(1, 'Mine two')] }));
    w.sequences.set('theirs', sequenceOf({ id: 'theirs', creatorId: 'creator-2', trigger: { kind: 'enrolled', courseId: null }, steps: [step(0, 'Theirs one'), step(1, 'Theirs two')] }));
    await w.change(w.enrol('ann'));
    await w.change(w.enrol('ann', 'course-9', 'creator-2'));
    await w.run();
    w.unsubscribed.add('creator-1|ann@example.com');
    w.clock.advance(DAY);
    await w.run();
    expect(w.mailsTo('ann').map((m) => m.subject)).toEqual(['Mine one', 'Theirs one', 'Theirs two']);
    expect((await sequenceStatsOf({ sequences: w.repo }, 'creator-1', 'mine')).unsubscribed).toBe(1);
  });
});

describe('a sequence on inactivity', () => {
  const inactive = (days: number, steps: SequenceStep[]) => sequenceOf({ id: 'nudge', trigger: { kind: 'inactive', courseId: null, days }, steps });

  it('emails once `days` after the last activity; activity before then moves the day, and leaves nothing behind', async () => {
    const w = world();
    w.sequences.set('nudge', inactive(7, [step(0, 'We miss you')]));
    await w.change(w.enrol('ann'));
    w.clock.advance(5 * DAY);
    // Ann completes a lesson on day 5: her spell starts again.
    await w.change({ ...w.enrolments.get('course-1|ann')!, lastActivity: w.clock.now().toISOString() });
    expect([...w.entries.values()], 'the first spell is dropped').toHaveLength(1);
    w.clock.advance(3 * DAY);
    expect((await w.run()).queued, 'day 8: 3 days since her activity').toBe(0);
    w.clock.advance(4 * DAY);
    expect((await w.run()).queued, 'day 12: 7 days since').toBe(1);
    w.clock.advance(10 * DAY);
    expect((await w.run()).queued, 'once per spell').toBe(0);
    expect(w.mailsTo('ann').map((m) => m.subject)).toEqual(['We miss you']);
    expect(await sequenceStatsOf({ sequences: w.repo }, 'creator-1', 'nudge')).toEqual({ entered: 1, sent: [1], unsubscribed: 0 });
  });

  it('leaves a learner who came back before the next step, and enters them again after a new spell', async () => {
    const w = world();
    w.sequences.set('nudge', inactive(3, [step(0, 'Nudge one'), step(4, 'Nudge two')]));
    await w.change(w.enrol('ann'));
    w.clock.advance(3 * DAY);
    await w.run();
    w.clock.advance(DAY);
    await w.change({ ...w.enrolments.get('course-1|ann')!, lastActivity: w.clock.now().toISOString() });
    w.clock.advance(3 * DAY);
    // Day 7: the first spell's second step is due, but Ann came back on day 4; her new spell fires on day 7.
    expect(await w.run()).toMatchObject({ queued: 1, left: 1 });
    expect(w.mailsTo('ann').map((m) => m.subject)).toEqual(['Nudge one', 'Nudge one']);
  });
});

describe('sequences as the creator makes them', () => {
  it("refuses a trigger course that is not the creator's, and an inactivity trigger without days", async () => {
    const w = world();
    const deps = { sequences: w.repo, courses: { getCourse: async (id: string) => (id === 'mine' ? ({ creatorId: 'creator-1' } as never) : undefined) }, clock: w.clock, ids: sequentialIds('seq') };
    const body = { name: 'Welcome', trigger: { kind: 'enrolled' as const, courseId: 'not-mine' }, steps: [step(0, 'Hi')], active: true };
    await expect(createSequence(deps, 'creator-1', body)).rejects.toBeInstanceOf(ValidationError);
    expect(await createSequence(deps, 'creator-1', { ...body, trigger: { kind: 'enrolled', courseId: 'mine' } })).toMatchObject({ id: 'seq-1', active: true });
    expect(createSequenceBody.safeParse({ ...body, trigger: { kind: 'inactive', courseId: null } }).success).toBe(false);
    expect(createSequenceBody.safeParse({ ...body, trigger: { kind: 'inactive', courseId: null, days: 2 } }).success).toBe(false);
    expect(createSequenceBody.safeParse({ ...body, trigger: { kind: 'inactive', courseId: null, days: 3 } }).success).toBe(true);
    expect(createSequenceBody.safeParse({ ...body, steps: [] }).success).toBe(false);
    expect(createSequenceBody.safeParse({ ...body, steps: Array.from({ length: 21 }, () => step(0, 'x')) }).success).toBe(false);
  });
});
