import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { kmsSigner } from '#adapters/kms-signer.ts';
import {
  certificateEmail,
  REISSUED_REASON,
  courseCertificates,
  issueDueCertificates,
  issuerProfile,
  learnerCertificates,
  publishStatusLists,
  publicCertificate,
  revokeCertificate,
  statusListCredential,
  verifyHeldCredential,
} from '#core/certificates/certificates.ts';
import { isSetInStatusList } from '#core/certificates/credentials.ts';
import { runToEnd } from '../../functions/fakes/slice-queue.ts';
import { NotFoundError } from '#core/errors.ts';
import type { StoredCertificate, StoredCourse } from '#core/ports.ts';
import { certificateKeys, dynamoCertificates } from '#data/certificates.ts';
import { dynamoMailQueue, mailQueueKey } from '#data/mail-queue.ts';
import { dynamoLearnerProfiles } from '#data/learner-profiles.ts';
import { enrollmentKeys } from '#data/enrollments.ts';
import { decodeJwt } from 'jose';
import { memoryCourseReader, memoryEnrollments } from '#test/functions/fakes/enrollments.ts';
import { memoryLearnerProfiles } from '#test/functions/fakes/learner-profiles.ts';
import { memoryLicenses } from '#test/functions/fakes/licenses.ts';
import { memoryPublicProfiles } from '#test/functions/fakes/public-profiles.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const AT = '2026-11-20T10:00:00.000Z';
const ORIGIN = 'https://courses.example';

const stored = (over: Partial<StoredCertificate> = {}): StoredCertificate => ({
  id: randomUUID(),
  courseId: unique('course'),
  learnerId: unique('learner'),
  creatorId: unique('creator'),
  learnerEmail: 'ann@example.com',
  learnerName: null,
  courseTitle: 'First aid',
  creatorName: 'Maya',
  issuedAt: AT,
  statusList: 0,
  statusIndex: 0,
  jwt: 'a.b.c',
  status: 'valid',
  revokedAt: null,
  revocationReason: null,
  ...over,
});

