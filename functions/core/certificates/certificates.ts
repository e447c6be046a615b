import { calculateJwkThumbprint, decodeJwt, type JWK } from 'jose';
import type { CertificateView, CourseCertificate, LearnerCertificateList, PublicCertificate, VerifyCertificateResult } from '#contracts/certificates.ts';
import { DEFAULT_CREATOR_NAME, PAGE_SIZE, type PageRequest } from '#contracts/common.ts';
import type { BrandingView } from '#contracts/branding.ts';
import { emailHtml, escapeHtml, fromSchool, plainText, PRODUCT_NAME, senderOf, type EmailMessage } from '#core/accounts/password-reset-email.ts';
import { maskedEmail } from '#core/campaigns/email-content.ts';
import {
  credentialOf,
  encodeStatusList,
  issuerId,
  keyUrl,
  PLATFORM_NAME,
  reissuedCredential,
  signCredential,
  STATUS_LIST_BITS,
  statusListCredentialOf,
  statusPlace,
  statusListUrl,
  verifyCredential,
  verifyUrl,
  type Issuer,
  type OpenBadgeCredential,
  type SigningKey,
} from '#core/certificates/credentials.ts';
import { membersOf } from '#core/access/access.ts';
import { mayHaveCertificate } from '#core/certificates/access.ts';
import { COURSE_NOT_FOUND } from '#core/courses/courses.ts';
import { NotFoundError } from '#core/errors.ts';
import { heldMail, sendHeld } from '#core/mail/mail-queue.ts';
import { inPool, pacer, platformMailRate, sendRateOr1 } from '#core/jobs/pace.ts';
import type { SliceWork } from '#core/jobs/slices.ts';
import type { CredentialSigner, LearnerProfileRepository, StoredLearnerProfile } from '#core/certificates/ports.ts';
import type { CertificateRepository, Clock, CourseRepository, EnrollmentRepository, Ids, LicenseRepository, Mailer, MembershipRepository, MailQueue, MailSchool, MailSchoolOf, PublicProfileRepository, StoredCertificate } from '#core/ports.ts';

/**
 * Certificates (issue 15; decision 0021): issued once per completed course by a job (the completion marks the
 * enrolment due; the job signs, stores and emails, so the learner's routes need neither the key nor SES), listed for
 * the learner and the course's creator, shown and checked publicly, revoked by the creator through the status list.
 */

export const CERTIFICATE_NOT_FOUND = 'Certificate not found.';

const issuerOf = (appOrigin: string): Issuer => ({ origin: appOrigin });

type SignerDeps = { signer: CredentialSigner; certificates: Pick<CertificateRepository, 'publishKey'>; appOrigin: string };

/**
 * The signing key: the KMS key (decision 0030), named by a URL that answers its public JWK (its `kid`, the JWK
 * thumbprint in it), published before the first signature with it so every credential it signs can be verified.
 */
const signingKey = async (deps: SignerDeps): Promise<SigningKey> => {
  const jwk = await deps.signer.publicJwk();
  const kid = keyUrl(issuerOf(deps.appOrigin), await calculateJwkThumbprint(jwk as JWK));
  await deps.certificates.publishKey({ kid, publicJwk: { ...jwk, kid, alg: deps.signer.alg, use: 'sig' } });
  return { kid, alg: deps.signer.alg, sign: (input) => deps.signer.sign(input) };
};

/** LinkedIn's "Add licence or certification" form, filled in with the certificate. */
export const linkedInUrl = (c: Pick<StoredCertificate, 'id' | 'courseTitle' | 'issuedAt'>, appOrigin: string): string => {
  const issued = new Date(c.issuedAt);
  const query = new URLSearchParams({
    startTask: 'CERTIFICATION_NAME',
    name: c.courseTitle,
    organizationName: PLATFORM_NAME,
    issueYear: String(issued.getUTCFullYear()),
    issueMonth: String(issued.getUTCMonth() + 1),
    certUrl: verifyUrl(issuerOf(appOrigin), c.id),
    certId: c.id,
  });
  return `https://www.linkedin.com/profile/add?${query.toString()}`;
};

