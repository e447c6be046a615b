import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenAt } from '../http-server.ts';
import { noAccessTo } from './accounts.ts';
import { createApi } from './api.ts';
import { createConnect } from './connect.ts';
import { connectHttp } from './connect-http.ts';
import { errorBody, StripeApiError } from './errors.ts';
import { automatic, type EventCause } from './events.ts';
import { parseForm, str, type FormObject } from './form.ts';
import { readBody, redirect, sendHtml, sendJson } from './http.ts';
import { checkoutPage, EMAIL_FIELD_REQUIRED, knownEmail, notFoundPage, portalPage, type CheckoutView } from './pages.ts';
import { apiVersion, continueFrom, createState, newId, type StripeEvent, type StripeState } from './state.ts';
import { createWebhookSender, type Logger } from './webhooks.ts';

/**
 * The local Stripe: the subset of the REST API the platform's adapter calls (driven by the official `stripe`
 * client), hosted checkout and billing-portal pages, and correctly signed webhooks to the platform.
 * Test controls that Stripe itself does not have live under `/_stand-in/`.
 */
export interface StripeStandInOptions {
  port: number;
  host?: string;
  /** Where events are POSTed (the platform's `/api/webhooks/stripe`). */
  webhookUrl: string;
  /** The endpoint secret the webhook handler verifies with (`whsec_...`). */
  webhookSecret: string;
  /** The origin browsers reach the stand-in at, for checkout and portal URLs; defaults to the listening URL. */
  publicUrl?: string;
  /** Waits between delivery retries of a failed webhook; one retry per entry. */
  webhookRetryDelaysMs?: readonly number[];
  logger?: Logger;
  /** A state to continue from (e.g. one saved from `handle.state` as JSON); a fresh one by default. */
  state?: StripeState;
  /** Called after anything that may have changed the state (to save it; stripe/saved-state.ts). */
  onChange?: () => void;
  /**
   * Where Connect events (those of connected accounts, carrying `account`) are POSTed: the platform's
   * `/api/webhooks/stripe-connect`. Without it they are only recorded (`GET /_stand-in/events`).
   */
  connectWebhookUrl?: string;
  /** The Connect endpoint's own secret (`whsec_...`); required with `connectWebhookUrl`. */
  connectWebhookSecret?: string;
}

export interface StripeStandIn {
  url: string;
  /** The live state (one serialisable object). */
  state: StripeState;
  /** Resolves when every pending webhook retry has finished (tests). */
  webhooksIdle(): Promise<void>;
  stop(): Promise<void>;
}

/** Stripe accepts the secret key as a Bearer token or as the Basic-auth user name; any test key will do here. */
const apiKeyOf = (header: string | undefined): string | undefined => {
  if (!header) return undefined;
  const [scheme, value = ''] = header.split(' ');
  if (scheme?.toLowerCase() === 'bearer') return value.trim();
  if (scheme?.toLowerCase() === 'basic') return Buffer.from(value, 'base64').toString('utf8').split(':')[0];
  return undefined;
};

const authError = (key: string | undefined): StripeApiError | undefined => {
  if (!key) {
    return new StripeApiError(
      401,
      'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. \'Authorization: Bearer YOUR_SECRET_KEY\').',
    );
  }
  if (!/^(sk|rk)_test_/.test(key)) {
    const masked = key.length > 8 ? `${key.slice(0, 8)}${'*'.repeat(4)}${key.slice(-4)}` : key;
    return new StripeApiError(401, `Invalid API Key provided: ${masked}. The local stand-in accepts test keys (sk_test_...) only.`, 'api_key_invalid');
  }
  return undefined;
};

