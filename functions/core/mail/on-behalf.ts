import { AppError } from '#core/errors.ts';
import type { SendQuota } from '#core/mail/ports.ts';
import type { BillingRepository, Clock, Directory } from '#core/ports.ts';

/**
 * Mail the platform sends on a user's behalf (a creator's invitations and recommendations, a new affiliate's link, a
 * leader's seat invitations; later, sequences) goes to addresses that user typed: it must not become a way to mail
 * strangers. So the sender must have verified their own email (Cognito's `email_verified`, read from Cognito at the
 * moment of sending: the access token does not carry it, and a user verifies with Cognito directly), and a creator on
 * a trial sends at most TRIAL_DAILY_SENDS invitations and recommendations a day (docs/api.md).
 */
export const TRIAL_DAILY_SENDS = 50;

export const EMAIL_NOT_VERIFIED_MESSAGE =
  'Verify your email address first: the platform sends invitations and messages on your behalf only once your own address is verified.';

export const trialCapMessage = (cap: number = TRIAL_DAILY_SENDS): string =>
  `On a trial you can send ${cap} invitations and recommendations a day, and you have sent today's. You can send more tomorrow (the count starts again at midnight UTC), or now with a paid plan.`;

export interface OnBehalfDeps {
  directory: Pick<Directory, 'emailVerified'>;
  billing: Pick<BillingRepository, 'getSubscription'>;
  sendQuota: SendQuota;
  clock: Clock;
}

export class EmailNotVerifiedError extends AppError {
  constructor() {
    super('EMAIL_NOT_VERIFIED', EMAIL_NOT_VERIFIED_MESSAGE);
  }
}

/**
 * Before the platform mails someone for `senderId`: 403 EMAIL_NOT_VERIFIED unless the sender's email is verified;
 * then, for `kind: 'trial-capped'` (a creator's invitation or recommendation), a creator whose subscription is on its
 * trial takes one of today's sends, or gets 429 RATE_LIMITED. Nothing is sent when this throws.
 */
export const checkMailOnBehalf = async (deps: OnBehalfDeps, senderId: string, kind: 'trial-capped' | 'verified-only'): Promise<void> => {
  if (!(await deps.directory.emailVerified(senderId))) throw new EmailNotVerifiedError();
  if (kind !== 'trial-capped') return;
  if ((await deps.billing.getSubscription(senderId))?.status !== 'trialing') return;
  const day = deps.clock.now().toISOString().slice(0, 10);
  if (!(await deps.sendQuota.take(senderId, day, TRIAL_DAILY_SENDS))) throw new AppError('RATE_LIMITED', trialCapMessage());
};
