import { describe, expect, it } from 'vitest';
import { inviteLateEnrolee, type SessionLearner, type SessionMailClaim, type SessionMailDeps, sessionEmail, sessionMailWork, SESSION_ICS } from '#core/live-sessions/invitations.ts';
import { SESSION_MAIL_JOB, sessionMailRun, type SessionMailKind, type StoredSession } from '#core/live-sessions/ports.ts';
import type { QueuedMail } from '#core/ports.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { CLAY_SCHOOL, memoryMailSchools } from '#test/functions/fakes/mail-schools.ts';
import { runSliced } from '#test/functions/fakes/sliced-run.ts';

const session = (over: Partial<StoredSession> = {}): StoredSession => ({
  id: 'ses1',
  courseId: 'course-1',
  creatorId: 'c1',
  title: 'Live Q&A',
  description: 'Bring questions.',
  startsAt: '2026-11-22T18:00:00.000Z',
  durationMinutes: 90,
  provider: 'zoom',
  timeZone: 'America/New_York',
  meetingId: 'm1',
  joinUrl: 'https://meet.example/j/1',
  hostUrl: 'https://meet.example/s/1',
  status: 'scheduled',
  sequence: 0,
  createdAt: NOW,
  updatedAt: NOW,
  ...over,
});

const learner = (n: number, active = true): SessionLearner => ({ learnerId: `l${n}`, email: `l${n}@example.com`, active });

/** The store with data/session-mail.ts's conditions: a claim per learner and session, written with the queued email. */
const memoryStore = (learners: SessionLearner[], pageSize = 2) => {
  const sessions = new Map<string, StoredSession>();
  const claims = new Map<string, { invitedSequence?: number; remindedFor?: string }>();
  const queued: QueuedMail[] = [];
  const store: SessionMailDeps['store'] = {
    session: async (id) => sessions.get(id),
    courseTitle: async (courseId) => (courseId === 'course-1' ? 'Knife skills' : undefined),
    learners: async (_courseId, cursor) => {
      const from = Number(cursor ?? 0);
      const next = from + pageSize;
      return { items: learners.slice(from, next), nextCursor: next < learners.length ? String(next) : null };
    },
    queue: async (sessionId, learnerId, claim: SessionMailClaim, mail) => {
      const key = `${sessionId}/${learnerId}`;
      const held = claims.get(key) ?? {};
      if (claim.kind === 'reminder') {
        if (held.remindedFor === claim.startsAt) return false;
        claims.set(key, { ...held, remindedFor: claim.startsAt });
      } else {
        const ok = claim.kind === 'invitation' ? held.invitedSequence === undefined || held.invitedSequence < claim.sequence : held.invitedSequence !== undefined && held.invitedSequence < claim.sequence;
        if (!ok) return false;
        claims.set(key, { ...held, invitedSequence: claim.sequence });
      }
      queued.push(mail);
      return true;
    },
    upcoming: async (courseId, now) => [...sessions.values()].filter((s) => s.courseId === courseId && s.status === 'scheduled' && Date.parse(s.startsAt) + s.durationMinutes * 60_000 > Date.parse(now)),
  };
  return { store, sessions, claims, queued };
};

const setup = (learners: SessionLearner[], pageSize = 2) => {
  const world = memoryStore(learners, pageSize);
  const senders: string[] = [];
  const clock = testClock();
  const schools = memoryMailSchools();
  const deps: SessionMailDeps = {
    mailSchool: schools.mailSchool,
    store: world.store,
    ids: sequentialIds('mail'),
    clock,
    calendar: { organizer: { name: 'Course Platform', email: 'no-reply@example.com' }, uidDomain: 'courses.example' },
    startSender: async (key) => void senders.push(key),
    log: () => undefined,
  };
  const run = (s: StoredSession, mail: SessionMailKind, opts: Parameters<typeof runSliced>[2] = {}) => {
    const { run: name, input } = sessionMailRun(s, mail);
    return runSliced(SESSION_MAIL_JOB, () => sessionMailWork(deps), { ...opts, run: name, input: { ...input } });
  };
  return { ...world, deps, senders, clock, run, brand: schools.brand };
};

const recipients = (mails: QueuedMail[]) => mails.map((m) => m.to).sort();
const ics = (mail: QueuedMail) => mail.attachments?.find((a) => a.filename === SESSION_ICS);

