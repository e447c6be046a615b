import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { issueDueCertificates, ISSUE_CONCURRENCY, publicCertificate, type IssueDeps } from '#core/certificates/certificates.ts';
import { CLAY_SCHOOL } from '#test/functions/fakes/mail-schools.ts';
import type { CertificateRepository, Enrollment, StoredCertificate } from '#core/ports.ts';
import { NOW, testClock } from '#test/functions/fakes/clock.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
import { memoryCourseReader, memoryMailer, memoryMailQueue } from '#test/functions/fakes/enrollments.ts';
import { pricedCourse } from '#test/functions/fakes/payouts.ts';
import { runSliced } from '#test/functions/fakes/sliced-run.ts';

/**
 * The certificate issuer's run (issue 28) on fakes: `n` completed enrolments due, certificates kept with the
 * once-per-(course, learner) guard of data/certificates.ts `issue`, a signer with a real P-256 public key (its
 * signatures are not checked here).
 */
const issuerWorld = (n: number) => {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const due = new Map<string, { courseId: string; learnerId: string }>();
  const enrollments = new Map<string, Enrollment>();
  for (let i = 0; i < n; i++) {
    const learnerId = `l${String(i).padStart(3, '0')}`;
    due.set(`c1/${learnerId}`, { courseId: 'c1', learnerId });
    enrollments.set(learnerId, { courseId: 'c1', learnerId, creatorId: 'u1', learnerEmail: `${learnerId}@example.com`, learnerJoinedAt: NOW, courseTitle: 'Knife skills', enrolledAt: NOW, status: 'active', completedLessonIds: ['x'], progress: 100, lastActivity: NOW, completedAt: NOW } as Enrollment);
  }
  const held = new Map<string, StoredCertificate>();
  const issuedCalls = new Map<string, number>();
  let index = 0;
  let inFlight = 0;
  let most = 0;
  const certificates = {
    publishKey: async () => undefined,
    due: async (limit: number) => [...due.values()].slice(0, limit),
    clearDue: async (courseId: string, learnerId: string) => void due.delete(`${courseId}/${learnerId}`),
    nextStatusIndex: async () => index++,
    statusIndexesAllocated: async () => index,
    async issue(certificate: StoredCertificate) {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      const guard = `${certificate.courseId}/${certificate.learnerId}`;
      if (held.has(guard)) return 'exists' as const;
      held.set(guard, certificate);
      issuedCalls.set(guard, (issuedCalls.get(guard) ?? 0) + 1);
      due.delete(guard);
      return 'issued' as const;
    },
    listByLearner: async (learnerId: string) => [...held.values()].filter((c) => c.learnerId === learnerId),
    revocations: async () => ({ indexes: [], version: 0 }),
    publishedStatusList: async () => ({ jwt: 'x', version: 0 }),
    publishStatusList: async () => undefined,
  } as unknown as CertificateRepository;
  const mailer = memoryMailer();
  const logged: string[] = [];
  const deps: IssueDeps = {
    certificates,
    enrollments: { get: async (_courseId, learnerId) => enrollments.get(learnerId) },
    licenses: { get: async () => undefined },
    courses: memoryCourseReader([pricedCourse()]),
    profiles: { get: async () => undefined },
    learnerProfiles: { get: async () => undefined, renamesDue: async () => [], clearRename: async () => undefined },
    signer: { alg: 'ES256', publicJwk: async () => publicKey.export({ format: 'jwk' }) as Record<string, unknown>, sign: async () => new Uint8Array(64) },
    mailer,
    mailQueue: memoryMailQueue(),
    clock: testClock(),
    ids: { newId: () => crypto.randomUUID() },
    appOrigin: APP_ORIGIN,
    mailSchool: async () => undefined,
    log: (message) => void logged.push(message),
  };
  return { deps, due, held, issuedCalls, mailer, logged, most: () => most, enrollments };
};

