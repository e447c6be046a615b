import { createHash } from 'node:crypto';
import type { CreateSupportRequestDeps, ReplySupportDeps } from '#core/support/support.ts';
import type { SupportRepository } from '#core/support/ports.ts';
import { readSubscription } from '#data/billing.ts';
import { dynamoSupport } from '#data/support.ts';
import { appOrigin, clock, ids, mailer, mailQueue, userRepository } from '#functions/composition/deps.ts';

/** The support routes (issue 29 point 4): the requests, the creator's plan (priority), the reply's email. */
let support: SupportRepository | undefined;
export const supportRepository = (): SupportRepository => (support ??= dynamoSupport());

/** A stable request id for a creator's Idempotency-Key: a retried request answers the request it made. */
const requestIdFor = (creatorId: string, key: string): string => `sr_${createHash('sha256').update(`${creatorId}\n${key}`).digest('base64url').slice(0, 32)}`;

/** A stable reply id for a client's Idempotency-Key on a request: a retried reply is recognised in the thread. */
export const replyIdFor = (requestId: string, key: string): string => `rp_${createHash('sha256').update(`${requestId}\n${key}`).digest('base64url').slice(0, 32)}`;

export const createSupportRequestDeps = (): CreateSupportRequestDeps => ({
  support: supportRepository(),
  billing: { getSubscription: readSubscription },
  users: userRepository(),
  clock,
  ids,
  requestIdFor,
});

export const replySupportDeps = (log: ReplySupportDeps['log']): ReplySupportDeps => ({
  support: supportRepository(),
  users: userRepository(),
  mailer: mailer(),
  mailQueue: mailQueue(),
  appOrigin: appOrigin(),
  clock,
  ids,
  replyIdFor,
  log,
});
