import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Delivery, DeliveryAttempt, StripeEvent } from './state.ts';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * The `Stripe-Signature` header exactly as Stripe (and `stripe.webhooks.generateTestHeaderString`) builds it:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed with the endpoint secret>`.
 */
export const signPayload = (payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string => {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
};

const attemptTimeoutMs = 10_000;

/** One POST of the payload; resolves with the outcome, never rejects. */
const post = (url: string, payload: string, signature: string): Promise<DeliveryAttempt> =>
  new Promise((resolve) => {
    const at = Math.floor(Date.now() / 1000);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ at, ok: false, error: `invalid webhook URL ${url}` });
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : request;
    const req = send(
      target,
      {
        method: 'POST',
        // A fresh connection per delivery: no keep-alive socket outlives the stand-in or a test's receiver.
        agent: false,
        timeout: attemptTimeoutMs,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': Buffer.byteLength(payload),
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': signature,
          Connection: 'close',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve({ at, status, ok: status >= 200 && status < 300 });
        });
        res.on('error', (error) => resolve({ at, status: res.statusCode, ok: false, error: error.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${attemptTimeoutMs} ms`)));
    req.on('error', (error) => resolve({ at, ok: false, error: error.message }));
    req.end(payload);
  });

export interface WebhookSender {
  /**
   * Delivers an event: resolves after the first attempt (so a checkout redirect happens after the platform has
   * seen the events); failed attempts are retried in the background with a short backoff.
   */
  deliver(event: StripeEvent): Promise<Delivery>;
  /** Resolves when no retry is pending (tests and shutdown). */
  idle(): Promise<void>;
  /** Cancels pending retries. */
  stop(): void;
}

export const createWebhookSender = (options: {
  url: string | undefined;
  secret: string;
  deliveries: Record<string, Delivery>;
  retryDelaysMs: readonly number[];
  logger: Logger;
}): WebhookSender => {
  // Pending retries, each with the resolver of the promise that idle() waits on.
  const timers = new Map<NodeJS.Timeout, () => void>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;

  const track = <T>(promise: Promise<T>): Promise<T> => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
    return promise;
  };

  /** Attempt number `retry` (0 = first) of one delivery run; schedules the next on failure. */
  const attempt = async (event: StripeEvent, delivery: Delivery, retry: number): Promise<void> => {
    if (!options.url) {
      delivery.state = 'failed';
      delivery.attempts.push({ at: Math.floor(Date.now() / 1000), ok: false, error: 'no webhook URL configured' });
      return;
    }
    // Each attempt is signed afresh, so a retry is never rejected as older than the receiver's tolerance.
    const payload = JSON.stringify(event, null, 2);
    const result = await post(options.url, payload, signPayload(payload, options.secret));
    delivery.attempts.push(result);
    if (result.ok) {
      delivery.state = 'delivered';
      return;
    }
    const delay = options.retryDelaysMs[retry];
    const reason = result.error ?? `HTTP ${result.status}`;
    if (delay === undefined || stopped) {
      delivery.state = 'failed';
      options.logger.warn(`[stripe stand-in] ${event.type} ${event.id} not delivered to ${options.url}: ${reason}; giving up`);
      return;
    }
    options.logger.warn(
      `[stripe stand-in] ${event.type} ${event.id} not delivered to ${options.url}: ${reason}; retrying in ${delay} ms`,
    );
    const retried = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        void attempt(event, delivery, retry + 1).finally(resolve);
      }, delay);
      timers.set(timer, () => {
        delivery.state = 'failed';
        resolve();
      });
    });
    void track(retried);
  };

  return {
    async deliver(event) {
      // A re-delivery appends to the event's record, like the attempts list of Stripe's dashboard.
      const delivery = (options.deliveries[event.id] ??= { state: 'pending', attempts: [] });
      delivery.state = 'pending';
      await track(attempt(event, delivery, 0));
      return delivery;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    stop() {
      stopped = true;
      for (const [timer, abandon] of timers) {
        clearTimeout(timer);
        abandon();
      }
      timers.clear();
    },
  };
};
