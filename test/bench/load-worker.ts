import autocannon from 'autocannon';
import Stripe from 'stripe';

/**
 * The HTTP load generator, run in its own process (see load.ts) so it does not share an event loop with the
 * gateway it measures. argv[2] is a JSON LoadSpec; the last stdout line is a JSON LoadSlice.
 */
export interface LoadSpec {
  url: string;
  /** GET unless given. */
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  /** The same body on every request. */
  body?: string;
  /** Instead of `body`: every request a new Stripe event (unique id), signed as Stripe signs it. */
  stripeEvents?: StripeEventsSpec;
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface StripeEventsSpec {
  type: 'invoice.paid' | 'customer.subscription.updated';
  /** The endpoint's signing secret (whsec_...). */
  secret: string;
  /** `created` of the first event; each next event is one second later, so it is newer than all sent before it. */
  firstCreated: number;
  /** For subscription events: the linked customer, the subscription and its price. */
  subscription?: { customerId: string; subscriptionId: string; priceId: string; periodEnd: number };
}

export interface LoadSlice {
  /** Every 2xx response time in ms, at sub-millisecond resolution (autocannon's own histogram rounds to 1 ms). */
  times: number[];
  /** Responses of any status per second of the measured run. */
  requestsPerSecond: number;
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
}

// The key is never used to call Stripe: the client only computes signatures here.
const stripe = new Stripe('sk_test_x', { telemetry: false });
let eventsBuilt = 0;

/** The next event: unique id, `created` one second after the previous one's. */
const nextEvent = (spec: StripeEventsSpec): object => {
  const n = eventsBuilt++;
  const base = { id: `evt_bench_${process.pid}_${n}`, object: 'event', type: spec.type, created: spec.firstCreated + n, livemode: false };
  if (spec.type === 'invoice.paid') return { ...base, data: { object: { id: `in_bench_${n}`, object: 'invoice' } } };
  const sub = spec.subscription;
  if (!sub) throw new Error('customer.subscription.updated needs stripeEvents.subscription');
  return {
    ...base,
    data: {
      object: {
        id: sub.subscriptionId,
        object: 'subscription',
        customer: sub.customerId,
        status: 'active',
        cancel_at_period_end: false,
        trial_end: null,
        items: { object: 'list', data: [{ id: 'si_bench', price: { id: sub.priceId }, current_period_end: sub.periodEnd }] },
      },
    },
  };
};

/**
 * autocannon calls this each time a connection is about to send (its first request included), so no event is
 * sent twice. The signature's timestamp is now, well inside the handler's 300 s tolerance.
 */
const signedEventRequest = (spec: StripeEventsSpec): autocannon.Request => ({
  setupRequest: (request) => {
    const payload = JSON.stringify(nextEvent(spec));
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: spec.secret });
    return { ...request, body: payload, headers: { ...request.headers, 'stripe-signature': signature } };
  },
});

const run = (spec: LoadSpec, seconds: number, onResponse?: (status: number, ms: number) => void) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        method: spec.method ?? 'GET',
        headers: spec.headers,
        ...(spec.body === undefined ? {} : { body: spec.body }),
        ...(spec.stripeEvents ? { requests: [signedEventRequest(spec.stripeEvents)] } : {}),
        connections: spec.connections,
        duration: seconds,
        timeout: 10,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (onResponse) instance.on('response', (_client, status, _bytes, time) => onResponse(status, time));
  });

const main = async (): Promise<void> => {
  const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
  if (spec.warmupSeconds > 0) await run(spec, spec.warmupSeconds);
  const times: number[] = [];
  const result = await run(spec, spec.seconds, (status, time) => {
    if (status >= 200 && status < 300) times.push(Math.round(time * 1000) / 1000);
  });
  const slice: LoadSlice = {
    times,
    requestsPerSecond: (result['2xx'] + result.non2xx) / result.duration,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0])),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
  };
  process.stdout.write(`${JSON.stringify(slice)}\n`);
};

await main();
