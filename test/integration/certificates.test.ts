import { beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import { isSetInStatusList } from '#core/certificates/credentials.ts';
import { work as issuerWork } from '#functions/jobs/certificate-issuer.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { mailsTo } from './mail-support.ts';
import { accountWithRole, api, outputs, useLocalCloudEnv } from './support.ts';

/**
 * Certificates end to end (issue 15): a learner completes a course (its quiz passed), the issuing job (run here as the
 * scheduler runs it) signs, stores and emails the certificate once; anyone checks it; the creator revokes it and
 * every check says so, the status list included.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;

let creator: Account;
let learner: Account;
let courseId: string;

const issue = async () => {
  useLocalCloudEnv();
  return runToEnd('certificate-issuer', issuerWork);
};

/** The learner's certificate for the course, once the job (or the scheduler's own run) issued it. */
const certificateOf = async (token: string) => {
  for (let i = 0; i < 20; i++) {
    const items = (await api('GET', '/api/learner/certificates', { token })).body.items as { id: string; courseId: string; verifyUrl: string; linkedInUrl: string; status: string }[];
    const found = items.find((c) => c.courseId === courseId);
    if (found) return found;
    await issue();
  }
  throw new Error('no certificate was issued');
};

beforeAll(async () => {
  creator = await accountWithRole('creator', 'cert-creator');
  learner = await accountWithRole('learner', 'cert-learner');
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'First aid basics', description: 'Help until help arrives.' } })).body.id as string;
  const quiz = { passPercent: 100, questions: [{ prompt: 'Call first?', type: 'single', options: ['Yes', 'No'], correct: [0] }] };
  const lessonId = (await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Check', kind: 'quiz', quiz } })).body.id as string;
  await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } });
  await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } });
  expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${lessonId}/attempts`, { token: learner.token, body: { answers: [[0]] } })).body.completedAt).not.toBeNull();
});

describe('certificates', () => {
  it('are issued once on completion, emailed with the verification and LinkedIn links, and check out as valid', async () => {
    const certificate = await certificateOf(learner.token);
    expect(certificate.status).toBe('valid');
    expect(certificate.verifyUrl).toMatch(new RegExp(`^https?://[^/]+/verify/${certificate.id}$`));
    expect(certificate.linkedInUrl).toContain('https://www.linkedin.com/profile/add?startTask=CERTIFICATION_NAME');
    await issue();
    expect(((await api('GET', '/api/learner/certificates', { token: learner.token })).body.items as { courseId: string }[]).filter((c) => c.courseId === courseId)).toHaveLength(1);
    expect((await api('GET', '/api/learner/summary', { token: learner.token })).body.certificates).toBe(1);
    expect((await api('GET', '/api/creator/stats', { token: creator.token })).body.certificates).toBe(1);
    const mail = (await mailsTo(learner.email)).filter((m) => m.subject === 'Your certificate from Course Platform' && (m.body.text ?? '').includes('First aid basics'));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body.text).toContain(certificate.verifyUrl);

    const shown = await api('GET', `/api/public/certificates/${certificate.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ status: 'valid', verified: true, certificate: { courseTitle: 'First aid basics', issuerName: 'Course Platform', revokedAt: null } });
    expect(shown.body.certificate.learner).toMatch(/^.•••@/);
    const credential = shown.body.credential as string;
    expect(decodeJwt(credential)).toMatchObject({ type: ['VerifiableCredential', 'OpenBadgeCredential'], credentialSubject: { achievement: { name: 'First aid basics' } } });
    expect((await api('POST', '/api/public/certificates/verify', { body: { credential } })).body).toMatchObject({ verified: true, status: 'valid', errors: [] });

    // A forger changes the course's name: the proof no longer holds.
    const [header, payload, signature] = credential.split('.') as [string, string, string];
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { credentialSubject: { achievement: { name: string } } };
    forged.credentialSubject.achievement.name = 'Brain surgery';
    const altered = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
    expect((await api('POST', '/api/public/certificates/verify', { body: { credential: altered } })).body).toMatchObject({ verified: false, status: 'invalid', certificate: null });
    expect((await api('POST', '/api/public/certificates/verify', { body: {} })).status).toBe(400);
    expect((await api('GET', '/api/public/certificates/no-such-certificate')).status).toBe(404);
  });

  it('carry the name the learner saves on their profile; each rename re-issues a new credential and revokes the previous: one valid at a time', async () => {
    const first = await certificateOf(learner.token);
    expect((await api('GET', '/api/learner/profile', { token: learner.token })).body).toEqual({ email: learner.email, certificateName: '', certificatesUpdating: false, updatedAt: null });
    const refused = await api('PUT', '/api/learner/profile', { token: learner.token, body: { certificateName: '<script>' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await api('PUT', '/api/learner/profile', { token: creator.token, body: { certificateName: 'Maya' } })).status).toBe(403);
    const credentials = [(await api('GET', `/api/public/certificates/${first.id}`)).body.credential as string];
    for (const name of ['Ann Smith', 'Ann B. Smith']) {
      const saved = await api('PUT', '/api/learner/profile', { token: learner.token, body: { certificateName: ` ${name.replace(' ', '  ')} ` } });
      expect(saved.body).toMatchObject({ certificateName: name, certificatesUpdating: true });
      await issue();
      expect((await api('GET', '/api/learner/profile', { token: learner.token })).body).toMatchObject({ certificateName: name, certificatesUpdating: false });
      // The learner's list and the creator's show the current certificate only: the new one, with the new name.
      const mine = ((await api('GET', '/api/learner/certificates', { token: learner.token })).body.items as { id: string; courseId: string; learnerName: string | null }[]).filter((c) => c.courseId === courseId);
      expect(mine).toEqual([expect.objectContaining({ learnerName: name, status: 'valid' })]);
      const listed = (await api('GET', `/api/courses/${courseId}/certificates`, { token: creator.token })).body.items as { id: string }[];
      expect(listed.map((c) => c.id)).toEqual([mine[0]!.id]);
      const shown = await api('GET', `/api/public/certificates/${mine[0]!.id}`);
      expect(shown.body).toMatchObject({ status: 'valid', verified: true, certificate: { learner: name } });
      expect(JSON.stringify(decodeJwt(shown.body.credential as string))).toContain(`"identityType":"name","hashed":false,"identityHash":"${name}"`);
      credentials.push(shown.body.credential as string);
    }
    // Three credentials, three ids, three status entries: only the last is valid.
    const claims = credentials.map((jwt) => decodeJwt(jwt) as { id: string; credentialStatus: { statusListIndex: string } });
    expect(new Set(claims.map((c) => c.id)).size).toBe(3);
    expect(new Set(claims.map((c) => c.credentialStatus.statusListIndex)).size).toBe(3);
    const verdicts = [];
    for (const credential of credentials) verdicts.push((await api('POST', '/api/public/certificates/verify', { body: { credential } })).body as { verified: boolean; status: string });
    expect(verdicts.map((v) => [v.verified, v.status])).toEqual([[true, 'revoked'], [true, 'revoked'], [true, 'valid']]);
    expect((await api('GET', `/api/public/certificates/${first.id}`)).body).toMatchObject({ status: 'revoked', certificate: { revocationReason: expect.stringContaining('Re-issued') } });
    // The learner's and the creator's figures count one certificate.
    expect((await api('GET', '/api/learner/summary', { token: learner.token })).body.certificates).toBe(1);
    expect((await api('GET', '/api/creator/stats', { token: creator.token })).body.certificates).toBe(1);
  });

  it("is revoked by its course's creator only, with a reason; then every check says revoked, the status list too", async () => {
    const certificate = await certificateOf(learner.token);
    const other = await accountWithRole('creator', 'cert-other');
    expect((await api('POST', `/api/certificates/${certificate.id}/revoke`, { token: other.token, body: { reason: 'Not mine' } })).status).toBe(404);
    expect((await api('GET', `/api/courses/${courseId}/certificates`, { token: other.token })).status).toBe(404);
    expect((await api('POST', `/api/certificates/${certificate.id}/revoke`, { token: creator.token, body: { reason: '' } })).status).toBe(400);
    const listed = (await api('GET', `/api/courses/${courseId}/certificates`, { token: creator.token })).body.items as { id: string; learnerEmail: string; status: string }[];
    expect(listed).toEqual([expect.objectContaining({ id: certificate.id, learnerEmail: learner.email, status: 'valid' })]);

    expect((await api('POST', `/api/certificates/${certificate.id}/revoke`, { token: creator.token, body: { reason: 'Quiz answers were shared.' } })).body).toEqual({ status: 'revoked' });
    expect((await api('POST', `/api/certificates/${certificate.id}/revoke`, { token: creator.token, body: { reason: 'Again' } })).body).toEqual({ status: 'revoked' });
    const shown = (await api('GET', `/api/public/certificates/${certificate.id}`)).body;
    expect(shown).toMatchObject({ status: 'revoked', verified: true, certificate: { revocationReason: 'Quiz answers were shared.' } });
    expect((await api('POST', '/api/public/certificates/verify', { body: { credential: shown.credential } })).body).toMatchObject({ verified: true, status: 'revoked' });
    // A revoked certificate no longer counts on the learner's dashboard.
    expect((await api('GET', '/api/learner/summary', { token: learner.token })).body.certificates).toBe(0);
    expect((await api('GET', '/api/creator/stats', { token: creator.token })).body.certificates).toBe(0);

    // A verifier holding only the credential follows its status entry to the signed list (signed again by the job's
    // next run, within a minute of the change; served as kept, never signed for the request).
    await issue();
    const entry = (decodeJwt(shown.credential as string) as { credentialStatus: { statusListCredential: string; statusListIndex: string } }).credentialStatus;
    const signs = async () => ((await (await fetch(`${outputs().KmsEndpoint}/_stand-in/calls`)).json()) as { operation: string }[]).filter((c) => c.operation === 'Sign').length;
    const signedBefore = await signs();
    const list = await fetch(`${outputs().ApiUrl}${new URL(entry.statusListCredential).pathname}`);
    expect(list.headers.get('content-type')).toBe('application/vc+jwt');
    const listJwt = await list.text();
    const subject = (decodeJwt(listJwt) as { credentialSubject: { encodedList: string } }).credentialSubject;
    expect(isSetInStatusList(subject.encodedList, Number(entry.statusListIndex))).toBe(true);
    for (let i = 0; i < 3; i++) await fetch(`${outputs().ApiUrl}${new URL(entry.statusListCredential).pathname}`);
    expect(await signs(), 'no signature for a reader').toBe(signedBefore);
    const missing = await api('GET', '/api/public/certificate-status-list/999999');
    expect(missing.status, JSON.stringify(missing.body)).toBe(404);

    const issuer = (await api('GET', '/api/public/issuer')).body as { name: string; keys: { kty: string; crv: string; kid: string; d?: string }[] };
    expect(issuer.name).toBe('Course Platform');
    expect(issuer.keys).toContainEqual(expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256' }));
    expect(issuer.keys.every((k) => k.d === undefined)).toBe(true);

    // An outside verifier with jose alone: the kid is a URL that answers the public JWK; the credential and the
    // status list verify against it.
    const header = decodeProtectedHeader(shown.credential as string);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    const kid = new URL(header.kid!);
    expect(kid.pathname).toMatch(/^\/api\/public\/issuer\/keys\/[\w-]+$/);
    const answered = await fetch(`${outputs().ApiUrl}${kid.pathname}`);
    expect(answered.status).toBe(200);
    const jwk = (await answered.json()) as JWK;
    expect(jwk).toMatchObject({ kid: header.kid, kty: 'EC', crv: 'P-256' });
    expect(jwk.d).toBeUndefined();
    const { payload } = await jwtVerify(shown.credential as string, await importJWK(jwk, 'ES256'), { algorithms: ['ES256'], issuer: `${outputs().WebUrl}/api/public/issuer` });
    expect(payload.jti).toBe(`urn:uuid:${certificate.id}`);
    await jwtVerify(listJwt, await importJWK(jwk, 'ES256'), { algorithms: ['ES256'] });
    expect((await api('GET', '/api/public/issuer/keys/no-such-key')).status).toBe(404);
  });
});