describe("the 'session-mail' run", () => {
  it('queues one invitation per active learner, with the .ics (REQUEST, SEQUENCE 0), and starts the mail sender', async () => {
    const w = setup([learner(1), learner(2), learner(3, false), learner(4)]);
    w.sessions.set('ses1', session());
    const result = await w.run(session(), 'invitation');
    expect(recipients(w.queued)).toEqual(['l1@example.com', 'l2@example.com', 'l4@example.com']);
    expect(result.counts).toMatchObject({ queued: 3, inactive: 1 });
    const mail = w.queued[0]!;
    expect(mail.subject).toBe('You are invited to a live session');
    expect(ics(mail)?.contentType).toBe('text/calendar; method=REQUEST');
    expect(ics(mail)?.content).toMatch(/METHOD:REQUEST/);
    expect(ics(mail)?.content).toMatch(/SEQUENCE:0/);
    expect(w.senders.length).toBeGreaterThan(0);
  });

  it('sends each learner once even when a slice is killed after some of its learners and delivered again', async () => {
    const learners = Array.from({ length: 9 }, (_, i) => learner(i + 1));
    const w = setup(learners, 3);
    w.sessions.set('ses1', session());
    const result = await w.run(session(), 'invitation', { itemsPerSlice: 2, kill: { seq: 1, afterChecks: 2 } });
    expect(result.kills).toBe(1);
    expect(recipients(w.queued)).toEqual(recipients(learners.map((l) => ({ to: l.email }) as QueuedMail)));
    // The run started again from its first slice (a second start of the same version) queues nothing more.
    await w.run(session(), 'invitation');
    expect(w.queued).toHaveLength(9);
  });

  it('a change sends "Updated" with SEQUENCE raised; a run of the older version stops', async () => {
    const w = setup([learner(1), learner(2)]);
    w.sessions.set('ses1', session());
    await w.run(session(), 'invitation');
    const changed = session({ title: 'Live Q&A (moved)', startsAt: '2026-11-23T18:00:00.000Z', sequence: 1 });
    w.sessions.set('ses1', changed);
    const stale = await w.run(session(), 'invitation');
    expect(stale.counts).toMatchObject({ superseded: 1 });
    await w.run(changed, 'invitation');
    const updates = w.queued.slice(2);
    expect(updates.map((m) => m.subject)).toEqual(['A live session has changed', 'A live session has changed']);
    expect(updates[0]!.text).toContain('Session: Live Q&A (moved)');
    expect(ics(updates[0]!)?.content).toMatch(/SEQUENCE:1/);
  });

  it('a cancellation goes only to learners who were invited, with METHOD:CANCEL, and without the join link', async () => {
    const w = setup([learner(1), learner(2)]);
    w.sessions.set('ses1', session());
    await w.run(session(), 'invitation');
    // A learner enrolled after the run (never invited), then the session cancelled.
    const late = setup([learner(1), learner(2), learner(3)]);
    late.sessions.set('ses1', session());
    for (const l of [learner(1), learner(2)]) late.claims.set(`ses1/${l.learnerId}`, { invitedSequence: 0 });
    const cancelled = session({ status: 'cancelled', sequence: 1 });
    late.sessions.set('ses1', cancelled);
    await late.run(cancelled, 'invitation');
    expect(recipients(late.queued)).toEqual(['l1@example.com', 'l2@example.com']);
    const mail = late.queued[0]!;
    expect(mail.subject).toBe('A live session was cancelled');
    expect(ics(mail)?.contentType).toBe('text/calendar; method=CANCEL');
    expect(ics(mail)?.content).toMatch(/METHOD:CANCEL/);
    expect(mail.text).not.toContain('https://meet.example/j/1');
  });

  it('a session that ended gets nothing', async () => {
    const w = setup([learner(1)]);
    const past = session({ startsAt: '2026-11-21T08:00:00.000Z', durationMinutes: 30 });
    w.sessions.set('ses1', past);
    const result = await w.run(past, 'invitation');
    expect(result.counts).toMatchObject({ ended: 1 });
    expect(w.queued).toEqual([]);
  });

  it('the reminder: each active learner once, with the join link and never the host link; a start since moved stops it', async () => {
    const w = setup([learner(1), learner(2, false), learner(3)]);
    w.sessions.set('ses1', session());
    await w.run(session(), 'reminder');
    await w.run(session(), 'reminder');
    expect(recipients(w.queued)).toEqual(['l1@example.com', 'l3@example.com']);
    const mail = w.queued[0]!;
    expect(mail.subject).toBe('A live session starts in an hour');
    expect(mail.text).toContain('Join: https://meet.example/j/1');
    expect(mail.text + mail.html).not.toContain('https://meet.example/s/1');
    const moved = session({ startsAt: '2026-11-22T20:00:00.000Z', sequence: 1 });
    w.sessions.set('ses1', moved);
    expect((await w.run(session(), 'reminder')).counts).toMatchObject({ superseded: 1 });
    await w.run(moved, 'reminder');
    expect(w.queued).toHaveLength(4);
  });
});

