import { describe, expect, it } from 'vitest';
import { ConflictError, NoSeatsLeftError, NotFoundError, ValidationError } from '#core/errors.ts';
import { LICENSE_ENDED_ACCESS, reachableCourse } from '#core/enrollments/learner-courses.ts';
import { assignSeat, BULK_IS_PRO, importMembers, EXPIRY_IS_PRO, seatsOverStarter, courseLicenses, endExpiredLicenses, EXPORT_PAGE, exportReport, grantLicense, leaderReport, leaderSummaryOf, REPORT_CSV_HEADER, reportCsv, updateLicense, leaderLicenses, licenseMembers, NOT_A_LEADER, NOT_A_LEARNER, revokeSeat } from '#core/licenses/licenses.ts';
import { NOW } from '#test/functions/fakes/clock.ts';
import { creator } from '#test/functions/fakes/deps.ts';
import { grant, leaderOf, licenseWorld as world, type LicenseWorld } from '#test/functions/fakes/license-world.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { runSliced } from '#test/functions/fakes/sliced-run.ts';

/** A whole run of the daily expiry job, its slices on the memory queue: what it ended. */
const expire = async (d: LicenseWorld) => (await runToEnd('license-expiry', () => endExpiredLicenses(d))).counts;

const DAY = 86_400_000;

describe('granting a licence', () => {
  it("makes the leader's account, invites them with the course and seats, and lists the licence for the creator and the leader", async () => {
    const d = world();
    const license = await grant(d, { seats: 5 });
    expect(license).toMatchObject({ courseId: 'c1', courseTitle: 'Knife skills', leaderEmail: 'lead@example.com', seatsTotal: 5, seatsUsed: 0, status: 'active', source: 'granted', expiresAt: null });
    expect((await d.users.getUser(await leaderOf(d)))?.role).toBe('leader');
    expect(d.mailer.sent[0]).toMatchObject({ to: 'lead@example.com', subject: 'You lead a team on Course Platform' });
    expect(d.mailer.sent[0]!.text).toContain('5 seats');
    expect((await courseLicenses(d, { creatorId: 'u1', courseId: 'c1' })).items.map((l) => l.id)).toEqual([license.id]);
    expect((await leaderLicenses(d, { leaderId: await leaderOf(d) })).items.map((l) => l.id)).toEqual([license.id]);
  });

  it("refuses another creator's course (404), a past end date (400) and an email of another role (409)", async () => {
    const d = world([creator(), creator({ id: 'u9', email: 'learner@example.com', role: 'learner' })]);
    await expect(grantLicense(d, { creatorId: 'u1', courseId: 'c2', body: { leaderEmail: 'x@example.com', seats: 1 } })).rejects.toThrow(NotFoundError);
    await expect(courseLicenses(d, { creatorId: 'u1', courseId: 'c2' })).rejects.toThrow(NotFoundError);
    await expect(grant(d, { expiresAt: '2020-01-01T00:00:00.000Z' })).rejects.toThrow(ValidationError);
    await expect(grant(d, { leaderEmail: 'learner@example.com' })).rejects.toThrow(new ConflictError(NOT_A_LEADER));
  });
});

describe("a branded creator's licences (issue 32)", () => {
  const logo = '<img src="https://app.example/api/public/schools/u1/logo?v=logo-1" alt="Clay &amp; Kiln"';

  it('the leader is invited by the school, and so is each learner the leader seats, one by one or imported', async () => {
    const d = world();
    d.brand('u1');
    const license = await grant(d, { seats: 3 });
    const leaderId = await leaderOf(d);
    await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' });
    await importMembers(d, { leaderId, licenseId: license.id, emails: ['bob@example.com'] });
    expect(d.mailer.sent.map((m) => [m.to, m.fromName])).toEqual([
      ['lead@example.com', 'Clay & Kiln'],
      ['ann@example.com', 'Clay & Kiln'],
      ['bob@example.com', 'Clay & Kiln'],
    ]);
    for (const mail of d.mailer.sent) expect(mail.html).toContain(logo);
    expect(d.mailer.sent[0]!.text.startsWith('Clay & Kiln: you are the group leader of a team licence')).toBe(true);
    expect(d.mailer.sent[1]!.text.startsWith('Clay & Kiln: you are enrolled in the course "Knife skills".')).toBe(true);
  });

  it('another creator\'s school is not theirs: the platform invites, as before', async () => {
    const d = world();
    d.brand('u2');
    const license = await grant(d);
    await assignSeat(d, { leaderId: await leaderOf(d), licenseId: license.id, email: 'ann@example.com' });
    expect(d.mailer.sent).toHaveLength(2);
    for (const mail of d.mailer.sent) {
      expect(mail).not.toHaveProperty('fromName');
      expect(mail.html).not.toContain('<img');
      expect(mail.text.startsWith('Course Platform: ')).toBe(true);
    }
  });
});

