import * as z from 'zod';
import { brandingView } from './branding.ts';
import { isoDate } from './common.ts';

/**
 * Certificates (issue 15; API.md "Quizzes and certificates"; docs/api.md "Certificates"): issued once when a learner
 * completes a course, as an Open Badges 3.0 credential signed as a VC-JWT (decision 0021), verifiable by anyone.
 */

export const certificateStatuses = ['valid', 'revoked'] as const;
export const REVOCATION_REASON_MAX = 500;
export const CERTIFICATE_NAME_MAX = 100;

/** GET /api/learner/certificates: one of the learner's certificates. */
export const learnerCertificate = z.object({
  id: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  creatorName: z.string(),
  /** The name it was issued to (the learner's "Name on certificates"), null when they had given none. */
  learnerName: z.string().nullable(),
  issuedAt: isoDate,
  status: z.enum(certificateStatuses),
  /** The public page that checks it: /verify/<id>. */
  verifyUrl: z.string(),
  /** LinkedIn's "Add licence or certification" form, filled in. */
  linkedInUrl: z.string(),
});
export type LearnerCertificate = z.infer<typeof learnerCertificate>;
/** GET /api/learner/certificates?cursor=&limit=: newest first, a page at a time (`nextCursor` null on the last). */
export const learnerCertificateList = z.object({ items: z.array(learnerCertificate), nextCursor: z.string().nullable() });
export type LearnerCertificateList = z.infer<typeof learnerCertificateList>;

/** What a certificate's public page shows, read from the checked credential and the platform's record. */
export const certificateView = z.object({
  id: z.string(),
  /** The learner, as the platform shows them publicly: their name on certificates, else their email masked (a•••@example.com). */
  learner: z.string(),
  courseTitle: z.string(),
  courseUrl: z.string(),
  creatorName: z.string(),
  /** The issuer the credential names: the platform, or the creator's school when it was issued branded (issue 32). */
  issuerName: z.string(),
  issuedAt: isoDate,
  revokedAt: isoDate.nullable(),
  revocationReason: z.string().nullable(),
});
export type CertificateView = z.infer<typeof certificateView>;

/** GET /api/public/certificates/{id}: the credential as issued (a VC-JWT), its status, and what the page shows. */
export const publicCertificate = z.object({
  credential: z.string(),
  status: z.enum(certificateStatuses),
  /** Whether the credential's signature and claims check out against the platform's keys (computed, not stored). */
  verified: z.boolean(),
  certificate: certificateView,
  /** The issuing creator's school while their plan includes branding (issue 32): the page shows it; else null. */
  branding: brandingView.nullable(),
});
export type PublicCertificate = z.infer<typeof publicCertificate>;

/** POST /api/public/certificates/verify: any credential a third party holds, as issued (the VC-JWT string, or `{jwt}`). */
export const verifyCertificateBody = z.strictObject({
  credential: z.union([z.string().trim().min(1).max(20_000), z.record(z.string(), z.unknown())]),
});
export const verifyCertificateResult = z.object({
  verified: z.boolean(),
  /** `invalid` when the proof fails (then nothing it says can be trusted). */
  status: z.enum([...certificateStatuses, 'invalid']),
  errors: z.array(z.string()),
  certificate: certificateView.nullable(),
});
export type VerifyCertificateResult = z.infer<typeof verifyCertificateResult>;

/** POST /api/certificates/{id}/revoke (the course's creator). */
export const revokeCertificateBody = z.strictObject({ reason: z.string().trim().min(1, 'Say why the certificate is revoked.').max(REVOCATION_REASON_MAX) });
export const revokeCertificateResult = z.object({ status: z.literal('revoked') });

/** GET /api/courses/{courseId}/certificates: the course's certificates, for its creator (newest first). */
export const courseCertificate = z.object({
  id: z.string(),
  learnerEmail: z.string(),
  issuedAt: isoDate,
  status: z.enum(certificateStatuses),
  revokedAt: isoDate.nullable(),
  revocationReason: z.string().nullable(),
  verifyUrl: z.string(),
});
export type CourseCertificate = z.infer<typeof courseCertificate>;
/** GET /api/courses/{courseId}/certificates?cursor=&limit=: newest first, a page at a time (`nextCursor` null on the last). */
export const courseCertificateList = z.object({ items: z.array(courseCertificate), nextCursor: z.string().nullable() });

/**
 * GET/PUT /api/learner/profile: the learner's "Name on certificates" (empty until given). New certificates carry it;
 * saving a different one re-issues the learner's valid certificates with it (the issuing job, within a minute).
 */
export const learnerProfile = z.object({
  email: z.string(),
  certificateName: z.string(),
  /** Certificates still being re-issued with the name last saved. */
  certificatesUpdating: z.boolean(),
  updatedAt: isoDate.nullable(),
});
export type LearnerProfile = z.infer<typeof learnerProfile>;

/** A name as it is kept: trimmed, each run of spaces as one (what tells a changed name from the saved one). */
export const certificateNameOf = (name: string): string => name.trim().replace(/\s+/g, ' ');

/** A name as a person writes it: no control characters, no markup brackets; empty removes it. Parsed, it is as kept. */
export const learnerProfileBody = z.strictObject({
  certificateName: z
    .string()
    .trim()
    // eslint-disable-next-line no-control-regex
    .refine((name) => !/[\u0000-\u001f\u007f<>]/.test(name), 'Use letters, spaces and punctuation only.')
    .overwrite(certificateNameOf)
    .max(CERTIFICATE_NAME_MAX, `Keep the name to ${CERTIFICATE_NAME_MAX} characters.`),
});
export type LearnerProfileBody = z.infer<typeof learnerProfileBody>;