/** The email of a new certificate: the course, the verification link and the LinkedIn link; from the school when branded. */
export const certificateEmail = (c: StoredCertificate, appOrigin: string, school?: MailSchool): EmailMessage => {
  const verify = verifyUrl(issuerOf(appOrigin), c.id);
  const linkedIn = linkedInUrl(c, appOrigin);
  // The course's title and creator's name are the creator's words: in the body, never in the subject (issue 27 point 4).
  const subject = `Your certificate from ${PRODUCT_NAME}`;
  const text = [
    `${senderOf(school)}: congratulations, you completed the course "${plainText(c.courseTitle)}" from ${plainText(c.creatorName)}.`,
    '',
    `Your certificate, which anyone can check: ${verify}`,
    `Add it to your LinkedIn profile: ${linkedIn}`,
    '',
    'You also find it, ready to download, under Certificates in your dashboard.',
  ].join('\n');
  const [title, creator, verifyHref, linkedInHref] = [c.courseTitle, c.creatorName, verify, linkedIn].map(escapeHtml);
  const html = emailHtml(`<h1 style="margin:0 0 16px;font-size:20px">Congratulations: you completed a course</h1>
<p style="margin:0 0 16px;line-height:1.5">Course: <strong>${title}</strong></p>
<p style="margin:0 0 16px;line-height:1.5">Your certificate from ${creator} is ready. Anyone can check it at its link.</p>
<p style="margin:0 0 12px"><a href="${verifyHref}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">View your certificate</a></p>
<p style="margin:0"><a href="${linkedInHref}" style="color:#0a66c2;font-weight:600">Add to LinkedIn</a></p>`,
    480,
    school,
  );
  return { subject, text, html, ...fromSchool(school) };
};

export interface IssueDeps {
  certificates: CertificateRepository;
  enrollments: Pick<EnrollmentRepository, 'get'>;
  /** The licence of an enrolment through a team's seat: it must give access when the certificate is issued. */
  licenses: Pick<LicenseRepository, 'get'>;
  /** The membership subscriptions an enrolment's sources name (absent: no membership gives a certificate). */
  memberships?: Pick<MembershipRepository, 'member'>;
  courses: Pick<CourseRepository, 'getCourse'>;
  profiles: Pick<PublicProfileRepository, 'get'>;
  learnerProfiles: Pick<LearnerProfileRepository, 'get' | 'renamesDue' | 'clearRename'>;
  /** Signs in KMS (the private key never leaves it). */
  signer: CredentialSigner;
  /** Entries per status list: 131,072 (a test injects fewer to see a list fill up). */
  statusListSize?: number;
  mailer: Mailer;
  /** Where a certificate's email waits, written with the certificate, until it is sent (or for the sender job). */
  mailQueue: Pick<MailQueue, 'move' | 'remove'>;
  clock: Clock;
  /** UUIDs: a certificate's id is its credential's `urn:uuid:` (and the id of an email it queues). */
  ids: Ids;
  appOrigin: string;
  /** The course's school (issue 32): a branded creator's certificate names it as issuer, and its email comes from it. */
  mailSchool: MailSchoolOf;
  /** SES's MaxSendRate: the issuer paces its certificates (each one email) at the platform's share of it. */
  sendRate?: () => Promise<number>;
  sleep?: (ms: number) => Promise<void>;
  log: (message: string, fields: Record<string, unknown>) => void;
}

/** Completions (or renamed learners) read per page of their index. */
const DUE_PAGE = 25;

type Counts = { issued: number; cleared: number; renamed: number; failed: number };

/** Where a run stands: issuing the due completions, then re-issuing for the renamed learners; slices in a row that moved nothing. */
interface IssueCursor {
  phase: 'issue' | 'rename';
  stalls: number;
}

/** Due items done at once by a slice: KMS signs far faster; SES's pace (the pacer) is what holds them back. */
export const ISSUE_CONCURRENCY = 8;
/** Slices in a row that found only items they could not move (failing, or still in the index a moment) before the phase is left to the next run. */
const MAX_STALLS = 2;

/**
 * The job (a sliced run, decision 0033; started every minute): each completed enrolment still due gets its certificate
 * once: the credential (the course, its creator's public name, the learner and the name they gave), a place in the
 * status list, signed, stored with the once-per-course guard (a slice delivered again, an overlapping run or a retry
 * finds it and only clears the mark), then emailed. An enrolment no longer complete or active (refunded, disputed,
 * removed, its seat revoked or its licence ended), or whose course is gone, is cleared without one. Then each learner
 * who saved a new name on their profile has their valid certificates re-issued with it. ISSUE_CONCURRENCY at once,
 * their starts paced at the platform's share of SES's rate, the time checked before each; the run goes on slice after
 * slice until nothing is due. Each slice ends by signing again the status lists whose revocations changed.
 */
