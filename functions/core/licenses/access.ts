import type { StoredLicense } from '#core/ports.ts';

/**
 * Whether a licence gives access now: active, and before its end date. Its own module: the learner's routes check it
 * on every access and need nothing else of licensing (its accounts, emails and CSV stay out of their bundles).
 */
export const licenseGivesAccess = (license: Pick<StoredLicense, 'status' | 'expiresAt'>, now: Date): boolean =>
  license.status === 'active' && (license.expiresAt === null || Date.parse(license.expiresAt) > now.getTime());
