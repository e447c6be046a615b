import { accounts, noAccessTo } from './accounts.ts';
import { connectBilling } from './connect-billing.ts';
import type { ApiRequest, ApiResult } from './api.ts';
import { connectPayments } from './connect-payments.ts';
import { emptyConnected, type ConnectCheckoutSession, type ConnectedData } from './connect-state.ts';
import { discounts } from './discounts.ts';
import { errorBody, missing, StripeApiError } from './errors.ts';
import { renderSession } from './events.ts';
import { expand } from './expand.ts';
import { obj, str, type FormObject } from './form.ts';
import { email, metadata, paginate, required, url } from './params.ts';
import { mergeMetadata, type StripeEvent, type StripeState } from './state.ts';

/**
 * Stripe Connect's part of `/v1`: the platform's own calls about its connected accounts (`/v1/accounts`,
 * `/v1/account_links`), and calls made on a connected account with the `Stripe-Account` header (Checkout Sessions,
 * PaymentIntents, Charges, Refunds, Disputes, Coupons, Promotion Codes, Events). An account's objects live in its
 * own namespace, so a call without its header (or with another account's) finds none of them: `resource_missing`,
 * as Stripe scopes them. Unknown parameters are ignored, as in api.ts.
 */
export interface ConnectRequest extends ApiRequest {
  /** The `Stripe-Account` header, already checked to name a connected account. */
  account: string | undefined;
  /** The secret key used (Stripe names it, masked, in permission errors). */
  apiKey: string;
}

type Result = { status?: number; body: unknown; events?: StripeEvent[] };
type PlatformHandler = (request: ConnectRequest, match: string[]) => Result;
type AccountHandler = (request: ConnectRequest, match: string[], data: ConnectedData, account: string | undefined) => Result;

/** Calls made on a connected account, for the "not implemented there" message. */
const onAccounts =
  'checkout sessions (payment and subscription mode), customers, subscriptions, invoices, billing_portal sessions, payment_intents, charges, refunds, disputes, coupons, promotion_codes, prices, products, events and GET /v1/account';