export const issueDueCertificates =
  (deps: IssueDeps): SliceWork<Counts> =>
  async (slice, timeUp) => {
    const counts: Counts = { issued: 0, cleared: 0, renamed: 0, failed: 0 };
    const key: { value?: SigningKey } = {};
    const pace = pacer(platformMailRate(deps.sendRate ? await sendRateOr1(deps.sendRate) : Infinity), { now: () => deps.clock.now().getTime(), sleep: deps.sleep ?? (async () => undefined) });
    let at: IssueCursor = slice.cursor ? (JSON.parse(slice.cursor) as IssueCursor) : { phase: 'issue', stalls: 0 };
    let outcome: { cursor?: string } = {};
    for (;;) {
      const moved = counts.issued + counts.cleared + counts.renamed;
      const phase =
        at.phase === 'issue'
          ? await workThrough(deps, counts, key, pace, timeUp, () => deps.certificates.due(DUE_PAGE), ({ courseId, learnerId }) => ({
              id: `${courseId}/${learnerId}`,
              what: { courseId, learnerId },
              run: () => issueOne(deps, key, courseId, learnerId),
            }))
          : await workThrough(deps, counts, key, pace, timeUp, () => deps.learnerProfiles.renamesDue(DUE_PAGE), (profile) => ({
              id: profile.learnerId,
              what: { learnerId: profile.learnerId },
              run: () => renameCertificates(deps, key, profile),
            }));
      const stalls = counts.issued + counts.cleared + counts.renamed > moved ? 0 : at.stalls + 1;
      if (phase === 'time' || (phase === 'stuck' && stalls < MAX_STALLS)) {
        outcome = { cursor: JSON.stringify({ phase: at.phase, stalls: phase === 'time' ? 0 : stalls }) };
        break;
      }
      if (at.phase === 'rename') break;
      at = { phase: 'rename', stalls: 0 };
      if (timeUp()) {
        outcome = { cursor: JSON.stringify(at) };
        break;
      }
    }
    await publishStatusLists(deps, key).catch((error: unknown) => deps.log('status lists not published', { error: (error as Error).message }));
    return { ...outcome, counts };
  };
/**
 * Each status list whose revocations changed since it was last signed, signed again and kept (the job runs this
 * every minute, after its certificates): the public route serves the kept copy, never signing for a request.
 */
export const publishStatusLists = async (deps: Pick<IssueDeps, 'certificates' | 'signer' | 'clock' | 'appOrigin' | 'statusListSize'>, key: { value?: SigningKey } = {}): Promise<number> => {
  const allocated = await deps.certificates.statusIndexesAllocated();
  const lists = Math.max(1, Math.ceil(allocated / (deps.statusListSize ?? STATUS_LIST_BITS)));
  let signed = 0;
  for (let list = 0; list < lists; list++) {
    const [revocations, published] = await Promise.all([deps.certificates.revocations(list), deps.certificates.publishedStatusList(list)]);
    if (published && published.version >= revocations.version) continue;
    key.value ??= await signingKey(deps);
    const credential = statusListCredentialOf(encodeStatusList(revocations.indexes), issuerOf(deps.appOrigin), deps.clock.now().toISOString(), list);
    await deps.certificates.publishStatusList(list, { jwt: await signCredential(credential, key.value), version: revocations.version });
    signed += 1;
  }
  return signed;
};

/**
 * Pages through an index of work (each done item leaves it) while time remains, ISSUE_CONCURRENCY at once: 'done'
 * when the index has nothing left this slice has not tried, 'time' when time ran out, 'stuck' when a whole page holds
 * only items this slice tried (ones that failed, or done ones the index still shows for a moment: the next slice sees
 * past them). One item that cannot be done now stays (a later slice or run tries again) and holds up no other.
 */
const workThrough = async <T>(
  deps: Pick<IssueDeps, 'log' | 'signer' | 'certificates' | 'appOrigin'>,
  counts: Counts,
  key: { value?: SigningKey },
  pace: () => Promise<void>,
  timeUp: () => boolean,
  page: () => Promise<T[]>,
  task: (item: T) => { id: string; what: Record<string, string>; run: () => Promise<'issued' | 'cleared' | 'renamed'> },
): Promise<'done' | 'time' | 'stuck'> => {
  const tried = new Set<string>();
  for (;;) {
    const read = await page();
    const fresh = read.map(task).filter((t) => !tried.has(t.id));
    if (fresh.length === 0) return read.length < DUE_PAGE ? 'done' : 'stuck';
    if (tried.size > 0 && timeUp()) return 'time';
    key.value ??= await signingKey(deps);
    const started = await inPool(fresh, ISSUE_CONCURRENCY, timeUp, async ({ id, what, run }) => {
      tried.add(id);
      await pace();
      await run().then(
        (done) => void (counts[done] += 1),
        (error: unknown) => {
          counts.failed += 1;
          deps.log('certificate work not done', { ...what, error: (error as Error).message });
        },
      );
    });
    if (started < fresh.length) return 'time';
  }
};