describe('dynamoCertificates', () => {
  it('issues one certificate per course and learner, lists it both ways, and revokes it once into the status list', async () => {
    const repo = dynamoCertificates();
    const index = await repo.nextStatusIndex();
    expect(await repo.nextStatusIndex()).toBe(index + 1);
    const first = stored({ statusIndex: index });
    await putRaw({ ...enrollmentKeys.enrollment(first.courseId, first.learnerId), type: 'Enrollment', courseId: first.courseId, learnerId: first.learnerId, gsi3pk: 'CERTS#DUE', gsi3sk: `${AT}#${first.courseId}#${first.learnerId}` });
    expect(await repo.due(1000)).toContainEqual({ courseId: first.courseId, learnerId: first.learnerId });
    // Its email is written with it (due far ahead here, so no sender run of the local cloud takes it).
    const email = (id: string) => ({ id, to: 'ann@example.com', subject: 'Your certificate', text: 't', html: 'h', queuedAt: AT, dueAt: '2999-01-01T00:00:00.000Z', tries: 1 });
    expect(await repo.issue(first, email(first.id))).toBe('issued');
    expect(await rawItem(mailQueueKey(email(first.id)))).toMatchObject({ to: 'ann@example.com', tries: 1 });
    expect(await repo.due(1000)).not.toContainEqual({ courseId: first.courseId, learnerId: first.learnerId });
    expect((await rawItem(enrollmentKeys.enrollment(first.courseId, first.learnerId)))?.['certificateId']).toBe(first.id);
    const again = randomUUID();
    expect(await repo.issue({ ...first, id: again }, email(again))).toBe('exists');
    expect(await rawItem(mailQueueKey(email(again))), 'no email for a certificate not issued').toBeUndefined();
    await dynamoMailQueue().remove(email(first.id));
    expect(await repo.get(first.id)).toEqual(first);
    expect((await repo.listByLearner(first.learnerId)).map((c) => c.id)).toEqual([first.id]);
    expect((await repo.listByCourse(first.courseId, { limit: 50 })).items.map((c) => c.id)).toEqual([first.id]);
    expect(await repo.revoke(first.id, AT, 'Shared answers')).toBe(true);
    expect(await repo.revoke(first.id, AT, 'Again')).toBe(false);
    expect(await repo.get(first.id)).toMatchObject({ status: 'revoked', revokedAt: AT, revocationReason: 'Shared answers' });
    expect((await repo.revocations(0)).indexes).toContain(index);
  });

  it("pages a course's certificates newest first: every one once, a cursor of another course refused", async () => {
    const repo = dynamoCertificates();
    const courseId = unique('course');
    const issued = Array.from({ length: 5 }, (_, i) => stored({ courseId, issuedAt: `2026-11-2${i}T10:00:00.000Z` }));
    for (const c of issued) await putRaw({ ...certificateKeys.certificate(c.id), type: 'Certificate', ...c, ...certificateKeys.byCourse(c) });
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await repo.listByCourse(courseId, { cursor, limit: 2 });
      pages.push(page.items.map((c) => c.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(issued.map((c) => c.id).reverse());
    const other = await repo.listByCourse(courseId, { limit: 2 });
    await expect(repo.listByCourse(unique('course'), { cursor: other.nextCursor!, limit: 2 })).rejects.toThrow(/cursor is not valid/);
  });

  it('clears a due enrolment; publishes a signing key once; pages revocations and keeps the newest signed list', async () => {
    const repo = dynamoCertificates();
    const [courseId, learnerId] = [unique('course'), unique('learner')];
    await putRaw({ ...enrollmentKeys.enrollment(courseId, learnerId), type: 'Enrollment', courseId, learnerId, gsi3pk: 'CERTS#DUE', gsi3sk: `${AT}#${courseId}#${learnerId}` });
    await repo.clearDue(courseId, learnerId);
    expect(await repo.due(1000)).not.toContainEqual({ courseId, learnerId });
    const kid = `https://courses.example/api/public/issuer/keys/${unique('key')}`;
    await Promise.all(['a', 'b'].map((x) => repo.publishKey({ kid, publicJwk: { kid, x } })));
    expect((await repo.publicKeys()).filter((k) => k['kid'] === kid)).toHaveLength(1);

    // A certificate in a later list, revoked: that list's own revocations and version.
    const list = 7_000 + Math.floor(Math.random() * 1_000_000);
    const paged = stored({ statusList: list, statusIndex: 5 });
    await putRaw({ ...certificateKeys.certificate(paged.id), type: 'Certificate', ...paged });
    expect(await repo.revoke(paged.id, AT, 'x')).toBe(true);
    expect(await repo.revocations(list)).toEqual({ indexes: [5], version: 1 });
    await repo.publishStatusList(list, { jwt: 'v2', version: 2 });
    await repo.publishStatusList(list, { jwt: 'v1', version: 1 });
    expect(await repo.publishedStatusList(list)).toEqual({ jwt: 'v2', version: 2 });
  });
});

describe('certificates (the core on DynamoDB Local and the local key)', () => {
  const course = (creatorId: string): StoredCourse => ({
    id: unique('course'),
    creatorId,
    title: 'Knife safety',
    description: 'Hold and cut safely.',
    status: 'published',
    lessonCount: 1,
    enrolledCount: 1,
    priceAmount: 0,
    seatPriceAmount: 0,
    createdAt: AT,
    updatedAt: AT,
    lessons: [],
  });

  /** A creator's course with one learner who completed it (due to this test only), and the job's deps on DynamoDB Local. */
  const completedWorld = async (learnerProfiles = memoryLearnerProfiles(), licenseId?: string) => {
    const certificates = dynamoCertificates();
    const creatorId = unique('creator');
    const c = course(creatorId);
    const learnerId = unique('learner');
    const enrollments = memoryEnrollments();
    await enrollments.enroll({ courseId: c.id, learnerId, creatorId, learnerEmail: 'ann@example.com', learnerJoinedAt: AT, courseTitle: c.title, enrolledAt: AT, licenseId });
    await enrollments.completeLesson({ courseId: c.id, learnerId, creatorId, lessonId: 'l1', seenCount: 0, progress: 100, at: AT, day: '2026-11-20', completedAt: AT });
    // The enrolment item the issuing transaction marks (not due: the scheduler's own runs leave it alone).
    await putRaw({ ...enrollmentKeys.enrollment(c.id, learnerId), type: 'Enrollment', courseId: c.id, learnerId });
    const sent: { to: string; subject: string }[] = [];
    const deps = {
      // Only this test's due enrolment: the others belong to other tests (and the scheduler's own runs).
      certificates: Object.assign(Object.create(certificates) as typeof certificates, { due: async () => [{ courseId: c.id, learnerId }] }),
      enrollments,
      licenses: memoryLicenses(),
      courses: memoryCourseReader([c]),
      profiles: memoryPublicProfiles(),
      learnerProfiles,
      signer: kmsSigner(),
      mailer: { send: async (m: { to: string; subject: string }) => void sent.push(m) },
      mailQueue: dynamoMailQueue(),
      clock: { now: () => new Date(AT) },
      ids: { newId: randomUUID },
      appOrigin: ORIGIN,
      mailSchool: async () => undefined,
      branding: async () => null,
      remainingMs: () => 60_000,
      log: () => undefined,
    };
    return { c, creatorId, learnerId, deps, sent };
  };

  it('issues, lists, shows, verifies and revokes, with the status list and the issuer keys', async () => {
    const { c, creatorId, learnerId, deps, sent } = await completedWorld();
    expect((await runToEnd('certificate-issuer', () => issueDueCertificates(deps))).counts).toMatchObject({ issued: 1, failed: 0 });
    expect(sent).toContainEqual(expect.objectContaining({ to: 'ann@example.com', subject: 'Your certificate from Course Platform', text: expect.stringContaining('Knife safety') }));

    const [mine] = (await learnerCertificates(deps, learnerId)).items;
    expect(mine).toMatchObject({ courseTitle: 'Knife safety', creatorName: 'Course creator', status: 'valid', verifyUrl: `${ORIGIN}/verify/${mine!.id}` });
    const shown = await publicCertificate(deps, mine!.id);
    expect(shown).toMatchObject({ status: 'valid', verified: true, certificate: { learner: 'a•••@example.com', courseUrl: `${ORIGIN}/c/${c.id}` } });
    await expect(publicCertificate(deps, 'missing')).rejects.toThrow(NotFoundError);
    expect(await verifyHeldCredential(deps, shown.credential)).toMatchObject({ verified: true, status: 'valid' });
    expect(await verifyHeldCredential(deps, { jwt: shown.credential })).toMatchObject({ verified: true, status: 'valid' });
    expect(await verifyHeldCredential(deps, { something: 1 })).toMatchObject({ verified: false, status: 'invalid' });

    await expect(revokeCertificate(deps, { creatorId: 'someone-else', id: mine!.id, reason: 'x' })).rejects.toThrow(NotFoundError);
    await expect(courseCertificates(deps, { creatorId: 'someone-else', courseId: c.id, limit: 50 })).rejects.toThrow(NotFoundError);
    expect(await revokeCertificate(deps, { creatorId, id: mine!.id, reason: 'Shared answers' })).toEqual({ status: 'revoked' });
    expect((await courseCertificates(deps, { creatorId, courseId: c.id, limit: 50 })).items).toEqual([expect.objectContaining({ id: mine!.id, status: 'revoked', revocationReason: 'Shared answers' })]);
    expect(await verifyHeldCredential(deps, shown.credential)).toMatchObject({ verified: true, status: 'revoked' });
    const entry = (decodeJwt(shown.credential) as { credentialStatus: { statusListIndex: string } }).credentialStatus;
    await publishStatusLists(deps);
    const list = decodeJwt(await statusListCredential(deps, 0)) as { credentialSubject: { encodedList: string } };
    expect(isSetInStatusList(list.credentialSubject.encodedList, Number(entry.statusListIndex))).toBe(true);
    const profile = await issuerProfile(deps);
    expect(profile).toMatchObject({ id: `${ORIGIN}/api/public/issuer`, name: 'Course Platform' });
    expect(certificateEmail({ ...stored(), courseTitle: 'A <b>', creatorName: 'M' }, ORIGIN).html).toContain('A &lt;b&gt;');
  });

  it('issues none to a learner who no longer has the course when the job runs (removed, or their seat revoked), or whose licence ended', async () => {
    const removed = await completedWorld();
    await removed.deps.enrollments.remove(removed.c.id, removed.learnerId);
    expect((await runToEnd('certificate-issuer', () => issueDueCertificates(removed.deps))).counts).toMatchObject({ issued: 0, cleared: 1, failed: 0 });
    expect((await learnerCertificates(removed.deps, removed.learnerId)).items).toEqual([]);
    expect(removed.sent).toEqual([]);

    const seated = await completedWorld(memoryLearnerProfiles(), 'lic_ended');
    const licenses = memoryLicenses();
    const ended = { id: 'lic_ended', courseId: seated.c.id, courseTitle: seated.c.title, creatorId: seated.creatorId, leaderId: 'leader', leaderEmail: 'lead@example.com', seatsTotal: 1, seatsUsed: 1, source: 'granted' as const, orderId: null, createdAt: AT };
    await licenses.create({ ...ended, expiresAt: '2026-11-19T00:00:00.000Z', status: 'active' });
    expect((await runToEnd('certificate-issuer', () => issueDueCertificates({ ...seated.deps, licenses }))).counts).toMatchObject({ issued: 0, cleared: 1 });
    expect((await learnerCertificates(seated.deps, seated.learnerId)).items).toEqual([]);
  });

  it('pages the status lists (a small page injected): a certificate past the first list is revoked in its own, signed list', async () => {
    const world = await completedWorld();
    // Lists of one entry: every certificate starts a list of its own, far past the first.
    const deps = { ...world.deps, statusListSize: 1 };
    expect((await runToEnd('certificate-issuer', () => issueDueCertificates(deps))).counts).toMatchObject({ issued: 1, failed: 0 });
    const [mine] = (await learnerCertificates(deps, world.learnerId)).items;
    const shown = await publicCertificate(deps, mine!.id);
    const entry = (decodeJwt(shown.credential) as { credentialStatus: { statusListCredential: string; statusListIndex: string } }).credentialStatus;
    const list = Number(/\/certificate-status-list\/(\d+)$/.exec(entry.statusListCredential)?.[1]);
    expect(list).toBeGreaterThan(0);
    expect(entry.statusListIndex).toBe('0');
    expect(await verifyHeldCredential(deps, shown.credential)).toMatchObject({ verified: true, status: 'valid' });
    await revokeCertificate(deps, { creatorId: world.creatorId, id: mine!.id, reason: 'Shared answers' });
    expect(await verifyHeldCredential(deps, shown.credential)).toMatchObject({ verified: true, status: 'revoked' });
    expect(await publishStatusLists(deps)).toBeGreaterThan(0);
    const signed = decodeJwt(await statusListCredential(deps, list)) as { id: string; credentialSubject: { encodedList: string } };
    expect(signed.id).toBe(entry.statusListCredential);
    expect(isSetInStatusList(signed.credentialSubject.encodedList, 0)).toBe(true);
    // Signed once per change: a second run signs nothing.
    expect(await publishStatusLists(deps)).toBe(0);
    await expect(statusListCredential(deps, 1e9)).rejects.toThrow(NotFoundError);
  });

  it("carries the learner's name; a new name re-issues it as a new credential and revokes the previous; a revoked one stays as it was", async () => {
    const learnerProfiles = memoryLearnerProfiles();
    const { learnerId, creatorId, c, deps } = await completedWorld(learnerProfiles);
    await learnerProfiles.save({ learnerId, certificateName: 'Ann Smith', updatedAt: AT, rename: false });
    // Only this test's learners are due a rename (their certificates are, like the job's own, read from DynamoDB Local).
    const job = { ...deps, certificates: Object.assign(Object.create(deps.certificates) as typeof deps.certificates, { due: async () => [] }) };
    expect((await runToEnd('certificate-issuer', () => issueDueCertificates(deps))).counts).toMatchObject({ issued: 1, failed: 0 });
    const [mine] = (await learnerCertificates(deps, learnerId)).items;
    expect(mine).toMatchObject({ learnerName: 'Ann Smith' });
    const issued = await publicCertificate(deps, mine!.id);
    expect(issued.certificate.learner).toBe('Ann Smith');
    const names = (jwt: string) => (decodeJwt(jwt) as { credentialSubject: { identifier: { identityType: string; identityHash: string }[] } }).credentialSubject.identifier.filter((i) => i.identityType === 'name').map((i) => i.identityHash);
    expect(names(issued.credential)).toEqual(['Ann Smith']);

    await learnerProfiles.save({ learnerId, certificateName: 'Ann B. Smith', updatedAt: '2026-11-21T10:00:00.000Z', rename: true });
    expect((await runToEnd('certificate-issuer', () => issueDueCertificates(job))).counts).toMatchObject({ renamed: 1, failed: 0 });
    expect(await learnerProfiles.renamesDue(10)).toEqual([]);
    const listed = (await learnerCertificates(deps, learnerId)).items;
    expect(listed).toHaveLength(1);
    const current = listed[0]!;
    expect(current.id).not.toBe(mine!.id);
    expect((await courseCertificates(deps, { creatorId, courseId: c.id, limit: 50 })).items.map((x) => x.id)).toEqual([current.id]);
    const renamed = await publicCertificate(deps, current.id);
    expect(renamed).toMatchObject({ status: 'valid', verified: true, certificate: { learner: 'Ann B. Smith', issuedAt: issued.certificate.issuedAt } });
    expect(names(renamed.credential)).toEqual(['Ann B. Smith']);
    const statusOf = (jwt: string) => (decodeJwt(jwt) as { credentialStatus: { statusListIndex: string } }).credentialStatus.statusListIndex;
    expect(statusOf(renamed.credential)).not.toBe(statusOf(issued.credential));
    // The copy shared before reads as revoked, everywhere.
    expect(await verifyHeldCredential(deps, issued.credential)).toMatchObject({ verified: true, status: 'revoked' });
    expect(await publicCertificate(deps, mine!.id)).toMatchObject({ status: 'revoked', certificate: { revocationReason: REISSUED_REASON } });
    expect(await verifyHeldCredential(deps, renamed.credential)).toMatchObject({ verified: true, status: 'valid' });
    expect((await rawItem(enrollmentKeys.enrollment(c.id, learnerId)))?.['certificateId']).toBe(current.id);

    await revokeCertificate(deps, { creatorId, id: current.id, reason: 'Shared answers' });
    await learnerProfiles.save({ learnerId, certificateName: '', updatedAt: '2026-11-22T10:00:00.000Z', rename: true });
    expect((await runToEnd('certificate-issuer', () => issueDueCertificates(job))).counts).toMatchObject({ renamed: 1, failed: 0 });
    expect((await learnerCertificates(deps, learnerId)).items.map((x) => [x.id, x.status])).toEqual([[current.id, 'revoked']]);
    expect(names((await publicCertificate(deps, current.id)).credential)).toEqual(['Ann B. Smith']);
  });
});

describe('dynamoLearnerProfiles', () => {
  it('saves the name, marks a rename due until cleared at the version saved, and reads it back', async () => {
    const profiles = dynamoLearnerProfiles();
    const learnerId = unique('learner');
    expect(await profiles.get(learnerId)).toBeUndefined();
    expect(await profiles.save({ learnerId, certificateName: 'Ann Smith', updatedAt: AT, rename: true })).toEqual({ learnerId, certificateName: 'Ann Smith', updatedAt: AT, renaming: true });
    expect((await profiles.renamesDue(10_000)).map((p) => p.learnerId)).toContain(learnerId);
    await profiles.clearRename(learnerId, '2026-01-01T00:00:00.000Z');
    expect(await profiles.get(learnerId)).toMatchObject({ renaming: true });
    await profiles.clearRename(learnerId, AT);
    expect(await profiles.get(learnerId)).toEqual({ learnerId, certificateName: 'Ann Smith', updatedAt: AT, renaming: false });
    expect((await profiles.renamesDue(10_000)).map((p) => p.learnerId)).not.toContain(learnerId);
    expect(await profiles.save({ learnerId, certificateName: '', updatedAt: AT, rename: false })).toMatchObject({ certificateName: '', renaming: false });
  });

  it('re-issues a valid certificate once: the previous revoked and off the lists, the next in its place; never a revoked one', async () => {
    const repo = dynamoCertificates();
    const previous = stored();
    const email = { id: previous.id, to: 'ann@example.com', subject: 's', text: 't', html: 'h', queuedAt: AT, dueAt: '2999-01-01T00:00:00.000Z', tries: 1 };
    await putRaw({ ...enrollmentKeys.enrollment(previous.courseId, previous.learnerId), type: 'Enrollment', courseId: previous.courseId, learnerId: previous.learnerId });
    expect(await repo.issue(previous, email)).toBe('issued');
    await dynamoMailQueue().remove(email);
    const next = { ...previous, id: randomUUID(), statusIndex: await repo.nextStatusIndex(), learnerName: 'Ann', jwt: 'd.e.f' };
    const [first, second] = await Promise.all([repo.reissue(previous, next, 'Renamed', AT), repo.reissue(previous, { ...next, id: randomUUID() }, 'Renamed', AT)]);
    expect([first, second].sort()).toEqual(['gone', 'reissued']);
    const current = (await repo.listByLearner(previous.learnerId));
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ status: 'valid', learnerName: 'Ann', jwt: 'd.e.f' });
    expect((await repo.listByCourse(previous.courseId, { limit: 50 })).items.map((x) => x.id)).toEqual([current[0]!.id]);
    expect(await repo.get(previous.id)).toMatchObject({ status: 'revoked', revokedAt: AT, revocationReason: 'Renamed' });
    expect((await repo.revocations(0)).indexes).toContain(previous.statusIndex);
    expect((await rawItem(certificateKeys.guard(previous.courseId, previous.learnerId)))?.['certificateId']).toBe(current[0]!.id);
    expect((await rawItem(enrollmentKeys.enrollment(previous.courseId, previous.learnerId)))?.['certificateId']).toBe(current[0]!.id);
  });
});