describe('the certificate issuer in slices (issue 28)', () => {
  it('issues 60 due certificates exactly once each, several at once, over many slices, a slice killed mid-way included', async () => {
    const w = issuerWorld(60);
    const run = await runSliced('certificate-issuer', () => issueDueCertificates(w.deps), { itemsPerSlice: 9, kill: { seq: 2, afterChecks: 5 } });
    expect(run.kills).toBe(1);
    expect(run.slices).toBeGreaterThan(5);
    expect(w.held.size).toBe(60);
    expect([...w.issuedCalls.values()].every((n) => n === 1)).toBe(true);
    expect(w.due.size).toBe(0);
    expect(new Set(w.mailer.sent.map((m) => m.to)).size).toBe(60);
    expect(w.mailer.sent).toHaveLength(60);
  });

  it(`issues ${ISSUE_CONCURRENCY} at once, no more`, async () => {
    const w = issuerWorld(40);
    await runSliced('certificate-issuer', () => issueDueCertificates(w.deps));
    expect(w.held.size).toBe(40);
    expect(w.most()).toBe(ISSUE_CONCURRENCY);
  });

  it('leaves one that keeps failing to a later run, and is not held up by it', async () => {
    const w = issuerWorld(30);
    const get = w.deps.enrollments.get;
    w.deps.enrollments.get = async (courseId, learnerId) => {
      if (learnerId === 'l000') throw new Error('throttled');
      return get(courseId, learnerId);
    };
    const run = await runSliced('certificate-issuer', () => issueDueCertificates(w.deps), { itemsPerSlice: 7 });
    expect(w.held.size).toBe(29);
    expect([...w.due.keys()]).toEqual(['c1/l000']);
    expect(run.counts['failed']).toBeGreaterThanOrEqual(1);
    expect(w.logged).toContain('certificate work not done');
  });

  it('clears, without a certificate, an enrolment no longer active', async () => {
    const w = issuerWorld(3);
    w.enrollments.set('l001', { ...w.enrollments.get('l001')!, status: 'removed' });
    const run = await runSliced('certificate-issuer', () => issueDueCertificates(w.deps));
    expect(run.counts).toMatchObject({ issued: 2, cleared: 1 });
    expect(w.due.size).toBe(0);
  });
});

describe("a branded creator's certificates (issue 32)", () => {
  const branding = { schoolName: 'Clay & Kiln', primaryColor: '#7c2d12', onPrimaryColor: '#ffffff' as const, logoUrl: 'https://files.example/logo?signed' };

  it('are issued in the school\'s name (the credential\'s issuer and its image) and emailed from it, its logo on top', async () => {
    const w = issuerWorld(1);
    const deps: IssueDeps = { ...w.deps, mailSchool: async (creatorId) => (creatorId === 'u1' ? CLAY_SCHOOL : undefined) };
    await runSliced('certificate-issuer', () => issueDueCertificates(deps));
    const [certificate] = [...w.held.values()];
    expect(decodeJwt(certificate!.jwt)['issuer']).toMatchObject({ id: `${APP_ORIGIN}/api/public/issuer`, name: 'Clay & Kiln', image: { id: CLAY_SCHOOL.logoUrl, type: 'Image' } });
    const [mail] = w.mailer.sent;
    expect(mail).toMatchObject({ to: 'l000@example.com', fromName: 'Clay & Kiln', subject: 'Your certificate from Course Platform' });
    expect(mail!.text.startsWith('Clay & Kiln: congratulations, you completed the course "Knife skills"')).toBe(true);
    expect(mail!.html).toContain(`<img src="${CLAY_SCHOOL.logoUrl}" alt="Clay &amp; Kiln"`);

    // Its public page: issued by the school (as the credential says), with the creator's branding in force.
    const page = await publicCertificate(
      { certificates: { get: async () => certificate, publicKeys: async () => [], revocations: async () => ({ indexes: [], version: 0 }) }, appOrigin: APP_ORIGIN, branding: async (creatorId) => (creatorId === 'u1' ? branding : null) },
      certificate!.id,
    );
    expect(page).toMatchObject({ certificate: { issuerName: 'Clay & Kiln' }, branding });
  });

  it('without branding in force: the platform issues and mails, and the page shows no branding', async () => {
    const w = issuerWorld(1);
    await runSliced('certificate-issuer', () => issueDueCertificates(w.deps));
    const [certificate] = [...w.held.values()];
    expect(decodeJwt(certificate!.jwt)['issuer']).toEqual({ id: `${APP_ORIGIN}/api/public/issuer`, type: ['Profile'], name: 'Course Platform', url: APP_ORIGIN });
    expect(w.mailer.sent[0]).not.toHaveProperty('fromName');
    expect(w.mailer.sent[0]!.html).toContain('font-weight:600">Course Platform</p>');
    const page = await publicCertificate(
      { certificates: { get: async () => certificate, publicKeys: async () => [], revocations: async () => ({ indexes: [], version: 0 }) }, appOrigin: APP_ORIGIN, branding: async () => null },
      certificate!.id,
    );
    expect(page).toMatchObject({ certificate: { issuerName: 'Course Platform' }, branding: null });
  });
});