/** The next free place in the status lists: a new list begins when one is full. */
const nextPlace = async (deps: Pick<IssueDeps, 'certificates' | 'statusListSize'>) =>
  statusPlace(await deps.certificates.nextStatusIndex(), deps.statusListSize ?? STATUS_LIST_BITS);

/** One due enrolment: its certificate issued (and emailed), or the mark cleared. */
const issueOne = async (deps: IssueDeps, key: { value?: SigningKey }, courseId: string, learnerId: string): Promise<'issued' | 'cleared'> => {
  const [enrollment, course, learner] = await Promise.all([deps.enrollments.get(courseId, learnerId), deps.courses.getCourse(courseId), deps.learnerProfiles.get(learnerId)]);
  // Only while the learner still has the course: refunded, disputed, removed or with their seat revoked, none.
  const license = enrollment?.licenseId ? await deps.licenses.get(enrollment.licenseId) : undefined;
  // A course held through a membership alone: only while its subscription gives access (issue 34).
  const members = enrollment?.status === 'active' ? await membersOf(deps, enrollment) : [];
  if (!course || !enrollment || !mayHaveCertificate(enrollment, license, deps.clock.now(), members)) {
    await deps.certificates.clearDue(courseId, learnerId);
    return 'cleared';
  }
  key.value ??= await signingKey(deps);
  const [profile, school] = await Promise.all([deps.profiles.get(course.creatorId), deps.mailSchool(course.creatorId)]);
  const creatorName = profile?.displayName ?? DEFAULT_CREATOR_NAME;
  const id = deps.ids.newId();
  const issuedAt = deps.clock.now().toISOString();
  const place = await nextPlace(deps);
  const facts = {
    id,
    issuedAt,
    learnerId,
    learnerEmail: enrollment.learnerEmail,
    learnerName: learner?.certificateName || null,
    courseId,
    courseTitle: course.title,
    courseDescription: course.description,
    creatorId: course.creatorId,
    creatorName,
    ...place,
  };
  const jwt = await signCredential(credentialOf(facts, issuerOf(deps.appOrigin), school), key.value);
  const certificate: StoredCertificate = { ...facts, jwt, status: 'valid', revokedAt: null, revocationReason: null };
  // Its email is queued with it, held by this run: a run that dies before sending it leaves it to the sender job.
  const email = heldMail(deps, { to: enrollment.learnerEmail, ...certificateEmail(certificate, deps.appOrigin, school) });
  if ((await deps.certificates.issue(certificate, email)) === 'exists') {
    await deps.certificates.clearDue(courseId, learnerId);
    return 'cleared';
  }
  // The certificate stands even if its email fails (it is on the learner's Certificates screen).
  await sendHeld(deps, email, { email: 'certificate', certificateId: id });
  return 'issued';
};

/** Why a re-issued certificate's previous credential reads as revoked. */
export const REISSUED_REASON = 'Re-issued under the name the learner gave since: this credential was replaced.';

/**
 * A learner's valid certificates re-issued with the name they saved: each a new credential (a new id and a new place
 * in the status list; the course, dates and email identity as issued) that replaces the previous one, which is revoked
 * in the same write, so one completion stands as one valid credential naming one person. Revoked ones stay as they were.
 */
const renameCertificates = async (deps: IssueDeps, key: { value?: SigningKey }, profile: StoredLearnerProfile): Promise<'renamed'> => {
  const name = profile.certificateName || null;
  for (const certificate of await deps.certificates.listByLearner(profile.learnerId)) {
    if (certificate.status !== 'valid' || certificate.learnerName === name) continue;
    key.value ??= await signingKey(deps);
    const next = { id: deps.ids.newId(), learnerName: name, ...(await nextPlace(deps)) };
    const jwt = await signCredential(reissuedCredential(decodeJwt(certificate.jwt) as unknown as OpenBadgeCredential, next, issuerOf(deps.appOrigin)), key.value);
    await deps.certificates.reissue(certificate, { ...certificate, ...next, jwt }, REISSUED_REASON, deps.clock.now().toISOString());
  }
  await deps.learnerProfiles.clearRename(profile.learnerId, profile.updatedAt);
  return 'renamed';
};

