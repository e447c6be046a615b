import { randomUUID } from 'node:crypto';
import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import type { CertificateRepository, LearnerProfileRepository, SecretCipher } from '#core/ports.ts';
import { dynamoCertificates } from '#data/certificates.ts';
import { dynamoLearnerProfiles } from '#data/learner-profiles.ts';
import { appOrigin, clock, courseRepository, enrollmentRepository, licenseRepository, mailer, mailQueue } from '#functions/deps.ts';
import { publicProfileRepository } from '#functions/deps-storefront.ts';
import type { IssueDeps } from '#core/certificates/certificates.ts';

/**
 * The composition of the certificate handlers and the issuing job. The cipher (and so KMS) only where the signing
 * key is opened: the job and the status list.
 */
let certificates: CertificateRepository | undefined;
let cipher: SecretCipher | undefined;
let learnerProfiles: LearnerProfileRepository | undefined;

export const certificateRepository = (): CertificateRepository => (certificates ??= dynamoCertificates());
export const learnerProfileRepository = (): LearnerProfileRepository => (learnerProfiles ??= dynamoLearnerProfiles());

/** Reading and checking certificates: no key to open (the public keys are published), no course to read. */
export const certificateReadDeps = () => ({ certificates: certificateRepository(), clock, appOrigin: appOrigin() });

/** A course's certificates, for its creator (whose course it must be). */
export const courseCertificateDeps = () => ({ ...certificateReadDeps(), courses: courseRepository() });

/** Signing: the status list and the job. */
export const certificateSignDeps = () => ({ ...certificateReadDeps(), cipher: (cipher ??= envelopeCipher()) });

export const issueDeps = (remainingMs: () => number, log: IssueDeps['log']): IssueDeps => ({
  ...certificateSignDeps(),
  courses: courseRepository(),
  enrollments: enrollmentRepository(),
  licenses: licenseRepository(),
  profiles: publicProfileRepository(),
  learnerProfiles: learnerProfileRepository(),
  mailer: mailer(),
  mailQueue: mailQueue(),
  ids: { newId: randomUUID },
  remainingMs,
  log,
});