describe('the email', () => {
  it('gives the course, the time in UTC and the creator\'s time zone, the duration, and the join link', () => {
    const email = sessionEmail(session(), 'Knife skills', { kind: 'invitation', sequence: 0 }, { organizer: { name: 'Course Platform', email: 'no-reply@example.com' }, uidDomain: 'courses.example' });
    expect(email.text).toContain('Course: Knife skills');
    expect(email.text).toMatch(/^When: Sunday,? 22 November 2026 at 18:00 UTC \(Sunday,? 22 November 2026 at 13:00 [^,]+, America\/New_York\)$/m);
    expect(email.text).toContain('Duration: 1 hour 30 minutes');
    expect(email.text).toContain('Join: https://meet.example/j/1');
    expect(email.html).toContain('href="https://meet.example/j/1"');
    expect(email.text + email.html).not.toContain('meet.example/s/');
  });
});

describe('a learner enrolling later', () => {
  it('is invited to each upcoming session once, and to no cancelled or past one', async () => {
    const w = setup([]);
    w.sessions.set('ses1', session());
    w.sessions.set('ses2', session({ id: 'ses2', startsAt: '2026-11-25T18:00:00.000Z', sequence: 2 }));
    w.sessions.set('ses3', session({ id: 'ses3', status: 'cancelled', sequence: 1 }));
    w.sessions.set('ses4', session({ id: 'ses4', startsAt: '2026-11-20T18:00:00.000Z' }));
    const enrolment = { courseId: 'course-1', learnerId: 'l9', email: 'l9@example.com' };
    expect(await inviteLateEnrolee(w.deps, enrolment)).toBe(2);
    // The stream's batch delivered again: nothing twice.
    expect(await inviteLateEnrolee(w.deps, enrolment)).toBe(0);
    expect(w.queued.map((m) => m.subject)).toEqual(['You are invited to a live session', 'A live session has changed']);
    expect(ics(w.queued[1]!)?.content).toMatch(/SEQUENCE:2/);
  });
});

describe("a branded creator's session emails (issue 32)", () => {
  const logo = `<img src="${CLAY_SCHOOL.logoUrl}" alt="Clay &amp; Kiln"`;

  it("come from the school, its logo on top, for the course's learners and a learner enrolling later", async () => {
    const w = setup([learner(1)]);
    w.brand('c1');
    w.sessions.set('ses1', session());
    await w.run(session(), 'invitation');
    await inviteLateEnrolee(w.deps, { courseId: 'course-1', learnerId: 'l9', email: 'l9@example.com' });
    expect(w.queued.map((m) => [m.to, m.fromName])).toEqual([
      ['l1@example.com', 'Clay & Kiln'],
      ['l9@example.com', 'Clay & Kiln'],
    ]);
    for (const mail of w.queued) expect(mail.html).toContain(logo);
    expect(w.queued[0]!.text.startsWith('Clay & Kiln: you are invited to a live session of your course.')).toBe(true);
    expect(ics(w.queued[0]!)?.contentType).toBe('text/calendar; method=REQUEST');
  });

  it("are the platform's without branding in force", async () => {
    const w = setup([learner(1)]);
    w.brand('another-creator');
    w.sessions.set('ses1', session());
    await w.run(session(), 'reminder');
    expect(w.queued).toHaveLength(1);
    expect(w.queued[0]).not.toHaveProperty('fromName');
    expect(w.queued[0]!.html).not.toContain('<img');
    expect(w.queued[0]!.text.startsWith('Course Platform: a live session of your course starts in an hour.')).toBe(true);
  });
});
