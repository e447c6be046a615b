import { createHmac, timingSafeEqual } from 'node:crypto';
import { BadSignatureError, UpstreamError } from '#core/errors.ts';
import type { BillingEvent, PaymentEvents } from '#core/billing/ports.ts';
import type { Payments } from '#core/ports.ts';
import { withHooks } from './hooks.ts';

type SessionInput = Parameters<Payments['createCheckoutSession']>[0];
type PortalInput = Parameters<Payments['createPortalSession']>[0];

export interface FakeSession {
  id: string;
  url: string;
  input: SessionInput;
  status: 'open' | 'expired' | 'complete';
}

/**
 * The payment provider as Stripe behaves where it matters: an idempotency key replays the first answer (and refuses
 * other parameters under the same key), only an open session can be expired, an unknown session is an error. It
 * keeps the customers, sessions and portal sessions it made, and the sessions it expired.
 */
export const memoryPayments = () => {
  const customers: { id: string; userId: string; email: string }[] = [];
  const sessions = new Map<string, FakeSession>();
  const portals: (PortalInput & { url: string })[] = [];
  const expired: string[] = [];
  const answers = new Map<string, { params: string; answer: unknown }>();
  let next = 0;

  /** Stripe's idempotency: the same key answers the same, with other parameters it is an error. */
  const once = <T>(key: string, params: unknown, create: () => T): T => {
    const json = JSON.stringify(params);
    const earlier = answers.get(key);
    if (earlier) {
      if (earlier.params !== json) throw new UpstreamError(`Keys for idempotent requests can only be used with the same parameters (${key}).`);
      return earlier.answer as T;
    }
    const answer = create();
    answers.set(key, { params: json, answer });
    return answer;
  };

  const payments = withHooks<Payments>({
    async createCustomer({ userId, email }) {
      return once(`customer:${userId}`, { userId, email }, () => {
        const id = `cus_${++next}`;
        customers.push({ id, userId, email });
        return id;
      });
    },

    async createCheckoutSession(input) {
      const { idempotencyKey, ...params } = input;
      return once(idempotencyKey, params, () => {
        const id = `cs_test_${++next}`;
        const session: FakeSession = { id, url: `https://checkout.stripe.test/c/pay/${id}`, input, status: 'open' };
        sessions.set(id, session);
        return { id, url: session.url };
      });
    },

    async expireCheckoutSession(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new UpstreamError(`No such checkout.session: ${sessionId}`);
      if (session.status !== 'open') return;
      session.status = 'expired';
      expired.push(sessionId);
    },

    async createPortalSession(input) {
      const { idempotencyKey, ...params } = input;
      return once(idempotencyKey, params, () => {
        const portal = { ...input, url: `https://billing.stripe.test/p/session/bps_${++next}` };
        portals.push(portal);
        return { url: portal.url };
      });
    },
  });

  return Object.assign(payments, {
    customers,
    sessions,
    portals,
    expired,
    /** The sessions created, oldest first. */
    created: () => [...sessions.values()],
    /** The buyer paid: the session is complete and can no longer be expired. */
    complete(sessionId: string) {
      sessions.get(sessionId)!.status = 'complete';
    },
  });
};

export type MemoryPayments = ReturnType<typeof memoryPayments>;

/**
 * Webhook deliveries: `sign` gives the raw body and its signature (an HMAC over the body with the signing secret);
 * `parseEvent` refuses a missing or wrong signature with BadSignatureError, as the Stripe adapter does.
 */
export const memoryPaymentEvents = (secret = 'whsec_test') => {
  const mac = (body: string) => createHmac('sha256', secret).update(body).digest('hex');
  const events: PaymentEvents & { sign(event: BillingEvent): { rawBody: string; signature: string } } = {
    sign(event) {
      const rawBody = JSON.stringify(event);
      return { rawBody, signature: `v1=${mac(rawBody)}` };
    },
    async parseEvent(rawBody, signature) {
      if (!signature) throw new BadSignatureError('The Stripe-Signature header is missing.');
      const expected = Buffer.from(`v1=${mac(rawBody)}`);
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new BadSignatureError();
      return JSON.parse(rawBody) as BillingEvent;
    },
  };
  return events;
};
