import { createHash, randomInt } from 'node:crypto';
import { required } from '#functions/config.ts';
import type { CreateAffiliateDeps } from '#core/affiliates/affiliates.ts';
import { dynamoPublicProfiles } from '#data/public-profiles.ts';
import { dynamoVisitMarks } from '#data/visits.ts';
import { affiliateRepository, billingRepository, clock, directoryService, ids, mailer, mailQueue, userRepository } from '#functions/composition/deps.ts';

/** The affiliates' routes: the affiliates and their commissions, the creators' public pages (the links lead there). */
const links = () => ({ affiliates: affiliateRepository(), profiles: dynamoPublicProfiles(), appOrigin: required('APP_ORIGIN') });

export const affiliateListDeps = links;

/** Adding an affiliate: the Pro plan checked, a random code, the welcome email with the link. */
export const createAffiliateDeps = (log: CreateAffiliateDeps['log']): CreateAffiliateDeps => ({
  ...links(),
  billing: billingRepository(),
  users: userRepository(),
  directory: directoryService(),
  mailer: mailer(),
  mailQueue: mailQueue(),
  clock,
  ids,
  randomBelow: (below) => randomInt(below),
  log,
});

/** A stable payout id for a client's Idempotency-Key on an affiliate: a retried payout answers the payout it made. */
const payoutIdFor = (affiliateId: string, key: string): string => `po_${createHash('sha256').update(`${affiliateId}\n${key}`).digest('base64url').slice(0, 32)}`;

export const payoutDeps = () => ({ affiliates: affiliateRepository(), clock, ids, payoutIdFor });

/** The public link: codes, clicks, the app's own origin. */
export const referralDeps = () => ({ affiliates: affiliateRepository(), clock, ids, appOrigin: required('APP_ORIGIN'), visits: dynamoVisitMarks() });