describe("licence terms by the creator's plan (issue 29 point 5)", () => {
  const planRequired = (requiredPlan: 'starter' | 'pro', message?: string) => ({ code: 'PLAN_REQUIRED', details: { requiredPlan }, ...(message ? { message } : {}) });

  it('Starter grants up to 10 seats with no end date; more seats or an end date is Pro, saying why, and nothing is made', async () => {
    const d = world(undefined, { u1: 'starter' });
    expect(await grant(d, { seats: 10 })).toMatchObject({ seatsTotal: 10, expiresAt: null });
    const accounts = d.directory.accounts.size;
    await expect(grant(d, { seats: 11, leaderEmail: 'big@example.com' })).rejects.toMatchObject(planRequired('pro', seatsOverStarter(10)));
    await expect(grant(d, { seats: 5, leaderEmail: 'dated@example.com', expiresAt: '2027-06-30T23:59:59.000Z' })).rejects.toMatchObject(planRequired('pro', EXPIRY_IS_PRO));
    expect(d.directory.accounts.size, 'no leader invited for a refused grant').toBe(accounts);
  });

  it('Pro grants any size with an end date; a creator without a plan grants nothing (Starter required)', async () => {
    const d = world();
    expect(await grant(d, { seats: 5000, expiresAt: '2027-06-30T23:59:59.000Z' })).toMatchObject({ seatsTotal: 5000, expiresAt: '2027-06-30T23:59:59.000Z' });
    d.setPlan('u1', 'none');
    await expect(grant(d, { seats: 1, leaderEmail: 'other@example.com' })).rejects.toMatchObject(planRequired('starter'));
  });

  it('on Starter an update may not raise a licence past 10 seats nor set an end date; lowering, removing the end date and ending stay open', async () => {
    const d = world();
    const big = await grant(d, { seats: 50, expiresAt: '2027-06-30T23:59:59.000Z' });
    d.setPlan('u1', 'starter');
    const change = (body: Parameters<typeof updateLicense>[1]['body']) => updateLicense(d, { creatorId: 'u1', courseId: 'c1', licenseId: big.id, body });
    await expect(change({ seatsTotal: 60 })).rejects.toMatchObject(planRequired('pro', seatsOverStarter(10)));
    await expect(change({ expiresAt: '2027-12-31T23:59:59.000Z' })).rejects.toMatchObject(planRequired('pro', EXPIRY_IS_PRO));
    expect(await change({ seatsTotal: 40 })).toMatchObject({ seatsTotal: 40 });
    expect(await change({ expiresAt: null })).toMatchObject({ expiresAt: null });
    expect(await change({ status: 'ended' })).toMatchObject({ status: 'ended' });
  });

  it("a leader's import of members works on a Pro creator's licence only (the creator's plan, not the leader's), each email answered", async () => {
    const d = world(undefined, { u1: 'starter' });
    const license = await grant(d, { seats: 2 });
    const leaderId = await leaderOf(d);
    const emails = ['ann@example.com', 'bob@example.com'];
    await expect(importMembers(d, { leaderId, licenseId: license.id, emails })).rejects.toMatchObject(planRequired('pro', BULK_IS_PRO));
    expect((await d.licenses.get(license.id))?.seatsUsed, 'nothing assigned').toBe(0);
    // One by one works on every licence.
    expect(await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' })).toEqual({ email: 'ann@example.com', status: 'active' });
    d.setPlan('u1', 'pro');
    expect(await importMembers(d, { leaderId, licenseId: license.id, emails: [...emails, 'cy@example.com'] })).toEqual({
      results: [
        { email: 'ann@example.com', status: 'active' },
        { email: 'bob@example.com', status: 'active' },
        { email: 'cy@example.com', error: { code: 'NO_SEATS_LEFT', message: expect.any(String) } },
      ],
    });
    expect((await d.licenses.get(license.id))?.seatsUsed).toBe(2);
    await expect(importMembers(d, { leaderId: 'someone-else', licenseId: license.id, emails })).rejects.toThrow(NotFoundError);
  });

  it("the leader's list says per licence whether its creator's plan allows the import (a Pro and a Starter creator on one page), one plan read per creator", async () => {
    const d = world([creator(), creator({ id: 'u2', email: 'other-creator@example.com' })], { u2: 'starter' });
    const pro = await grant(d, { seats: 3 });
    const proAgain = await grant(d, { seats: 4 });
    const starter = await grantLicense(d, { creatorId: 'u2', courseId: 'c2', body: { leaderEmail: 'lead@example.com', seats: 5 } });
    const reads: string[] = [];
    const billing = { getSubscription: (creatorId: string) => (reads.push(creatorId), d.billing.getSubscription(creatorId)) };
    const listed = await leaderLicenses({ ...d, billing }, { leaderId: await leaderOf(d) });
    expect(Object.fromEntries(listed.items.map((l) => [l.id, l.bulkMembers]))).toEqual({ [pro.id]: true, [proAgain.id]: true, [starter.id]: false });
    expect(reads.sort()).toEqual(['u1', 'u2']);
    d.setPlan('u1', 'starter');
    expect((await leaderLicenses(d, { leaderId: await leaderOf(d) })).items.every((l) => l.bulkMembers === false), 'a downgrade locks the import').toBe(true);
  });

  it('a downgrade from Pro to Starter keeps an existing 50-seat licence working: its leader still fills seats past 10', async () => {
    const d = world();
    const license = await grant(d, { seats: 50 });
    d.setPlan('u1', 'starter');
    const leaderId = await leaderOf(d);
    for (let i = 0; i < 12; i++) await assignSeat(d, { leaderId, licenseId: license.id, email: `m${i}@example.com` });
    expect((await d.licenses.get(license.id))?.seatsUsed).toBe(12);
  });
});

describe('seats', () => {
  it('a leader assigns seats by email (new learners invited and enrolled) until none is left: 409 NO_SEATS_LEFT', async () => {
    const d = world();
    const license = await grant(d, { seats: 2 });
    const leaderId = await leaderOf(d);
    expect(await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' })).toEqual({ email: 'ann@example.com', status: 'active' });
    await assignSeat(d, { leaderId, licenseId: license.id, email: 'bob@example.com' });
    await expect(assignSeat(d, { leaderId, licenseId: license.id, email: 'cy@example.com' })).rejects.toThrow(NoSeatsLeftError);
    expect((await d.licenses.get(license.id))?.seatsUsed).toBe(2);
    const ann = await leaderOf(d, 'ann@example.com');
    expect((await d.enrollments.get('c1', ann))?.status).toBe('active');
    expect(d.mailer.sent.map((m) => [m.to, m.subject])).toContainEqual(['ann@example.com', "You're invited to a course on Course Platform"]);
    // The same email again takes no second seat.
    expect(await assignSeat(d, { leaderId, licenseId: license.id, email: 'ANN@example.com' })).toEqual({ email: 'ann@example.com', status: 'active' });
    expect((await d.licenses.get(license.id))?.seatsUsed).toBe(2);
  });

  it('checks for a free seat before it makes an account or sends anything (issue 27): a full licence leaves a new email untouched', async () => {
    const d = world();
    const license = await grant(d, { seats: 1 });
    const leaderId = await leaderOf(d);
    await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' });
    const [accounts, mails] = [d.directory.accounts.size, d.mailer.sent.length];
    await expect(assignSeat(d, { leaderId, licenseId: license.id, email: 'new@example.com' })).rejects.toThrow(NoSeatsLeftError);
    expect(d.directory.accounts.has('new@example.com')).toBe(false);
    expect(await d.users.getUserIdByEmail('new@example.com')).toBeUndefined();
    expect([d.directory.accounts.size, d.mailer.sent.length]).toEqual([accounts, mails]);
    // The member who holds the seat still gets the same answer.
    expect(await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' })).toEqual({ email: 'ann@example.com', status: 'active' });
  });

  it('revoking frees the seat and ends access; the learner assigned again picks up their progress', async () => {
    const d = world();
    const license = await grant(d, { seats: 1 });
    const leaderId = await leaderOf(d);
    await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' });
    const ann = await leaderOf(d, 'ann@example.com');
    await d.enrollments.completeLesson({ courseId: 'c1', learnerId: ann, creatorId: 'u1', lessonId: 'l1', seenCount: 0, progress: 50, at: NOW, day: NOW.slice(0, 10) });
    await revokeSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' });
    expect((await d.enrollments.get('c1', ann))?.status).toBe('removed');
    expect((await d.licenses.get(license.id))?.seatsUsed).toBe(0);
    expect((await licenseMembers(d, { leaderId, licenseId: license.id })).items).toEqual([expect.objectContaining({ email: 'ann@example.com', status: 'revoked' })]);
    await expect(revokeSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' })).rejects.toThrow(NotFoundError);

    await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' });
    expect(await d.enrollments.get('c1', ann)).toMatchObject({ status: 'active', progress: 50 });
    expect((await licenseMembers(d, { leaderId, licenseId: license.id })).items).toEqual([expect.objectContaining({ email: 'ann@example.com', status: 'active', progress: 50 })]);
  });

  it('a licence past its end date gives no more seats; an account of another role or a learner who has the course already takes none', async () => {
    const d = world([creator(), creator({ id: 'u7', email: 'boss@example.com', role: 'creator' })]);
    const license = await grant(d, { seats: 5, expiresAt: new Date(Date.parse(NOW) + DAY).toISOString() });
    const leaderId = await leaderOf(d);
    await expect(assignSeat(d, { leaderId, licenseId: license.id, email: 'boss@example.com' })).rejects.toThrow(new ConflictError(NOT_A_LEARNER));
    await d.users.createUser({ id: 'u8', email: 'own@example.com', role: 'learner', createdAt: NOW });
    await d.enrollments.enroll({ courseId: 'c1', learnerId: 'u8', creatorId: 'u1', learnerEmail: 'own@example.com', learnerJoinedAt: NOW, courseTitle: 'Knife skills', enrolledAt: NOW });
    await expect(assignSeat(d, { leaderId, licenseId: license.id, email: 'own@example.com' })).rejects.toThrow(ConflictError);
    d.clock.advance(DAY + 1);
    await expect(assignSeat(d, { leaderId, licenseId: license.id, email: 'late@example.com' })).rejects.toThrow(ConflictError);
    expect((await d.licenses.get(license.id))?.seatsUsed).toBe(0);
  });

  it("is the leader's own business: another leader's licence is 404 on every seat route", async () => {
    const d = world();
    const license = await grant(d);
    await grant(d, { leaderEmail: 'other@example.com' });
    const other = await leaderOf(d, 'other@example.com');
    await expect(assignSeat(d, { leaderId: other, licenseId: license.id, email: 'x@example.com' })).rejects.toThrow(NotFoundError);
    await expect(revokeSeat(d, { leaderId: other, licenseId: license.id, email: 'x@example.com' })).rejects.toThrow(NotFoundError);
    await expect(licenseMembers(d, { leaderId: other, licenseId: license.id })).rejects.toThrow(NotFoundError);
    expect((await leaderLicenses(d, { leaderId: other })).items.map((l) => l.id)).not.toContain(license.id);
  });

  it("a big licence's members come a page at a time: active first, each by email, every seat once, a made-up cursor 400", async () => {
    const d = world();
    const license = await grant(d, { seats: 300 });
    const leaderId = await leaderOf(d);
    const emails = Array.from({ length: 230 }, (_, i) => `m${String(i).padStart(3, '0')}@example.com`);
    for (const [i, email] of emails.entries()) {
      expect(await d.licenses.assign({ licenseId: license.id, email, learnerId: `l${i}`, status: 'active', assignedAt: NOW })).toBe('assigned');
    }
    // Every third seat revoked: the filter drops seats inside each read.
    const revoked = emails.filter((_, i) => i % 3 === 0);
    for (const email of revoked) await d.licenses.revoke(license.id, email, NOW);
    const pages: { email: string; status: string }[][] = [];
    let cursor: string | undefined;
    do {
      const page = await licenseMembers(d, { leaderId, licenseId: license.id, cursor, limit: 50 });
      pages.push(page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([50, 50, 50, 50, 30]);
    const active = emails.filter((_, i) => i % 3 !== 0);
    expect(pages.flat().map((m) => m.email)).toEqual([...active, ...revoked]);
    expect(pages.flat().map((m) => m.status)).toEqual([...active.map(() => 'active'), ...revoked.map(() => 'revoked')]);
    await expect(licenseMembers(d, { leaderId, licenseId: license.id, cursor: 'made-up' })).rejects.toThrow(ValidationError);
  });

  it('the daily job ends a licence past its end date: its members lose the course (progress kept), once however often it runs', async () => {
    const d = world();
    const license = await grant(d, { seats: 3, expiresAt: new Date(Date.parse(NOW) + DAY).toISOString() });
    const lasting = await grant(d, { seats: 3 });
    const leaderId = await leaderOf(d);
    await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' });
    const ann = await leaderOf(d, 'ann@example.com');
    expect(await expire(d)).toEqual({ ended: 0, seats: 0, lanes: 0 });
    d.clock.advance(DAY);
    expect(await expire(d)).toEqual({ ended: 1, seats: 1, lanes: 0 });
    expect(await expire(d)).toEqual({ ended: 0, seats: 0, lanes: 0 });
    expect((await d.licenses.get(license.id))?.status).toBe('ended');
    expect((await d.licenses.get(lasting.id))?.status).toBe('active');
    expect((await d.enrollments.get('c1', ann))?.status).toBe('removed');
  });

  it('the creator adds seats, never below those in use, moves the end date, or ends the licence now (its members lose the course)', async () => {
    const d = world();
    const license = await grant(d, { seats: 1 });
    const leaderId = await leaderOf(d);
    await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' });
    const change = (body: Parameters<typeof updateLicense>[1]['body'], creatorId = 'u1') => updateLicense(d, { creatorId, courseId: 'c1', licenseId: license.id, body });
    expect(await change({ seatsTotal: 3 })).toMatchObject({ seatsTotal: 3, seatsUsed: 1 });
    await assignSeat(d, { leaderId, licenseId: license.id, email: 'bob@example.com' });
    await expect(change({ seatsTotal: 1 })).rejects.toThrow(ConflictError);
    expect(await change({ expiresAt: '2027-06-30T23:59:59.000Z' })).toMatchObject({ expiresAt: '2027-06-30T23:59:59.000Z' });
    await expect(change({ expiresAt: '2020-01-01T00:00:00.000Z' })).rejects.toThrow(ValidationError);
    await expect(change({ seatsTotal: 5 }, 'u2')).rejects.toThrow(NotFoundError);
    expect(await change({ status: 'ended' })).toMatchObject({ status: 'ended' });
    expect((await d.enrollments.get('c1', await leaderOf(d, 'ann@example.com')))?.status).toBe('removed');
    await expect(change({ seatsTotal: 9 })).rejects.toThrow(ConflictError);
  });

  it("the leader's summary counts the members of licences that give access and how many completed", async () => {
    const d = world();
    const leaderId = await leaderOf(d, (await grant(d, { seats: 4 })).leaderEmail);
    const [license] = (await leaderLicenses(d, { leaderId })).items;
    expect(await leaderSummaryOf(d, leaderId)).toEqual({ members: 0, activeLicenses: 1, seatsTotal: 4, completionRate: null, completed: 0, certificates: 0, groups: 0, recent: [] });
    for (const email of ['ann@example.com', 'bob@example.com', 'cy@example.com']) await assignSeat(d, { leaderId, licenseId: license!.id, email });
    const ann = await leaderOf(d, 'ann@example.com');
    await d.enrollments.completeLesson({ courseId: 'c1', learnerId: ann, creatorId: 'u1', lessonId: 'l1', seenCount: 0, progress: 100, at: NOW, day: NOW.slice(0, 10), completedAt: NOW });
    const summary = await leaderSummaryOf(d, leaderId);
    expect(summary).toMatchObject({ members: 3, activeLicenses: 1, seatsTotal: 4, completionRate: 33, completed: 1, certificates: 0, groups: 1 });
    // The most recently active first (Ann, who completed), then the others by email.
    expect(summary.recent.map((m) => [m.email, m.progress])).toEqual([['ann@example.com', 100], ['bob@example.com', 0], ['cy@example.com', 0]]);
  });

  it("the leader's report lists each member of their licences with progress, as JSON and as a CSV a spreadsheet cannot run", async () => {
    const d = world();
    const license = await grant(d, { seats: 3 });
    const leaderId = await leaderOf(d);
    await assignSeat(d, { leaderId, licenseId: license.id, email: 'bob@example.com' });
    await assignSeat(d, { leaderId, licenseId: license.id, email: '=cmd@example.com' });
    const bob = await leaderOf(d, 'bob@example.com');
    d.clock.advance(DAY);
    await d.enrollments.completeLesson({ courseId: 'c1', learnerId: bob, creatorId: 'u1', lessonId: 'l1', seenCount: 0, progress: 50, at: d.clock.now().toISOString(), day: '2026-11-22' });
    const report = await leaderReport(d, { leaderId, limit: Infinity });
    expect(report.items).toEqual([
      expect.objectContaining({ email: '=cmd@example.com', courseTitle: 'Knife skills', status: 'active', progress: 0, lastActivity: null }),
      expect.objectContaining({ email: 'bob@example.com', status: 'active', progress: 50, lastActivity: d.clock.now().toISOString(), certificate: null }),
    ]);
    expect(reportCsv(report.items).split('\n')).toEqual([
      REPORT_CSV_HEADER,
      `'=cmd@example.com,Knife skills,${license.id},active,0,,,`,
      `bob@example.com,Knife skills,${license.id},active,50,${d.clock.now().toISOString()},,`,
      '',
    ]);
    await grant(d, { leaderEmail: 'other@example.com' });
    await expect(leaderReport(d, { leaderId: await leaderOf(d, 'other@example.com'), licenseId: license.id, limit: 50 })).rejects.toThrow(NotFoundError);
  });

  it('exports the report a page at a time: the CSV of every row, written as it is read, answered as a link', async () => {
    const d = world();
    const members = 2 * EXPORT_PAGE + 5;
    const license = await grant(d, { seats: members });
    const leaderId = await leaderOf(d);
    for (let i = 0; i < members; i++) await assignSeat(d, { leaderId, licenseId: license.id, email: `m${String(i).padStart(5, '0')}@example.com` });
    const chunks: string[] = [];
    const started: { key: string; fileName: string }[] = [];
    let finished = false;
    const exports = {
      start: async (key: string, input: { contentType: string; fileName: string }) => {
        started.push({ key, fileName: input.fileName });
        return {
          write: async (chunk: string) => void chunks.push(chunk),
          finish: async () => ((finished = true), { url: `https://files.example/exports/${key}`, expiresAt: NOW }),
          abort: async () => undefined,
        };
      },
    };
    const answer = await exportReport({ ...d, exports }, { leaderId });
    expect(answer).toEqual({ url: expect.stringContaining(`leader-reports/${leaderId}/`), expiresAt: NOW, rows: members });
    expect(started).toEqual([{ key: expect.stringMatching(new RegExp(`^leader-reports/${leaderId}/.+\\.csv$`)), fileName: 'team-report.csv' }]);
    expect(finished).toBe(true);
    // Three pages, three writes: no write holds more than one page of rows.
    expect(chunks.map((c) => c.split('\n').length - 1)).toEqual([EXPORT_PAGE + 1, EXPORT_PAGE, 5]);
    const lines = chunks.join('').trim().split('\n');
    expect(lines[0]).toBe(REPORT_CSV_HEADER);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(Array.from({ length: members }, (_, i) => `m${String(i).padStart(5, '0')}@example.com`));
  }, 60_000);

  it('gives an export up when a page fails halfway', async () => {
    const d = world();
    const license = await grant(d, { seats: 2 });
    const leaderId = await leaderOf(d);
    await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' });
    let aborted = false;
    const exports = {
      start: async () => ({
        write: async () => {
          throw new Error('S3 is down');
        },
        finish: async () => ({ url: 'https://x', expiresAt: NOW }),
        abort: async () => void (aborted = true),
      }),
    };
    await expect(exportReport({ ...d, exports }, { leaderId })).rejects.toThrow('S3 is down');
    expect(aborted).toBe(true);
  });

  it('the report pages through every licence in order, each row once, and filters by seat status, progress and part of an email', async () => {
    const d = world();
    const older = await grant(d, { seats: 5 });
    d.clock.advance(1000);
    const newer = await grant(d, { seats: 3 });
    const leaderId = await leaderOf(d);
    for (const name of ['eve', 'dan', 'cat', 'bea', 'al']) await assignSeat(d, { leaderId, licenseId: older.id, email: `${name}@example.com` });
    for (const name of ['zed', 'yan', 'xi']) await assignSeat(d, { leaderId, licenseId: newer.id, email: `${name}@team.example.com` });
    await revokeSeat(d, { leaderId, licenseId: older.id, email: 'cat@example.com' });
    const bea = await leaderOf(d, 'bea@example.com');
    const xi = await leaderOf(d, 'xi@team.example.com');
    await d.enrollments.completeLesson({ courseId: 'c1', learnerId: bea, creatorId: 'u1', lessonId: 'l1', seenCount: 0, progress: 100, at: NOW, day: NOW.slice(0, 10), completedAt: NOW });
    await d.enrollments.completeLesson({ courseId: 'c1', learnerId: xi, creatorId: 'u1', lessonId: 'l1', seenCount: 0, progress: 50, at: NOW, day: NOW.slice(0, 10) });

    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await leaderReport(d, { leaderId, limit: 3, cursor });
      pages.push(page.items.map((r) => r.email.split('@')[0]!));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    // Newest licence first, members by email; the last page is full and says no more.
    expect(pages).toEqual([['xi', 'yan', 'zed'], ['al', 'bea', 'cat'], ['dan', 'eve']]);

    const names = async (filters: Partial<Parameters<typeof leaderReport>[1]>) =>
      (await leaderReport(d, { leaderId, limit: 50, ...filters })).items.map((r) => r.email.split('@')[0]);
    expect(await names({ status: 'revoked' })).toEqual(['cat']);
    expect(await names({ progress: 'completed' })).toEqual(['bea']);
    expect(await names({ progress: 'in-progress' })).toEqual(['xi']);
    expect(await names({ progress: 'not-started', status: 'active' })).toEqual(['yan', 'zed', 'al', 'dan', 'eve']);
    expect(await names({ q: 'TEAM' })).toEqual(['xi', 'yan', 'zed']);
    expect(await names({ licenseId: older.id, q: 'a@' })).toEqual(['bea']);
    // A filtered page fills up across licences and carries on where it stopped.
    const first = await leaderReport(d, { leaderId, limit: 2, status: 'active', progress: 'not-started' });
    expect(first.items.map((r) => r.email.split('@')[0])).toEqual(['yan', 'zed']);
    const second = await leaderReport(d, { leaderId, limit: 2, status: 'active', progress: 'not-started', cursor: first.nextCursor! });
    expect(second.items.map((r) => r.email.split('@')[0])).toEqual(['al', 'dan']);
    await expect(leaderReport(d, { leaderId, limit: 2, cursor: 'not-a-cursor' })).rejects.toThrow(ValidationError);
    // Another leader's cursor names a licence that is not theirs: refused, nothing read.
    await grant(d, { leaderEmail: 'other@example.com' });
    await expect(leaderReport(d, { leaderId: await leaderOf(d, 'other@example.com'), limit: 2, cursor: first.nextCursor! })).rejects.toThrow(ValidationError);
  });
});

describe('access through a seat', () => {
  it('ends the moment the licence passes its end date, before the daily job; the learner of their own enrolment is not affected', async () => {
    const d = world();
    const license = await grant(d, { seats: 2, expiresAt: new Date(Date.parse(NOW) + DAY).toISOString() });
    const leaderId = await leaderOf(d);
    await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' });
    const ann = await leaderOf(d, 'ann@example.com');
    expect((await reachableCourse(d, ann, 'c1')).enrollment.licenseId).toBe(license.id);
    d.clock.advance(DAY + 1);
    await expect(reachableCourse(d, ann, 'c1')).rejects.toThrow(LICENSE_ENDED_ACCESS);
    // A learner enrolled by the creator (no licence) keeps the course, also after a seat of theirs was revoked.
    await d.enrollments.enroll({ courseId: 'c1', learnerId: 'own', creatorId: 'u1', learnerEmail: 'own@example.com', learnerJoinedAt: NOW, courseTitle: 'Knife skills', enrolledAt: NOW });
    expect((await reachableCourse(d, 'own', 'c1')).enrollment.licenseId).toBeUndefined();
  });

  it('a learner whose seat was revoked and who then enrols on their own no longer depends on the licence', async () => {
    const d = world();
    const license = await grant(d, { seats: 1 });
    const leaderId = await leaderOf(d);
    await assignSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' });
    const ann = await leaderOf(d, 'ann@example.com');
    await revokeSeat(d, { leaderId, licenseId: license.id, email: 'ann@example.com' });
    await d.enrollments.enroll({ courseId: 'c1', learnerId: ann, creatorId: 'u1', learnerEmail: 'ann@example.com', learnerJoinedAt: NOW, courseTitle: 'Knife skills', enrolledAt: NOW });
    await updateLicense(d, { creatorId: 'u1', courseId: 'c1', licenseId: license.id, body: { status: 'ended' } });
    expect((await reachableCourse(d, ann, 'c1')).enrollment.licenseId).toBeUndefined();
  });
});

describe('the licence expiry job in slices (issue 28)', () => {
  /** Licences due at NOW: one of `big` seats and `small` of 3 seats each (learners enrolled through them), and one not due. */
  const expiring = async (big: number, small: number) => {
    const d = world();
    const removed = new Map<string, number>();
    const remove = d.enrollments.remove.bind(d.enrollments);
    d.enrollments.remove = async (courseId, learnerId) => {
      const outcome = await remove(courseId, learnerId);
      if (outcome === 'removed') removed.set(learnerId, (removed.get(learnerId) ?? 0) + 1);
      return outcome;
    };
    const seated: string[] = [];
    const add = async (id: string, seats: number, expiresAt: string | null) => {
      await d.licenses.create({ id, courseId: 'c1', courseTitle: 'Knife skills', creatorId: 'u1', leaderId: 'lead', leaderEmail: 'lead@example.com', seatsTotal: seats, seatsUsed: 0, expiresAt, status: 'active', source: 'granted', orderId: null, createdAt: NOW });
      for (let i = 0; i < seats; i++) {
        const learnerId = `${id}-l${i}`;
        await d.licenses.assign({ licenseId: id, email: `${learnerId}@example.com`, learnerId, status: 'active', assignedAt: NOW });
        await d.enrollments.enroll({ courseId: 'c1', learnerId, creatorId: 'u1', learnerEmail: `${learnerId}@example.com`, learnerJoinedAt: NOW, courseTitle: 'Knife skills', enrolledAt: NOW, licenseId: id });
        seated.push(learnerId);
      }
    };
    await add('big', big, '2026-11-01T00:00:00.000Z');
    for (let n = 0; n < small; n++) await add(`small${String(n).padStart(2, '0')}`, 3, `2026-11-0${1 + (n % 5)}T00:00:00.000Z`);
    await add('later', 2, '2099-01-01T00:00:00.000Z');
    return { d, removed, seated };
  };

  it('ends a licence of 450 seats in its own lane while the small ones go on, each seat once, a killed slice included', async () => {
    const { d, removed, seated } = await expiring(450, 40);
    const run = await runSliced('license-expiry', () => endExpiredLicenses(d), { itemsPerSlice: 25, kill: { seq: 2, afterChecks: 10, lanes: (lane) => lane === 'main.big' } });
    expect(run.kills).toBe(1);
    expect([...run.lanes]).toEqual(expect.arrayContaining(['main', 'main.big']));
    expect(run.slices).toBeGreaterThan(20);
    const due = seated.filter((l) => !l.startsWith('later'));
    expect(removed.size).toBe(due.length);
    expect([...removed.values()].every((n) => n === 1)).toBe(true);
    for (const id of ['big', 'small00', 'small39']) expect((await d.licenses.get(id))?.status).toBe('ended');
    expect((await d.licenses.get('later'))?.status).toBe('active');
    expect((await d.enrollments.get('c1', 'later-l0'))?.status).toBe('active');
  });

  it('ends the big licence only once its last seat is done, and the small ones are not held up behind it', async () => {
    const { d } = await expiring(450, 5);
    const order: string[] = [];
    const end = d.licenses.end.bind(d.licenses);
    d.licenses.end = async (id, at) => {
      order.push(id);
      expect((await d.enrollments.get('c1', `${id}-l${id === 'big' ? 449 : 2}`))?.status).toBe('removed');
      return end(id, at);
    };
    await runSliced('license-expiry', () => endExpiredLicenses(d), { itemsPerSlice: 30 });
    expect(order.at(-1)).toBe('big');
    expect(order).toHaveLength(6);
  });

  it('hands a small licence whose seats did not fit the slice to a lane, from the seat it stopped at', async () => {
    const { d, removed } = await expiring(0, 3);
    const run = await runSliced('license-expiry', () => endExpiredLicenses(d), { itemsPerSlice: 2, kill: { seq: 0, afterChecks: 1 } });
    expect(run.lanes.size).toBeGreaterThan(1);
    expect(removed.size).toBe(9);
    expect([...removed.values()].every((n) => n === 1)).toBe(true);
  });
});