/** Parameters in a canonical form, so `a=1&b=2` and `b=2&a=1` count as the same request. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : item,
  );

const jsonBody = (raw: string): Record<string, unknown> => {
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return Object.fromEntries(new URLSearchParams(raw));
  }
};

export const startStripeStandIn = async (options: StripeStandInOptions): Promise<StripeStandIn> => {
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? { info: (line) => console.log(line), warn: (line) => console.warn(line) };
  const state = options.state ? continueFrom(options.state) : createState();
  let publicUrl = options.publicUrl?.replace(/\/$/, '') ?? '';
  if (options.connectWebhookUrl && !options.connectWebhookSecret) {
    throw new Error('connectWebhookUrl is set: set connectWebhookSecret too (the Connect endpoint\'s whsec_ secret).');
  }
  const api = createApi(state, { publicUrl: () => publicUrl });
  const connect = createConnect(state, { publicUrl: () => publicUrl });
  const retryDelaysMs = options.webhookRetryDelaysMs ?? [500, 2000, 5000];
  const webhooks = createWebhookSender({
    url: options.webhookUrl,
    secret: options.webhookSecret,
    deliveries: state.deliveries,
    retryDelaysMs,
    logger,
  });
  // Connect events go to their own endpoint, signed with its own secret, under the same retry policy.
  const connectWebhooks = options.connectWebhookUrl
    ? createWebhookSender({
        url: options.connectWebhookUrl,
        secret: options.connectWebhookSecret ?? '',
        deliveries: state.deliveries,
        retryDelaysMs,
        logger,
      })
    : undefined;
  const senderFor = (event: StripeEvent) => (event.account ? connectWebhooks : webhooks);

  // One queue, so the platform receives events in the order they happened.
  let queue: Promise<unknown> = Promise.resolve();
  const dispatch = (events: StripeEvent[]): Promise<void> => {
    const run = queue.then(async () => {
      for (const event of events) await senderFor(event)?.deliver(event);
    });
    queue = run.catch(() => undefined);
    return run;
  };
  const connectPages = connectHttp(state, connect, dispatch);

  const handleApi = async (req: IncomingMessage, res: ServerResponse, path: string, query: string): Promise<void> => {
    const method = req.method ?? 'GET';
    const requestId = newId('req', 14);
    const headers = { 'Request-Id': requestId, 'Stripe-Version': String(req.headers['stripe-version'] ?? apiVersion) };
    const raw = await readBody(req);
    const apiKey = apiKeyOf(req.headers.authorization);
    const failure = authError(apiKey);
    if (failure) {
      sendJson(res, failure.status, errorBody(failure), headers);
      return;
    }
    // `Stripe-Account: acct_...`: the call acts on that connected account (connect.ts), or is refused as Stripe does.
    const account = typeof req.headers['stripe-account'] === 'string' ? req.headers['stripe-account'] : undefined;
    if (account !== undefined && !state.accounts[account]) {
      const denied = noAccessTo(account, apiKey ?? '');
      sendJson(res, denied.status, errorBody(denied), headers);
      return;
    }
    if (account) Object.assign(headers, { 'Stripe-Account': account });
    const params: FormObject = method === 'GET' || method === 'DELETE' ? parseForm(query) : { ...parseForm(query), ...parseForm(raw) };
    const idempotencyKey = method === 'POST' ? (req.headers['idempotency-key'] as string | undefined) ?? null : null;
    // Stripe keeps idempotency keys per account: the same key on two accounts is two requests.
    const storedKey = idempotencyKey && account ? `${account}/${idempotencyKey}` : idempotencyKey;

    if (storedKey) {
      const earlier = state.idempotency[storedKey];
      if (earlier) {
        if (earlier.method !== method || earlier.path !== path || earlier.params !== canonical(params)) {
          const conflict = new StripeApiError(
            400,
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            undefined,
            undefined,
            'idempotency_error',
          );
          sendJson(res, 400, errorBody(conflict), headers);
          return;
        }
        res.writeHead(earlier.status, {
          'Content-Type': 'application/json',
          'Idempotent-Replayed': 'true',
          ...headers,
        });
        res.end(earlier.body);
        return;
      }
    }

    const cause: EventCause = { requestId, idempotencyKey };
    const request = { method, path, params, cause };
    const result = connect.handle({ ...request, account, apiKey: apiKey ?? '' }) ?? api.handle(request);
    const body = JSON.stringify(result.body, null, 2);
    // Only successful results are remembered: Stripe does not save a result for a request that failed validation.
    if (storedKey && result.status < 400) {
      state.idempotency[storedKey] = { method, path, params: canonical(params), status: result.status, body };
    }
    res.writeHead(result.status, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
      ...headers,
    });
    res.end(body);
    // Like Stripe, API-caused events are delivered after the answer, asynchronously.
    if (result.events.length > 0) void dispatch(result.events);
  };

  /** A platform session, or one on a connected account (Connect: direct charges). */
  const checkoutView = (id: string): CheckoutView | undefined => {
    const connected = connect.payments.findSession(id);
    if (connected) return connectPages.checkoutView(connected);
    // A subscription on a connected account (a creator's membership): its own customers and products.
    const billed = connect.billing.findSession(id);
    if (billed) {
      const scope = connect.billing.view(billed.account);
      const seller = state.accounts[billed.account];
      return {
        session: billed.session,
        customer: billed.session.customer ? scope.customers[billed.session.customer] : undefined,
        lines: billed.session.line_items_data.map((line) => ({ price: line.price, product: scope.products[line.price.product], quantity: line.quantity })),
        seller: seller ? (seller.business_profile.name ?? seller.email ?? seller.id) : undefined,
      };
    }
    const session = state.checkoutSessions[id];
    if (!session) return undefined;
    return {
      session,
      customer: session.customer ? state.customers[session.customer] : undefined,
      lines: session.line_items_data.map((line) => ({
        price: line.price,
        product: state.products[line.price.product],
        quantity: line.quantity,
      })),
    };
  };

  const fillSessionId = (target: string, sessionId: string): string =>
    target.replaceAll('{CHECKOUT_SESSION_ID}', sessionId).replaceAll('%7BCHECKOUT_SESSION_ID%7D', sessionId);

  const handleCheckout = async (req: IncomingMessage, res: ServerResponse, id: string, action: string | undefined) => {
    const raw = await readBody(req);
    const view = checkoutView(id);
    if (!view) {
      sendHtml(res, 404, notFoundPage('This checkout session does not exist. Sessions are kept in memory: was the stand-in restarted?'));
      return;
    }
    const { session } = view;
    if (!action && req.method === 'GET') {
      sendHtml(res, 200, checkoutPage(view));
      return;
    }
    if (action === 'pay' && req.method === 'POST') {
      // An expired session takes no payment: the page says so again, nothing is charged or sent.
      if (session.status === 'expired') {
        sendHtml(res, 409, checkoutPage(view));
        return;
      }
      // A session created without an email takes the one typed on the page, as Stripe's does (required).
      const typed = str(parseForm(raw)['email'])?.trim() ?? '';
      if (session.status === 'open' && !knownEmail(view) && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(typed)) {
        sendHtml(res, 400, checkoutPage({ ...view, error: EMAIL_FIELD_REQUIRED, typedEmail: typed }));
        return;
      }
      // A second click (or a resubmitted form) lands on the same success page without charging twice.
      const connected = session.status === 'open' ? connect.payments.findSession(session.id) : undefined;
      if (connected) {
        // Checked and counted in one synchronous step: a code that ran out meanwhile refuses the payment here.
        const outcome = connect.payments.pay(connected, knownEmail(view) ? undefined : typed);
        if ('refused' in outcome) {
          sendHtml(res, 409, checkoutPage({ ...view, error: outcome.refused }));
          return;
        }
        await dispatch(outcome.events);
      } else if (session.status === 'open') {
        if (!knownEmail(view)) session.customer_email = typed;
        const billing = connect.billing.findSession(session.id)?.api.billing ?? api.billing;
        await dispatch(billing.checkout.pay(session));
      }
      redirect(res, fillSessionId(session.success_url ?? '/', session.id));
      return;
    }
    if (action === 'cancel' && (req.method === 'POST' || req.method === 'GET')) {
      redirect(res, session.cancel_url ?? session.success_url ?? '/');
      return;
    }
    sendHtml(res, 405, notFoundPage('Use the Pay or Cancel button.'));
  };

  const handlePortal = async (req: IncomingMessage, res: ServerResponse, id: string, rest: string[]) => {
    await readBody(req);
    // The platform's own portal sessions, or one on a connected account (a creator's members manage theirs).
    const onAccount = state.portalSessions[id] ? undefined : connect.billing.findPortal(id);
    const scope = onAccount ? connect.billing.view(onAccount.account) : state;
    const billing = onAccount ? onAccount.api.billing : api.billing;
    const portal = onAccount?.portal ?? state.portalSessions[id];
    const customer = portal ? scope.customers[portal.customer] : undefined;
    if (!portal || !customer) {
      sendHtml(res, 404, notFoundPage('This billing portal session does not exist.'));
      return;
    }
    const [collection, subscriptionId, action] = rest;
    if (collection === 'subscriptions' && subscriptionId && action === 'cancel' && req.method === 'POST') {
      const sub = scope.subscriptions[subscriptionId];
      if (!sub || sub.customer !== customer.id) {
        sendHtml(res, 404, notFoundPage('This subscription does not belong to this customer.'));
        return;
      }
      // A connected account's portal cancels at the period's end (Stripe's default portal setting: what was paid
      // for runs out); the platform's own cancels at once, as it always has.
      if (sub.status !== 'canceled') {
        await dispatch(onAccount ? billing.subscriptions.update(sub, { cancelAtPeriodEnd: true }, automatic) : billing.subscriptions.cancel(sub, automatic));
      }
      redirect(res, `/billing_portal/${portal.id}`);
      return;
    }
    if (rest.length > 0 || req.method !== 'GET') {
      sendHtml(res, 404, notFoundPage('Not a billing portal page.'));
      return;
    }
    const subscriptions = Object.values(scope.subscriptions)
      .filter((sub) => sub.customer === customer.id)
      .reverse()
      .map((subscription) => {
        const price = subscription.items.data[0]?.price;
        return { subscription, price, name: (price && scope.products[price.product]?.name) ?? 'Subscription' };
      });
    sendHtml(res, 200, portalPage({ sessionId: portal.id, customer, returnUrl: portal.return_url, subscriptions }));
  };

  /** Test controls: not Stripe's API; JSON in, JSON out. */
  const handleControls = async (req: IncomingMessage, res: ServerResponse, parts: string[]) => {
    const body = jsonBody(await readBody(req));
    const method = req.method ?? 'GET';
    const [resource, id, action] = parts;
    const eventsOut = (events: StripeEvent[]) => events.map((event) => ({ id: event.id, type: event.type, delivery: state.deliveries[event.id] }));

    if (method === 'GET' && resource === 'health') return sendJson(res, 200, { ok: true });
    if (method === 'GET' && resource === 'state') return sendJson(res, 200, state);
    if (method === 'GET' && resource === 'events' && !id) {
      const search = new URL(req.url ?? '/', 'http://x').searchParams;
      const type = search.get('type');
      // `?account=acct_...` for one connected account's events, `?account=platform` for the platform's own.
      const account = search.get('account');
      const data = Object.values(state.events)
        .filter((event) => !type || event.type === type)
        .filter((event) => !account || (account === 'platform' ? !event.account : event.account === account))
        .map((event) => ({ event, delivery: state.deliveries[event.id] ?? null }));
      return sendJson(res, 200, { object: 'list', data });
    }
    if (method === 'POST' && resource === 'events' && id && action === 'redeliver') {
      const event = state.events[id];
      if (!event) return sendJson(res, 404, errorBody(new StripeApiError(404, `No such event: '${id}'`, 'resource_missing', 'id')));
      if (!senderFor(event)) {
        return sendJson(res, 409, errorBody(new StripeApiError(409, `${event.id} is a Connect event and no connectWebhookUrl is configured: it is only recorded.`)));
      }
      await dispatch([event]);
      return sendJson(res, 200, { event: { id: event.id, type: event.type }, delivery: state.deliveries[event.id] });
    }
    const connectControl = connectPages.control(method, parts, body);
    if (connectControl) {
      await dispatch(connectControl.events);
      return sendJson(res, 200, { ...connectControl.body, events: eventsOut(connectControl.events) });
    }
    if (method === 'POST' && resource === 'subscriptions' && id && action) {
      // The platform's own subscriptions, or one on a connected account (a membership): the same controls.
      const onAccount = state.subscriptions[id] ? undefined : connect.billing.findSubscription(id);
      const sub = onAccount?.subscription ?? state.subscriptions[id];
      if (!sub) return sendJson(res, 404, errorBody(new StripeApiError(404, `No such subscription: '${id}'`, 'resource_missing', 'id')));
      const billing = onAccount?.api.billing ?? api.billing;
      let events: StripeEvent[];
      if (action === 'end-trial') events = billing.subscriptions.endTrial(sub);
      else if (action === 'advance') events = billing.subscriptions.advancePeriod(sub);
      else if (action === 'fail-next-invoice') {
        (onAccount ? connect.billing.view(onAccount.account) : state).failNextInvoice[sub.id] = true;
        // `{"now": true}` also bills right away, so one call shows the failure.
        events = body.now === true ? billing.subscriptions.advancePeriod(sub) : [];
      } else {
        return sendJson(res, 404, { error: { type: 'invalid_request_error', message: `Unknown control: ${action}` } });
      }
      await dispatch(events);
      return sendJson(res, 200, { subscription: sub, events: eventsOut(events) });
    }
    return sendJson(res, 404, {
      error: {
        type: 'invalid_request_error',
        message: `Unknown stand-in control ${method} /_stand-in/${parts.join('/')}`,
      },
    });
  };

  /** Stripe's clock for Checkout: sessions past `expires_at` expire (and say so by webhook) before anyone reads them. */
  const expireDueSessions = (): void => {
    const events = [...api.billing.checkout.expireDue(), ...connect.payments.expireDue(), ...connect.billing.expireDue()];
    if (events.length === 0) return;
    void dispatch(events);
    options.onChange?.();
  };
  const expiryTimer = setInterval(expireDueSessions, 30_000);
  expiryTimer.unref();

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    expireDueSessions();
    const [pathPart = '/', query = ''] = (req.url ?? '/').split('?', 2) as [string, string?];
    const path = pathPart.replace(/\/+$/, '') || '/';
    const parts = path.split('/').filter(Boolean).map((part) => decodeURIComponent(part));
    const [root, id, ...rest] = parts;
    if (root === 'v1') return handleApi(req, res, path, query);
    if (root === 'checkout' && id) return handleCheckout(req, res, id, rest[0]);
    if (root === 'billing_portal' && id) return handlePortal(req, res, id, rest);
    if (root === 'connect' && id === 'onboarding' && rest[0]) return connectPages.onboarding(req, res, rest[0], rest[1]);
    if (root === '_stand-in') return handleControls(req, res, parts.slice(1));
    if (path === '/') return sendJson(res, 200, { service: 'local Stripe stand-in', apiVersion, docs: 'lib/local/stripe/' });
    sendHtml(res, 404, notFoundPage(`Nothing at ${path}.`));
  };

  const server = createServer((req, res) => {
    // Opening an onboarding link uses it up: that GET changes the state too.
    if ((req.method !== 'GET' || req.url?.startsWith('/connect/')) && options.onChange) res.once('finish', options.onChange);
    route(req, res).catch((error: unknown) => {
      const known = error instanceof StripeApiError ? error : undefined;
      if (!known) logger.warn(`[stripe stand-in] ${req.method} ${req.url} failed: ${(error as Error)?.stack ?? String(error)}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendJson(res, known?.status ?? 500, errorBody(known ?? new StripeApiError(500, 'The stand-in failed to handle this request.', undefined, undefined, 'api_error')));
    });
  });

  const url = await listenAt(server, options.port, host);
  publicUrl ||= url;

  return {
    url,
    state,
    async webhooksIdle() {
      // Queued events first (API calls deliver after answering), then any retries they scheduled.
      await queue;
      await Promise.all([webhooks.idle(), connectWebhooks?.idle()]);
    },
    async stop() {
      clearInterval(expiryTimer);
      webhooks.stop();
      connectWebhooks?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
};
