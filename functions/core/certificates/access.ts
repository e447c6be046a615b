import { enrollmentAccess } from '#core/access/access.ts';
import { licenseIdOf } from '#core/licenses/licenses.ts';
import type { CertificateRepository, Clock, Enrollment, LicenseRepository, Order, StoredLicense, StoredMember } from '#core/ports.ts';

/**
 * Certificates follow access (issue 27 point 2): a certificate is issued only to a learner who still has the course
 * when the job runs (an active enrolment; through a team licence, one that gives access now), so a refund, a dispute,
 * a removal by the creator or a revoked seat before the job means none; and one issued for an order later refunded
 * or disputed is revoked with that reason. Its own module (no signing, no jose): the sales handlers call it.
 */

/** Why a certificate of an undone order is revoked. */
export const ORDER_REVERSAL_REASON = {
  refunded: 'The course purchase was refunded.',
  disputed: 'The course payment was disputed.',
} as const;

/**
 * Whether this enrolment may have its certificate now: completed, and the course open to its learner
 * (core/access/access.ts: active, through a team licence one that gives access now, through a membership alone a
 * subscription that gives access now). `license` is the enrolment's licence as read (undefined: none, or gone);
 * `members` the membership subscriptions its sources name, as read (core/access/access.ts membersOf).
 */
export const mayHaveCertificate = (
  enrollment: Pick<Enrollment, 'status' | 'completedAt' | 'licenseId' | 'sources'> | undefined,
  license: Pick<StoredLicense, 'status' | 'expiresAt'> | undefined,
  now: Date,
  members: readonly Pick<StoredMember, 'status' | 'currentPeriodEnd'>[] = [],
): boolean => {
  if (!enrollment?.completedAt) return false;
  return enrollmentAccess(enrollment, license, now, members).open;
};

/**
 * A paid order undone (refunded, disputed): the certificates it gave revoked with that reason: the buyer's own, and
 * those of the members of the team licence it bought. Safe to repeat (a revoked certificate stays as it is).
 */
export const revokeCertificatesOfOrder = async (
  deps: { certificates: Pick<CertificateRepository, 'heldFor' | 'revoke'>; licenses: Pick<LicenseRepository, 'seats'>; clock: Clock },
  order: Pick<Order, 'id' | 'courseId' | 'learnerId' | 'seats'>,
  to: 'refunded' | 'disputed',
): Promise<number> => {
  const learners = [
    ...(order.learnerId ? [order.learnerId] : []),
    ...(order.seats !== null ? (await deps.licenses.seats(licenseIdOf(order.id))).map((seat) => seat.learnerId) : []),
  ];
  let revoked = 0;
  for (const learnerId of new Set(learners)) {
    const certificate = await deps.certificates.heldFor(order.courseId, learnerId);
    if (certificate?.status === 'valid' && (await deps.certificates.revoke(certificate.id, deps.clock.now().toISOString(), ORDER_REVERSAL_REASON[to]))) revoked += 1;
  }
  return revoked;
};