/** GET /api/learner/certificates?cursor=&limit=: the learner's certificates, newest first, a page at a time. */
export const learnerCertificates = async (
  deps: { certificates: Pick<CertificateRepository, 'pageByLearner'>; appOrigin: string },
  learnerId: string,
  request: Partial<PageRequest> = {},
): Promise<LearnerCertificateList> => {
  const page = await deps.certificates.pageByLearner(learnerId, { cursor: request.cursor, limit: request.limit ?? PAGE_SIZE });
  return {
    items: page.items.map((c) => ({
      id: c.id,
      courseId: c.courseId,
      courseTitle: c.courseTitle,
      creatorName: c.creatorName,
      learnerName: c.learnerName,
      issuedAt: c.issuedAt,
      status: c.status,
      verifyUrl: verifyUrl(issuerOf(deps.appOrigin), c.id),
      linkedInUrl: linkedInUrl(c, deps.appOrigin),
    })),
    nextCursor: page.nextCursor,
  };
};

const viewOf = (c: StoredCertificate, appOrigin: string): CertificateView => ({
  id: c.id,
  learner: c.learnerName ?? maskedEmail(c.learnerEmail),
  courseTitle: c.courseTitle,
  courseUrl: `${appOrigin.replace(/\/+$/, '')}/c/${encodeURIComponent(c.courseId)}`,
  creatorName: c.creatorName,
  issuerName: issuerNameOf(c.jwt),
  issuedAt: c.issuedAt,
  revokedAt: c.revokedAt,
  revocationReason: c.revocationReason,
});

/** The issuer the credential names as it was signed (a branded school, issue 32, or the platform). */
const issuerNameOf = (jwt: string): string => {
  try {
    const { issuer } = decodeJwt(jwt) as { issuer?: { name?: unknown } };
    return typeof issuer?.name === 'string' && issuer.name ? issuer.name : PLATFORM_NAME;
  } catch {
    return PLATFORM_NAME;
  }
};

type PublicDeps = { certificates: Pick<CertificateRepository, 'get' | 'publicKeys' | 'revocations'>; appOrigin: string };

/**
 * GET /api/public/certificates/{id}: the credential as issued, its status, whether its proof checks out now, and the
 * issuing creator's branding while their plan includes it (issue 32: the page shows their school), else null.
 */
export const publicCertificate = async (
  deps: PublicDeps & { branding: (creatorId: string) => Promise<BrandingView | null> },
  id: string,
): Promise<PublicCertificate> => {
  const certificate = await deps.certificates.get(id);
  if (!certificate) throw new NotFoundError(CERTIFICATE_NOT_FOUND);
  const [{ verified }, branding] = await Promise.all([
    deps.certificates.publicKeys().then((keys) => verifyCredential(certificate.jwt, keys as JWK[], issuerOf(deps.appOrigin))),
    deps.branding(certificate.creatorId),
  ]);
  return { credential: certificate.jwt, status: certificate.status, verified, certificate: viewOf(certificate, deps.appOrigin), branding };
};

/**
 * POST /api/public/certificates/verify: a credential as a third party holds it (the VC-JWT, or an object carrying it
 * as `jwt`/`credential`): its proof and claims checked against the platform's keys, then its revocation status read
 * from the status list at the index the credential itself names.
 */
export const verifyHeldCredential = async (deps: PublicDeps, held: string | Record<string, unknown>): Promise<VerifyCertificateResult> => {
  const jwt = typeof held === 'string' ? held : [held['jwt'], held['credential'], held['proof']].find((v): v is string => typeof v === 'string');
  if (!jwt) return { verified: false, status: 'invalid', errors: ['Paste the credential as issued: the signed VC-JWT (three parts separated by dots).'], certificate: null };
  const result = await verifyCredential(jwt.trim(), (await deps.certificates.publicKeys()) as JWK[], issuerOf(deps.appOrigin));
  if (!result.verified || !result.credential) return { verified: false, status: 'invalid', errors: result.errors, certificate: null };
  const index = Number(result.credential.credentialStatus?.statusListIndex);
  const revoked = (await deps.certificates.revocations(statusListOf(result.credential, deps.appOrigin))).indexes.includes(index);
  const stored = await deps.certificates.get(result.credential.id.replace(/^urn:uuid:/, ''));
  return { verified: true, status: revoked ? 'revoked' : 'valid', errors: [], certificate: stored ? viewOf(stored, deps.appOrigin) : null };
};

