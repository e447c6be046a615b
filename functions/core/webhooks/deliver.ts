import { Webhook } from 'standardwebhooks';
import { WEBHOOK_DISABLE_AFTER_DAYS } from '#contracts/webhooks.ts';
import { dueMail } from '#core/mail/mail-queue.ts';
import { webhookDisabledEmail } from '#core/webhooks/disabled-email.ts';
import { webhookSecretContext } from '#core/webhooks/endpoints.ts';
import type { DeliveryOutcome, StoredWebhookDelivery, StoredWebhookEndpoint, WebhookDeliveryDeps } from '#core/webhooks/ports.ts';
import { nextAttemptAfter } from '#core/webhooks/schedule.ts';

/** How long a claimed attempt holds its delivery: the 10 s call and its bookkeeping, with room to spare. */
export const DELIVERY_LEASE_MS = 60_000;

/** The headers of one attempt, as the Standard Webhooks specification names them; `webhook-id` is the delivery's id on every attempt. */
export const signedHeaders = (secret: string, delivery: Pick<StoredWebhookDelivery, 'id' | 'payload'>, at: Date): Record<string, string> => ({
  'content-type': 'application/json',
  'webhook-id': delivery.id,
  'webhook-timestamp': Math.floor(at.getTime() / 1000).toString(),
  'webhook-signature': new Webhook(secret).sign(delivery.id, at, delivery.payload),
});

const DAY_MS = 86_400_000;

/**
 * What an attempt tells of its endpoint: a delivered one clears its failing mark; a failed one sets it (the first
 * failure since the last delivery), and one still failing WEBHOOK_DISABLE_AFTER_DAYS after it disables the endpoint,
 * its creator's notice queued in the same transaction (so emailed once, whichever attempt gets there first).
 */
const noteEndpointHealth = async (deps: WebhookDeliveryDeps, endpoint: StoredWebhookEndpoint, delivered: boolean): Promise<void> => {
  if (delivered) {
    if (endpoint.failingSince !== null) await deps.endpoints.markDelivering(endpoint);
    return;
  }
  const now = deps.clock.now();
  if (endpoint.failingSince === null) return deps.endpoints.markFailing(endpoint, now.toISOString());
  if (now.getTime() - Date.parse(endpoint.failingSince) < WEBHOOK_DISABLE_AFTER_DAYS * DAY_MS) return;
  const creator = await deps.users.getUser(endpoint.creatorId);
  const message = webhookDisabledEmail({ url: endpoint.url, failingSince: endpoint.failingSince, link: `${deps.appOrigin}/developers` });
  await deps.endpoints.disable(endpoint, now.toISOString(), creator?.email ? dueMail(deps, { to: creator.email, ...message }) : undefined);
};

/**
 * One attempt of one delivery (issue 31 points 4-5, decision 0053): claimed first (a conditional update, so no two
 * workers send it at once), signed with the endpoint's secret, POSTed through the SSRF-guarded sender, then recorded:
 * 2xx delivered; anything else (a non-2xx, a 3xx not followed, a timeout, a refused address) a failed attempt, due
 * again after WEBHOOK_RETRY_DELAYS_S[attempts - 1] with the same `webhook-id`, and `failed` after the last. A deleted or
 * disabled endpoint fails the delivery at once. The outcome then marks the endpoint's health (noteEndpointHealth).
 */
export const attemptDelivery = async (deps: WebhookDeliveryDeps, delivery: StoredWebhookDelivery): Promise<'delivered' | 'retry' | 'failed' | 'taken'> => {
  const now = deps.clock.now();
  const claimed = await deps.deliveries.claim(delivery, new Date(now.getTime() + DELIVERY_LEASE_MS).toISOString());
  if (!claimed) return 'taken';
  const endpoint = await deps.endpoints.get(claimed.creatorId, claimed.endpointId);
  const attempts = claimed.attempts + 1;
  let outcome: DeliveryOutcome;
  if (!endpoint || endpoint.disabledAt !== null) {
    outcome = { status: 'failed', attempts: claimed.attempts, lastStatusCode: claimed.lastStatusCode, nextAttemptAt: null };
  } else {
    const secret = await deps.cipher.decrypt(endpoint.secret, webhookSecretContext(endpoint.creatorId, endpoint.id));
    const answer = await deps.sender.send({ url: endpoint.url, headers: signedHeaders(secret, claimed, deps.clock.now()), body: claimed.payload });
    const status = answer.kind === 'answered' ? answer.status : null;
    if (status !== null && status >= 200 && status < 300) outcome = { status: 'delivered', attempts, lastStatusCode: status, nextAttemptAt: null };
    else {
      const next = nextAttemptAfter(attempts, deps.clock.now(), deps.firstRetryDelayS);
      outcome = { status: next ? 'pending' : 'failed', attempts, lastStatusCode: status, nextAttemptAt: next };
    }
  }
  if (!(await deps.deliveries.settle(claimed, outcome))) return 'taken';
  if (endpoint && endpoint.disabledAt === null) await noteEndpointHealth(deps, endpoint, outcome.status === 'delivered');
  return outcome.status === 'delivered' ? 'delivered' : outcome.status === 'failed' ? 'failed' : 'retry';
};

