import { randomUUID } from 'node:crypto';
import { kmsSigner } from '#adapters/kms-signer.ts';
import { sesBulkMailer } from '#adapters/ses-mailer.ts';
import type { LearnerProfileRepository } from '#core/certificates/ports.ts';
import type { CertificateRepository } from '#core/ports.ts';
import { dynamoCertificates } from '#data/certificates.ts';
import { dynamoMemberships } from '#data/memberships.ts';
import { readEnrollment } from '#data/enrollments.ts';
import { dynamoLearnerProfiles } from '#data/learner-profiles.ts';
import { readPublicProfile } from '#data/public-profiles.ts';
import { appOrigin, clock, courseReader, courseRepository, licenseReader, mailer, mailQueue, mailSchool } from '#functions/composition/deps.ts';
import { playerBranding } from '#functions/composition/deps-storefront.ts';
import type { IssueDeps } from '#core/certificates/certificates.ts';

/**
 * The composition of the certificate handlers and the issuing job. KMS only where certificates and status lists are
 * signed: the job (the public routes read what it published).
 */
let certificates: CertificateRepository | undefined;
let learnerProfiles: LearnerProfileRepository | undefined;

export const certificateRepository = (): CertificateRepository => (certificates ??= dynamoCertificates());
export const learnerProfileRepository = (): LearnerProfileRepository => (learnerProfiles ??= dynamoLearnerProfiles());

/** Reading and checking certificates: no key to open (the public keys are published), no course to read. */
export const certificateReadDeps = () => ({ certificates: certificateRepository(), clock, appOrigin: appOrigin() });

/** A certificate's public page: what reading takes, and the issuing creator's branding in force (its logo signed). */
export const publicCertificateDeps = () => ({ ...certificateReadDeps(), branding: playerBranding });

/** A course's certificates, for its creator (whose course it must be). */
export const courseCertificateDeps = () => ({ ...certificateReadDeps(), courses: courseRepository() });

let memberships: ReturnType<typeof dynamoMemberships> | undefined;

/**
 * The issuing job. It reads a course, an enrolment, a licence, a membership's subscription and a creator's profile and writes none of them: it takes
 * those reads alone, not the repositories (a bundle carries every method of a repository object it holds).
 */
export const issueDeps = (log: IssueDeps['log']): IssueDeps => ({
  ...certificateReadDeps(),
  signer: kmsSigner(),
  courses: courseReader(),
  enrollments: { get: readEnrollment },
  licenses: licenseReader(),
  memberships: { member: (membershipId, subscriptionId) => (memberships ??= dynamoMemberships()).member(membershipId, subscriptionId) },
  profiles: { get: readPublicProfile },
  learnerProfiles: learnerProfileRepository(),
  mailer: mailer(),
  mailQueue: mailQueue(),
  mailSchool,
  ids: { newId: randomUUID },
  sendRate: () => sesBulkMailer().maxSendRate(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  log,
});