/** The status list a credential's entry names (list 0: the URL without a number). */
const statusListOf = (credential: OpenBadgeCredential, appOrigin: string): number => {
  const url = String(credential.credentialStatus?.statusListCredential ?? '');
  const first = statusListUrl(issuerOf(appOrigin));
  return url === first ? 0 : url.startsWith(`${first}/`) ? Number(url.slice(first.length + 1)) : -1;
};

export const STATUS_LIST_NOT_FOUND = 'Status list not found.';

/**
 * GET /api/public/certificate-status-list[/{list}]: a revocation list as a signed Bitstring Status List credential,
 * as the job last signed it (within a minute of a change); 404 for a list not in use.
 */
export const statusListCredential = async (deps: { certificates: Pick<CertificateRepository, 'publishedStatusList'> }, list: number): Promise<string> => {
  const published = Number.isSafeInteger(list) && list >= 0 ? await deps.certificates.publishedStatusList(list) : undefined;
  if (!published) throw new NotFoundError(STATUS_LIST_NOT_FOUND);
  return published.jwt;
};

export const KEY_NOT_FOUND = 'Key not found.';

/** GET /api/public/issuer/keys/{keyId}: a signing key's public JWK, at the URL its credentials name as `kid`. */
export const issuerKey = async (deps: { certificates: Pick<CertificateRepository, 'publicKeys'>; appOrigin: string }, keyId: string): Promise<Record<string, unknown>> => {
  const kid = keyUrl(issuerOf(deps.appOrigin), keyId);
  const key = (await deps.certificates.publicKeys()).find((k) => k['kid'] === kid);
  if (!key) throw new NotFoundError(KEY_NOT_FOUND);
  return key;
};

/** GET /api/public/issuer: the issuer's profile and the public keys its credentials are signed with. */
export const issuerProfile = async (deps: { certificates: Pick<CertificateRepository, 'publicKeys'>; appOrigin: string }) => ({
  id: issuerId(issuerOf(deps.appOrigin)),
  type: ['Profile'],
  name: PLATFORM_NAME,
  url: deps.appOrigin,
  keys: await deps.certificates.publicKeys(),
});

/** A certificate of one of the creator's courses, or 404 (another creator's is indistinguishable from a missing one). */
const ownCertificate = async (deps: { certificates: Pick<CertificateRepository, 'get'> }, creatorId: string, id: string) => {
  const certificate = await deps.certificates.get(id);
  if (certificate?.creatorId !== creatorId) throw new NotFoundError(CERTIFICATE_NOT_FOUND);
  return certificate;
};

/** POST /api/certificates/{id}/revoke: revoked with the reason, published in the status list; a repeat answers the same. */
export const revokeCertificate = async (
  deps: { certificates: Pick<CertificateRepository, 'get' | 'revoke'>; clock: Clock },
  input: { creatorId: string; id: string; reason: string },
): Promise<{ status: 'revoked' }> => {
  const certificate = await ownCertificate(deps, input.creatorId, input.id);
  // Also when revoked already: the repeat finishes a revocation interrupted halfway (the enrolment's mark).
  await deps.certificates.revoke(certificate.id, deps.clock.now().toISOString(), input.reason);
  return { status: 'revoked' };
};

/** GET /api/courses/{courseId}/certificates: the course's certificates, for its creator. */
export const courseCertificates = async (
  deps: { certificates: Pick<CertificateRepository, 'listByCourse'>; courses: Pick<CourseRepository, 'getCourse'>; appOrigin: string },
  input: { creatorId: string; courseId: string; cursor?: string | undefined; limit: number },
): Promise<{ items: CourseCertificate[]; nextCursor: string | null }> => {
  const course = await deps.courses.getCourse(input.courseId);
  if (course?.creatorId !== input.creatorId) throw new NotFoundError(COURSE_NOT_FOUND);
  const page = await deps.certificates.listByCourse(input.courseId, { cursor: input.cursor, limit: input.limit });
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((c) => ({
      id: c.id,
      learnerEmail: c.learnerEmail,
      issuedAt: c.issuedAt,
      status: c.status,
      revokedAt: c.revokedAt,
      revocationReason: c.revocationReason,
      verifyUrl: verifyUrl(issuerOf(deps.appOrigin), c.id),
    })),
  };
};