export const createConnect = (state: StripeState, options: { publicUrl: () => string }) => {
  const accountStore = accounts(state);
  const discountRules = discounts();
  const payments = connectPayments(state, { accounts: accountStore, discounts: discountRules, publicUrl: options.publicUrl });
  const billing = connectBilling(state, { accounts: accountStore, publicUrl: options.publicUrl });

  const lineItemList = (session: ConnectCheckoutSession) => ({
    object: 'list',
    data: session.line_items_data,
    has_more: false,
    url: `/v1/checkout/sessions/${session.id}/line_items`,
  });

  /** Ids expand within the account's own objects only. */
  const expanderFor = (data: ConnectedData) => ({
    resolve(id: string): unknown {
      const stores: [string, Record<string, unknown>][] = [
        ['pi_', data.paymentIntents],
        ['ch_', data.charges],
        ['re_', data.refunds],
        ['dp_', data.disputes],
        ['promo_', data.promotionCodes],
        ['price_', data.prices],
        ['prod_', data.products],
      ];
      for (const [prefix, store] of stores) if (id.startsWith(prefix) && store[id]) return structuredClone(store[id]);
      if (data.checkoutSessions[id]) return renderSession(data.checkoutSessions[id]);
      return data.coupons[id] ? structuredClone(data.coupons[id]) : id;
    },
    lineItems: (sessionId: string) => {
      const found = data.checkoutSessions[sessionId];
      return found ? lineItemList(found) : null;
    },
  });

  const lookup = <T>(store: Record<string, T>, kind: string, id: string): T => {
    const found = store[id];
    if (!found) throw missing(kind, id);
    return found;
  };

  const createAccount: PlatformHandler = ({ params }) => {
    const type = str(params.type);
    if (type === undefined && !obj(params.controller)) {
      throw new StripeApiError(400, 'You must provide either `type` or `controller` to create an account.', 'parameter_missing', 'type');
    }
    if (type !== undefined && type !== 'standard') {
      throw new StripeApiError(400, `The local Stripe stand-in supports Standard accounts only (type=standard), not type=${type}.`, 'parameter_invalid_string', 'type');
    }
    const country = (str(params.country) ?? 'GB').toUpperCase();
    if (!/^[A-Z]{2}$/.test(country)) throw new StripeApiError(400, `Invalid country: ${country}`, 'parameter_invalid_string', 'country');
    const fields = {
      email: email(params.email, 'email') ?? null,
      country,
      metadata: mergeMetadata({}, metadata(params.metadata)),
    };
    const profile = obj(params.business_profile);
    const profileUrl = url(profile?.url, 'business_profile[url]');
    const created = accountStore.create(fields);
    const name = str(profile?.name);
    if (name) created.business_profile.name = name;
    if (profileUrl) {
      created.business_profile.url = profileUrl;
      const given = (due: string[]) => due.filter((item) => item !== 'business_profile.url');
      const { requirements } = created;
      Object.assign(requirements, {
        currently_due: given(requirements.currently_due),
        eventually_due: given(requirements.eventually_due),
        past_due: given(requirements.past_due),
      });
    }
    return { body: created };
  };

  const createAccountLink: PlatformHandler = ({ params, apiKey }) => {
    const accountId = required(str(params.account), 'account');
    const account = accountStore.find(accountId);
    if (!account) throw noAccessTo(accountId, apiKey);
    const type = required(str(params.type), 'type');
    if (type !== 'account_onboarding') {
      throw new StripeApiError(400, `Invalid type: the local stand-in supports account_onboarding links only (got ${type}).`, 'parameter_invalid_string', 'type');
    }
    const refreshUrl = required(url(params.refresh_url, 'refresh_url'), 'refresh_url');
    const returnUrl = required(url(params.return_url, 'return_url'), 'return_url');
    const link = accountStore.createLink(account, { refreshUrl, returnUrl }, options.publicUrl());
    return { body: accountStore.renderLink(link) };
  };

  const platformRoutes: [string, RegExp, PlatformHandler][] = [
    ['POST', /^\/v1\/accounts$/, createAccount],
    ['GET', /^\/v1\/accounts$/, ({ params }) => ({ body: paginate(Object.values(state.accounts), params, '/v1/accounts') })],
    ['GET', /^\/v1\/accounts\/([^/]+)$/, ({ apiKey }, [, id = '']) => {
      const found = accountStore.find(id);
      if (!found) throw noAccessTo(id, apiKey);
      return { body: found };
    }],
    ['POST', /^\/v1\/account_links$/, createAccountLink],
  ];

  const sessionOf = (data: ConnectedData, id: string) => lookup(data.checkoutSessions, 'checkout.session', id);

  const accountRoutes: [string, RegExp, AccountHandler][] = [
    ['GET', /^\/v1\/account$/, ({ apiKey }, _match, _data, account) => {
      const found = account ? accountStore.find(account) : undefined;
      if (!found) throw noAccessTo(account ?? '', apiKey);
      return { body: found };
    }],

    ['POST', /^\/v1\/checkout\/sessions$/, ({ params }, _match, _data, account) => ({
      body: renderSession(payments.create(accountStore.find(account ?? '')!, params)),
    })],
    ['GET', /^\/v1\/checkout\/sessions$/, ({ params }, _match, data) => {
      const status = str(params.status);
      const intent = str(params.payment_intent);
      const matches = Object.values(data.checkoutSessions).filter(
        (item) => (!status || item.status === status) && (!intent || item.payment_intent === intent),
      );
      return { body: paginate(matches.map((item) => renderSession(item)), params, '/v1/checkout/sessions') };
    }],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, (_request, [, id = ''], data) => ({ body: renderSession(sessionOf(data, id)) })],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/, (_request, [, id = ''], data) => ({ body: lineItemList(sessionOf(data, id)) })],
    ['POST', /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, ({ cause }, [, id = ''], data) => {
      const found = sessionOf(data, id);
      const events = payments.expire(found, cause);
      return { body: renderSession(found), events };
    }],

    ['GET', /^\/v1\/payment_intents\/([^/]+)$/, (_request, [, id = ''], data) => ({ body: lookup(data.paymentIntents, 'payment_intent', id) })],
    ['GET', /^\/v1\/charges$/, ({ params }, _match, data) => {
      const intent = str(params.payment_intent);
      return { body: paginate(Object.values(data.charges).filter((item) => !intent || item.payment_intent === intent), params, '/v1/charges') };
    }],
    ['GET', /^\/v1\/charges\/([^/]+)$/, (_request, [, id = ''], data) => ({ body: lookup(data.charges, 'charge', id) })],
    ['POST', /^\/v1\/refunds$/, ({ params, cause }, _match, _data, account) => {
      // Without the header there is no account to refund on: the ids given are unknown, as they are to Stripe.
      if (!account) {
        const intent = str(params.payment_intent);
        throw intent ? missing('payment_intent', intent, 'payment_intent', 400) : missing('charge', str(params.charge) ?? '', 'charge', 400);
      }
      const { refund, events } = payments.refund(account, params, cause);
      return { body: refund, events };
    }],
    ['GET', /^\/v1\/refunds$/, ({ params }, _match, data) => {
      const charge = str(params.charge);
      const intent = str(params.payment_intent);
      const matches = Object.values(data.refunds).filter((item) => (!charge || item.charge === charge) && (!intent || item.payment_intent === intent));
      return { body: paginate(matches, params, '/v1/refunds') };
    }],
    ['GET', /^\/v1\/refunds\/([^/]+)$/, (_request, [, id = ''], data) => ({ body: lookup(data.refunds, 'refund', id) })],
    ['GET', /^\/v1\/disputes\/([^/]+)$/, (_request, [, id = ''], data) => ({ body: lookup(data.disputes, 'dispute', id) })],

    ['POST', /^\/v1\/coupons$/, ({ params }, _match, data) => ({ body: discountRules.createCoupon(data, params) })],
    ['GET', /^\/v1\/coupons$/, ({ params }, _match, data) => ({ body: discountRules.listCoupons(data, params) })],
    ['GET', /^\/v1\/coupons\/([^/]+)$/, (_request, [, id = ''], data) => ({ body: discountRules.coupon(data, id) })],
    ['DELETE', /^\/v1\/coupons\/([^/]+)$/, (_request, [, id = ''], data) => ({ body: discountRules.deleteCoupon(data, id) })],
    ['POST', /^\/v1\/promotion_codes$/, ({ params }, _match, data) => ({ body: discountRules.createPromotionCode(data, params) })],
    ['GET', /^\/v1\/promotion_codes$/, ({ params }, _match, data) => ({ body: discountRules.listPromotionCodes(data, params) })],
    ['GET', /^\/v1\/promotion_codes\/([^/]+)$/, (_request, [, id = ''], data) => ({ body: discountRules.promotionCode(data, id) })],
    ['POST', /^\/v1\/promotion_codes\/([^/]+)$/, ({ params }, [, id = ''], data) => ({ body: discountRules.updatePromotionCode(data, id, params) })],

    ['GET', /^\/v1\/prices\/([^/]+)$/, (_request, [, id = ''], data) => ({ body: lookup(data.prices, 'price', id) })],
    ['GET', /^\/v1\/products\/([^/]+)$/, (_request, [, id = ''], data) => ({ body: lookup(data.products, 'product', id) })],
    ['GET', /^\/v1\/events$/, ({ params }, _match, _data, account) => {
      const type = str(params.type);
      const own = Object.values(state.events).filter((item) => item.account === account && (!type || item.type === type));
      return { body: paginate(own, params, '/v1/events') };
    }],
    ['GET', /^\/v1\/events\/([^/]+)$/, (_request, [, id = ''], _data, account) => {
      const found = state.events[id];
      if (!found || found.account !== account) throw missing('event', id);
      return { body: found };
    }],
  ];

  /** Routes the platform answers itself (api.ts) when no account is named. */
  const platformsOwn = /^\/v1\/(checkout|events|prices|products|account$)/;
  /** Creating these needs an account: the stand-in keeps them on connected accounts only. */
  const accountOnlyCreation = /^\/v1\/(coupons|promotion_codes)(\/[^/]+)?$/;

  const run = (request: ConnectRequest): Result | undefined => {
    for (const [method, pattern, handler] of platformRoutes) {
      const match = method === request.method ? pattern.exec(request.path) : null;
      if (match) return handler(request, match.map((part) => decodeURIComponent(part)));
    }
    const { account } = request;
    if (!account && platformsOwn.test(request.path)) return undefined;
    for (const [method, pattern, handler] of accountRoutes) {
      const match = method === request.method ? pattern.exec(request.path) : null;
      if (!match) continue;
      if (!account && request.method === 'POST' && accountOnlyCreation.test(request.path)) {
        throw new StripeApiError(
          400,
          'The local Stripe stand-in keeps coupons and promotion codes on connected accounts only: send the Stripe-Account header.',
        );
      }
      // No header: the platform's own namespace, which holds none of these objects.
      const data = account ? accountStore.scope(account) : emptyConnected();
      return handler(request, match.map((part) => decodeURIComponent(part)), data, account);
    }
    if (!account) return undefined;
    throw new StripeApiError(
      404,
      `Unrecognized request URL (${request.method}: ${request.path}) on a connected account. The local Stripe stand-in implements there: ${onAccounts}.`,
    );
  };

  return {
    accounts: accountStore,
    payments,
    billing,

    /** The answer to a Connect call, or undefined when the call is the platform's own (api.ts answers it). */
    handle(request: ConnectRequest): ApiResult | undefined {
      try {
        // Subscriptions on the account (memberships) are Stripe Billing's, as on the platform: connect-billing.ts.
        const billed = request.account ? billing.handle(request, request.account) : undefined;
        if (billed) return billed;
        const result = run(request);
        if (!result) return undefined;
        const data = request.account ? accountStore.scope(request.account) : emptyConnected();
        return { status: result.status ?? 200, body: expand(result.body, request.params as FormObject, expanderFor(data)), events: result.events ?? [] };
      } catch (error) {
        if (error instanceof StripeApiError) return { status: error.status, body: errorBody(error), events: [] };
        throw error;
      }
    },
  };
};

export type Connect = ReturnType<typeof createConnect>;
