import { createBilling } from './billing.ts';
import { errorBody, missing, StripeApiError } from './errors.ts';
import { renderSession, type EventCause } from './events.ts';
import { expand } from './expand.ts';
import { list, obj, str, type FormObject } from './form.ts';
import { boolean, email, expiry, integer, metadata, paginate, required, url } from './params.ts';
import {
  inlinePriceOf,
  mergeMetadata,
  newId,
  nowSeconds,
  type CheckoutSession,
  type LineItem,
  type Metadata,
  type Price,
  type StripeEvent,
  type StripeState,
  type Subscription,
} from './state.ts';

/**
 * The `/v1` REST subset the platform's Stripe adapter uses, answering with Stripe-shaped objects and errors.
 * Unknown parameters are ignored rather than refused: the stand-in implements a subset, and refusing parameters
 * it merely does not model would break calls that work against Stripe.
 */
export interface ApiRequest {
  method: string;
  path: string;
  params: FormObject;
  cause: EventCause;
}

export interface ApiResult {
  status: number;
  body: unknown;
  /** Events the call caused, to deliver after answering. */
  events: StripeEvent[];
}

type Handler = (request: ApiRequest, match: string[]) => { status?: number; body: unknown; events?: StripeEvent[] };

export const createApi = (state: StripeState, options: { publicUrl: () => string; account?: string }) => {
  const billing = createBilling(state, options.account);

  const resolve = (id: string): unknown => {
    const stores: [string, Record<string, unknown>][] = [
      ['cus_', state.customers],
      ['sub_', state.subscriptions],
      ['in_', state.invoices],
      ['price_', state.prices],
      ['prod_', state.products],
    ];
    for (const [prefix, store] of stores) if (id.startsWith(prefix) && store[id]) return structuredClone(store[id]);
    const session = state.checkoutSessions[id];
    return session ? renderSession(session) : id;
  };

  const expander = {
    resolve,
    lineItems: (sessionId: string) => {
      const found = state.checkoutSessions[sessionId];
      return found ? lineItemList(found) : null;
    },
  };

  const lineItemList = (session: CheckoutSession) => ({
    object: 'list',
    data: session.line_items_data,
    has_more: false,
    url: `/v1/checkout/sessions/${session.id}/line_items`,
  });

  const price = (id: string, param = 'id', status = 404): Price => {
    const found = state.prices[id];
    if (!found) throw missing('price', id, param, status);
    return found;
  };

  const customerOr = (id: string, param = 'id', status = 404) => {
    const found = state.customers[id];
    if (!found) throw missing('customer', id, param, status);
    return found;
  };

  const session = (id: string): CheckoutSession => {
    const found = state.checkoutSessions[id];
    if (!found) throw missing('checkout.session', id);
    return found;
  };

  /** `price_data` builds a one-off price, as Stripe does for ad-hoc amounts. */
  const inlinePrice = (data: FormObject, param: string): Price => {
    const productData = obj(data.product_data);
    const productId = str(data.product) ?? newId('prod', 14);
    if (!state.products[productId]) {
      state.products[productId] = {
        id: productId,
        object: 'product',
        active: true,
        name: required(str(productData?.name), `${param}[product_data][name]`),
        description: str(productData?.description) ?? null,
        created: nowSeconds(),
        livemode: false,
        metadata: {},
      };
    }
    const amount = required(integer(data.unit_amount, `${param}[unit_amount]`), `${param}[unit_amount]`);
    const currency = required(str(data.currency), `${param}[currency]`);
    const recurring = obj(data.recurring);
    const interval = recurring ? (str(recurring.interval) ?? 'month') : undefined;
    if (interval !== undefined && interval !== 'month' && interval !== 'year') {
      throw new StripeApiError(400, `Invalid ${param}[recurring][interval]: the stand-in supports month and year (got ${interval}).`, 'parameter_invalid_string', `${param}[recurring][interval]`);
    }
    const created = inlinePriceOf({ productId, currency, amount, recurring: interval ?? false });
    state.prices[created.id] = created;
    return created;
  };

  const createCheckoutSession: Handler = ({ params }) => {
    const mode = required(str(params.mode), 'mode');
    if (mode !== 'payment' && mode !== 'subscription') {
      throw new StripeApiError(400, `Invalid mode: must be one of payment, setup, or subscription (the stand-in supports payment and subscription)`, 'parameter_invalid_string', 'mode');
    }
    const customerId = str(params.customer);
    const customerEmail = email(params.customer_email, 'customer_email');
    if (customerId && customerEmail) {
      throw new StripeApiError(400, 'You may only specify one of these parameters: customer, customer_email.', 'parameter_unknown', 'customer_email');
    }
    if (customerId) customerOr(customerId, 'customer', 400);
    const successUrl = required(url(params.success_url, 'success_url'), 'success_url');
    const cancelUrl = url(params.cancel_url, 'cancel_url') ?? null;

    const lines = list(params.line_items) ?? [];
    if (lines.length === 0) {
      throw new StripeApiError(400, `line_items is required in ${mode} mode.`, 'parameter_missing', 'line_items');
    }
    const lineItems: LineItem[] = lines.map((raw, index) => {
      const line = obj(raw) ?? {};
      const param = `line_items[${index}]`;
      const priceId = str(line.price);
      const priceData = obj(line.price_data);
      const chosen = priceId ? price(priceId, `${param}[price]`, 400) : priceData ? inlinePrice(priceData, `${param}[price_data]`) : undefined;
      if (!chosen) throw new StripeApiError(400, `You must specify either \`price\` or \`price_data\` in ${param}.`, 'parameter_missing', `${param}[price]`);
      const quantity = integer(line.quantity, `${param}[quantity]`, 1) ?? 1;
      return {
        id: newId('li'),
        object: 'item',
        amount_subtotal: chosen.unit_amount * quantity,
        amount_total: chosen.unit_amount * quantity,
        currency: chosen.currency,
        description: state.products[chosen.product]?.name ?? chosen.id,
        price: chosen,
        quantity,
      };
    });
    const recurring = lineItems.filter((line) => line.price.type === 'recurring');
    if (mode === 'subscription' && recurring.length === 0) {
      throw new StripeApiError(400, 'You must provide at least one recurring price in `subscription` mode when using prices.', 'parameter_invalid', 'line_items');
    }
    if (mode === 'payment' && recurring.length > 0) {
      throw new StripeApiError(400, 'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.', 'parameter_invalid', 'line_items');
    }
    const currencies = new Set(lineItems.map((line) => line.currency));
    if (currencies.size > 1) throw new StripeApiError(400, 'All prices must use the same currency.', 'parameter_invalid', 'line_items');

    const subscriptionData = obj(params.subscription_data);
    if (subscriptionData && mode !== 'subscription') {
      throw new StripeApiError(400, 'You can only pass in subscription_data in `subscription` mode.', 'parameter_invalid', 'subscription_data');
    }
    const trialDays = integer(subscriptionData?.trial_period_days, 'subscription_data[trial_period_days]', 1) ?? null;
    if (trialDays !== null && trialDays > 730) {
      throw new StripeApiError(400, 'The maximum number of trial period days is 730 (2 years).', 'parameter_invalid_integer', 'subscription_data[trial_period_days]');
    }
    const clientReference = str(params.client_reference_id) ?? null;
    if (clientReference !== null && clientReference.length > 200) {
      throw new StripeApiError(400, 'client_reference_id must be at most 200 characters.', 'parameter_invalid_string', 'client_reference_id');
    }
    const sessionMetadata = metadata(params.metadata);
    const subscriptionMetadata = metadata(subscriptionData?.metadata, 'subscription_data[metadata]');

    const now = nowSeconds();
    const expiresAt = expiry(params.expires_at, now);
    const id = newId('cs_test', 58);
    const total = lineItems.reduce((sum, line) => sum + line.amount_total, 0);
    const created: CheckoutSession = {
      id,
      object: 'checkout.session',
      amount_subtotal: total,
      amount_total: total,
      cancel_url: cancelUrl,
      client_reference_id: clientReference,
      created: now,
      currency: lineItems[0]?.currency ?? 'gbp',
      customer: customerId ?? null,
      customer_email: customerEmail ?? null,
      expires_at: expiresAt,
      invoice: null,
      livemode: false,
      metadata: mergeMetadata({}, sessionMetadata),
      mode,
      payment_intent: null,
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      success_url: successUrl,
      ui_mode: 'hosted',
      url: `${options.publicUrl()}/checkout/${id}`,
      line_items_data: lineItems,
      subscription_data: { trial_period_days: trialDays, metadata: mergeMetadata({}, subscriptionMetadata) },
    };
    state.checkoutSessions[id] = created;
    return { body: renderSession(created) };
  };

  const updateCustomer: Handler = ({ params }, [, id = '']) => {
    const found = customerOr(id);
    const nextEmail = email(params.email, 'email');
    if (nextEmail !== undefined) found.email = nextEmail;
    for (const field of ['name', 'description', 'phone'] as const) {
      const value = str(params[field]);
      if (value !== undefined) found[field] = value === '' ? null : value;
    }
    found.metadata = mergeMetadata(found.metadata, metadata(params.metadata));
    return { body: found };
  };

  const createCustomer: Handler = ({ params }) => {
    // Everything is validated before the customer exists, so a refused call leaves nothing behind.
    const fields = {
      email: email(params.email, 'email') ?? null,
      name: str(params.name) || null,
      description: str(params.description) || null,
      phone: str(params.phone) || null,
      metadata: mergeMetadata({}, metadata(params.metadata)),
    };
    const created = billing.customers.create(fields);
    Object.assign(created, fields);
    return { body: created };
  };

  /**
   * DELETE /v1/customers/<id>, as Stripe does it: the customer's subscriptions still running end at once (each with its
   * customer.subscription.deleted), the customer is gone (`customer.deleted`), and the answer is the deleted stub
   * `{id, object: 'customer', deleted: true}`. A customer it does not know, or knows no more, is 404 resource_missing.
   */
  const deleteCustomer: Handler = ({ cause }, [, id = '']) => {
    const found = customerOr(id);
    const running = Object.values(state.subscriptions).filter((sub) => sub.customer === id && sub.status !== 'canceled');
    const events = running.flatMap((sub) => billing.subscriptions.cancel(sub, cause));
    delete state.customers[id];
    events.push(billing.emit('customer.deleted', found, cause));
    return { body: { id, object: 'customer', deleted: true }, events };
  };

  const updateSubscription: Handler = ({ params, cause }, [, id = '']) => {
    const sub = billing.subscriptions.find(id);
    const items = (list(params.items) ?? []).map((raw, index) => {
      const item = obj(raw) ?? {};
      return {
        itemId: required(str(item.id), `items[${index}][id]`),
        price: price(required(str(item.price), `items[${index}][price]`), `items[${index}][price]`, 400),
      };
    });
    const nextMetadata = metadata(params.metadata);
    const events = billing.subscriptions.update(
      sub,
      {
        cancelAtPeriodEnd: boolean(params.cancel_at_period_end, 'cancel_at_period_end'),
        metadata: nextMetadata === undefined ? undefined : mergeMetadata(sub.metadata, nextMetadata),
        priceSwaps: items,
      },
      cause,
    );
    return { body: sub, events };
  };

  const listSubscriptions: Handler = ({ params }) => {
    const customer = str(params.customer);
    const status = str(params.status);
    const priceId = str(params.price);
    const matches = Object.values(state.subscriptions).filter(
      (sub: Subscription) =>
        (!customer || sub.customer === customer) &&
        // Like Stripe: without a status filter, canceled subscriptions are left out.
        (status === 'all' || (status ? sub.status === status : sub.status !== 'canceled')) &&
        (!priceId || sub.items.data.some((item) => item.price.id === priceId)),
    );
    return { body: paginate(matches, params, '/v1/subscriptions') };
  };

  const createPortalSession: Handler = ({ params }) => {
    const customerId = required(str(params.customer), 'customer');
    customerOr(customerId, 'customer', 400);
    const id = newId('bps');
    const created = {
      id,
      object: 'billing_portal.session' as const,
      configuration: 'bpc_local_default',
      created: nowSeconds(),
      customer: customerId,
      livemode: false as const,
      locale: null,
      on_behalf_of: null,
      return_url: url(params.return_url, 'return_url') ?? null,
      url: `${options.publicUrl()}/billing_portal/${id}`,
    };
    state.portalSessions[id] = created;
    return { body: created };
  };

  const metadataFilter = (value: Metadata, params: FormObject): boolean => {
    const wanted = obj(params.metadata);
    return !wanted || Object.entries(wanted).every(([key, item]) => value[key] === str(item));
  };

  const routes: [string, RegExp, Handler][] = [
    ['POST', /^\/v1\/customers$/, createCustomer],
    ['GET', /^\/v1\/customers$/, ({ params }) => {
      const wanted = str(params.email);
      return { body: paginate(Object.values(state.customers).filter((item) => (!wanted || item.email === wanted) && metadataFilter(item.metadata, params)), params, '/v1/customers') };
    }],
    ['GET', /^\/v1\/customers\/([^/]+)$/, (_request, [, id = '']) => ({ body: customerOr(id) })],
    ['POST', /^\/v1\/customers\/([^/]+)$/, updateCustomer],
    ['DELETE', /^\/v1\/customers\/([^/]+)$/, deleteCustomer],

    ['GET', /^\/v1\/prices$/, ({ params }) => {
      const active = boolean(params.active, 'active');
      const type = str(params.type);
      const product = str(params.product);
      const lookupKeys = (list(params.lookup_keys) ?? []).map(str);
      const matches = Object.values(state.prices).filter(
        (item) =>
          (active === undefined || item.active === active) &&
          (!type || item.type === type) &&
          (!product || item.product === product) &&
          (lookupKeys.length === 0 || lookupKeys.includes(item.lookup_key ?? undefined)),
      );
      return { body: paginate(matches, params, '/v1/prices') };
    }],
    ['GET', /^\/v1\/prices\/([^/]+)$/, (_request, [, id = '']) => ({ body: price(id) })],
    ['GET', /^\/v1\/products\/([^/]+)$/, (_request, [, id = '']) => {
      const found = state.products[id];
      if (!found) throw missing('product', id);
      return { body: found };
    }],

    ['POST', /^\/v1\/checkout\/sessions$/, createCheckoutSession],
    ['GET', /^\/v1\/checkout\/sessions$/, ({ params }) => {
      const customer = str(params.customer);
      const subscription = str(params.subscription);
      const status = str(params.status);
      const matches = Object.values(state.checkoutSessions).filter(
        (item) =>
          (!customer || item.customer === customer) &&
          (!subscription || item.subscription === subscription) &&
          (!status || item.status === status),
      );
      return { body: paginate(matches.map(renderSession), params, '/v1/checkout/sessions') };
    }],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, (_request, [, id = '']) => ({ body: renderSession(session(id)) })],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/, (_request, [, id = '']) => ({ body: lineItemList(session(id)) })],
    ['POST', /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, ({ cause }, [, id = '']) => {
      const found = session(id);
      const events = billing.checkout.expire(found, cause);
      return { body: renderSession(found), events };
    }],

    ['GET', /^\/v1\/subscriptions$/, listSubscriptions],
    ['GET', /^\/v1\/subscriptions\/([^/]+)$/, (_request, [, id = '']) => ({ body: billing.subscriptions.find(id) })],
    ['POST', /^\/v1\/subscriptions\/([^/]+)$/, updateSubscription],
    ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, ({ cause }, [, id = '']) => {
      const sub = billing.subscriptions.find(id);
      return { body: sub, events: billing.subscriptions.cancel(sub, cause) };
    }],

    ['GET', /^\/v1\/invoices\/([^/]+)$/, (_request, [, id = '']) => {
      const found = state.invoices[id];
      if (!found) throw missing('invoice', id);
      return { body: found };
    }],

    ['POST', /^\/v1\/billing_portal\/sessions$/, createPortalSession],

    ['GET', /^\/v1\/events$/, ({ params }) => {
      const type = str(params.type);
      // Events of connected accounts are theirs: the platform reads them with the Stripe-Account header (connect.ts).
      const own = Object.values(state.events).filter((item) => !item.account && (!type || item.type === type));
      return { body: paginate(own, params, '/v1/events') };
    }],
    ['GET', /^\/v1\/events\/([^/]+)$/, (_request, [, id = '']) => {
      const found = state.events[id];
      if (!found || found.account) throw missing('event', id);
      return { body: found };
    }],
  ];

  const handle = (request: ApiRequest): ApiResult => {
    try {
      for (const [method, pattern, handler] of routes) {
        if (method !== request.method) continue;
        const match = pattern.exec(request.path);
        if (!match) continue;
        const decoded = match.map((part) => decodeURIComponent(part));
        const result = handler(request, decoded);
        return { status: result.status ?? 200, body: expand(result.body, request.params, expander), events: result.events ?? [] };
      }
      throw new StripeApiError(
        404,
        `Unrecognized request URL (${request.method}: ${request.path}). The local Stripe stand-in implements only part of the API.`,
      );
    } catch (error) {
      if (error instanceof StripeApiError) return { status: error.status, body: errorBody(error), events: [] };
      throw error;
    }
  };

  return { handle, billing };
};

export type Api = ReturnType<typeof createApi>;
