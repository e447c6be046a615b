import { createApi, type Api, type ApiRequest, type ApiResult } from './api.ts';
import type { Accounts } from './accounts.ts';
import { errorBody, StripeApiError } from './errors.ts';
import { str } from './form.ts';
import type { CheckoutSession, PortalSession, StripeState, Subscription } from './state.ts';

/**
 * Stripe Billing on connected accounts (a creator's memberships: subscriptions on the creator's own account, no
 * platform fee). The platform's billing (api.ts and its modules) runs unchanged over a view of one account's
 * objects: its products and prices, and its billing scope (customers, subscription-mode sessions, subscriptions,
 * invoices, portal sessions), while the event log is the stand-in's one, so every event it records carries the
 * account and goes to the Connect endpoint. One implementation of the lifecycle for the platform and its creators.
 */
export const connectBilling = (state: StripeState, deps: { accounts: Accounts; publicUrl: () => string }) => {
  const apis = new Map<string, Api>();

  /** The account's objects seen as a whole state; writes land in the account's namespace (saved with it). */
  const viewOf = (account: string): StripeState => {
    const data = deps.accounts.scope(account);
    const { billing } = data;
    const view: StripeState = {
      ...state,
      products: data.products,
      prices: data.prices,
      customers: billing.customers,
      checkoutSessions: billing.checkoutSessions,
      subscriptions: billing.subscriptions,
      invoices: billing.invoices,
      portalSessions: billing.portalSessions,
      failNextInvoice: billing.failNextInvoice,
    };
    Object.defineProperty(view, 'invoiceSequence', {
      get: () => billing.invoiceSequence,
      set: (value: number) => {
        billing.invoiceSequence = value;
      },
    });
    return view;
  };

  const apiOf = (account: string): Api => {
    let api = apis.get(account);
    if (!api) {
      api = createApi(viewOf(account), { publicUrl: deps.publicUrl, account });
      apis.set(account, api);
    }
    return api;
  };

  /** Paths the account's billing answers: its customers, subscriptions, invoices and portal sessions. */
  const billingPath = /^\/v1\/(customers|subscriptions|invoices|billing_portal\/sessions)(\/|$)/;
  const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)/;

  /** Every account's billing scope, for the hosted pages and test controls that know an id only. */
  const scopes = () => Object.entries(state.connected).map(([account, data]) => ({ account, billing: data.billing }));

  return {
    /**
     * The answer to a call on `account` that is billing's (a subscription-mode Checkout Session, one of its
     * sessions, a customer, subscription, invoice or portal session), or undefined when it is not.
     */
    handle(request: ApiRequest, account: string): ApiResult | undefined {
      const { billing } = deps.accounts.scope(account);
      const subscriptionCheckout =
        request.method === 'POST' && request.path === '/v1/checkout/sessions' && str(request.params.mode) === 'subscription';
      const ownSession = sessionPath.exec(request.path)?.[1];
      if (!subscriptionCheckout && !billingPath.test(request.path) && !(ownSession && billing.checkoutSessions[ownSession])) return undefined;
      // As for a payment: an account that may not take charges refuses the checkout before anything else.
      if (subscriptionCheckout && !deps.accounts.find(account)?.charges_enabled) {
        const refused = new StripeApiError(
          400,
          `Your account cannot currently make charges. To find out why charge creation is currently disabled, look at the \`requirements.disabled_reason\` property on this account (/v1/accounts/${account}).`,
        );
        return { status: 400, body: errorBody(refused), events: [] };
      }
      return apiOf(account).handle(request);
    },

    /** A subscription-mode session on some connected account, with the billing that can pay it. */
    findSession(id: string): { session: CheckoutSession; account: string; api: Api } | undefined {
      for (const { account, billing } of scopes()) {
        const session = billing.checkoutSessions[id];
        if (session) return { session, account, api: apiOf(account) };
      }
      return undefined;
    },

    findPortal(id: string): { portal: PortalSession; account: string; api: Api } | undefined {
      for (const { account, billing } of scopes()) {
        const portal = billing.portalSessions[id];
        if (portal) return { portal, account, api: apiOf(account) };
      }
      return undefined;
    },

    findSubscription(id: string): { subscription: Subscription; account: string; api: Api } | undefined {
      for (const { account, billing } of scopes()) {
        const subscription = billing.subscriptions[id];
        if (subscription) return { subscription, account, api: apiOf(account) };
      }
      return undefined;
    },

    /** The account's view (its customers and products), for the hosted pages. */
    view: viewOf,

    /** The clock: open subscription-mode sessions past `expires_at` expire on every account. */
    expireDue() {
      return scopes().flatMap(({ account }) => apiOf(account).billing.checkout.expireDue());
    },
  };
};

export type ConnectBilling = ReturnType<typeof connectBilling>;