/** Deliveries read per page of the due index, and attempted at once. */
export const DUE_DELIVERIES_PAGE = 50;
export const DELIVERY_CONCURRENCY = 10;

export type SweepCounts = { delivered: number; retrying: number; failed: number; taken: number; errors: number };

/**
 * Attempts a list of deliveries, a few at once; one that throws (the table, the cipher) is counted and left to the
 * sweep (its claim, if taken, makes it due again when the lease ends).
 */
export const attemptAll = async (deps: WebhookDeliveryDeps, deliveries: readonly StoredWebhookDelivery[], warn: (message: string, fields: Record<string, unknown>) => void): Promise<SweepCounts> => {
  const counts: SweepCounts = { delivered: 0, retrying: 0, failed: 0, taken: 0, errors: 0 };
  let next = 0;
  const worker = async () => {
    while (next < deliveries.length) {
      const delivery = deliveries[next++]!;
      try {
        const outcome = await attemptDelivery(deps, delivery);
        counts[outcome === 'retry' ? 'retrying' : outcome]++;
      } catch (error) {
        counts.errors++;
        warn('a webhook delivery attempt failed', { deliveryId: delivery.id, endpointId: delivery.endpointId, error: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(DELIVERY_CONCURRENCY, deliveries.length) }, worker));
  return counts;
};

/** A sweep waits for deliveries due this soon (a first retry's 5 s) rather than leave them to the next minute's run. */
export const SOON_MS = 10_000;
/** The time a wait leaves for the attempt after it: its 10 s call and its bookkeeping. */
export const ATTEMPT_ROOM_MS = 15_000;

/** What lets a sweep wait for the deliveries due soon: the function's time left, and a pause. */
export interface SweepWaits {
  readonly remainingMs: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * The sweep (jobs/webhook-deliveries.ts: every minute, and started at once for the deliveries a stream batch wrote):
 * the deliveries due by now, a page at a time, until none is left or the time is up. An attempted delivery leaves the
 * due range (delivered, failed, or due later), so each page reads the index from its start again: no cursor to lose.
 * With `waits`, a delivery due within SOON_MS (the first retry, 5 s after a failed first attempt) is waited for while
 * the function has time for it, so the first retry comes after about 5 s, not at the next minute's run.
 */
export const sweepDueDeliveries = async (deps: WebhookDeliveryDeps, timeUp: () => boolean, warn: (message: string, fields: Record<string, unknown>) => void, waits?: SweepWaits): Promise<SweepCounts> => {
  const total: SweepCounts = { delivered: 0, retrying: 0, failed: 0, taken: 0, errors: 0 };
  for (let pages = 0; pages < 100; pages++) {
    const now = deps.clock.now();
    const due = await deps.deliveries.due(now.toISOString(), DUE_DELIVERIES_PAGE);
    if (due.length === 0) {
      if (!waits || timeUp()) break;
      const [soon] = await deps.deliveries.due(new Date(now.getTime() + SOON_MS).toISOString(), 1);
      const waitMs = soon?.nextAttemptAt ? Date.parse(soon.nextAttemptAt) - now.getTime() : undefined;
      if (waitMs === undefined || waits.remainingMs() < waitMs + ATTEMPT_ROOM_MS) break;
      await waits.sleep(Math.max(0, waitMs));
      // A clock that did not move (a test's) would wait again and again.
      if (deps.clock.now().getTime() <= now.getTime()) break;
      continue;
    }
    const counts = await attemptAll(deps, due, warn);
    for (const key of Object.keys(total) as (keyof SweepCounts)[]) total[key] += counts[key];
    if (counts.errors === due.length || timeUp()) break;
    if (due.length < DUE_DELIVERIES_PAGE && !waits) break;
  }
  return total;
};
