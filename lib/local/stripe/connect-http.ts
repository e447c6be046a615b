import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Connect } from './connect.ts';
import { onboardingPage } from './connect-pages.ts';
import type { ConnectCheckoutSession } from './connect-state.ts';
import { missing, StripeApiError } from './errors.ts';
import { automatic } from './events.ts';
import { readBody, redirect, sendHtml } from './http.ts';
import { notFoundPage, type CheckoutView } from './pages.ts';
import { nowSeconds, type StripeEvent, type StripeState } from './state.ts';

/**
 * Connect's browser side and test controls: the onboarding page an Account Link opens (single use, five minutes,
 * like Stripe's: a used or expired link sends the browser to its refresh_url), the hosted checkout's view of a
 * session on a connected account, and `/_stand-in/accounts/<id>/ready`, `/_stand-in/charges/<id>/dispute`.
 */
export const connectHttp = (state: StripeState, connect: Connect, dispatch: (events: StripeEvent[]) => Promise<void>) => ({
  async onboarding(req: IncomingMessage, res: ServerResponse, token: string, action: string | undefined): Promise<void> {
    await readBody(req);
    const link = state.accountLinks[token];
    const account = link ? state.accounts[link.account] : undefined;
    if (!link || !account) {
      sendHtml(res, 404, notFoundPage('This onboarding link does not exist. Ask the platform for a new one.'));
      return;
    }
    const fresh = link.status === 'new' && nowSeconds() < link.expires_at;
    if (!action && req.method === 'GET') {
      if (!fresh) return redirect(res, link.refresh_url);
      link.status = 'opened';
      sendHtml(res, 200, onboardingPage(link, account));
      return;
    }
    if ((action === 'complete' || action === 'later') && req.method === 'POST') {
      // The form of a page that was shown may be sent once; anything else asks the platform for a new link.
      if (!fresh && link.status !== 'opened') return redirect(res, link.refresh_url);
      link.status = 'submitted';
      const events = action === 'complete' ? connect.accounts.complete(account, automatic) : connect.accounts.saveForLater(account, automatic);
      await dispatch(events);
      return redirect(res, link.return_url);
    }
    sendHtml(res, 405, notFoundPage('Use the Complete onboarding or Save and return later button.'));
  },

  checkoutView(session: ConnectCheckoutSession): CheckoutView {
    const data = state.connected[session.connect_data.account];
    const account = state.accounts[session.connect_data.account];
    const promo = session.connect_data.promotion_code ? data?.promotionCodes[session.connect_data.promotion_code] : undefined;
    const coupon = session.connect_data.coupon ? data?.coupons[session.connect_data.coupon] : undefined;
    const amount = session.total_details.amount_discount;
    return {
      session,
      customer: undefined,
      lines: session.line_items_data.map((line) => ({ price: line.price, product: data?.products[line.price.product], quantity: line.quantity })),
      seller: account ? (account.business_profile.name ?? account.email ?? account.id) : undefined,
      discount: amount > 0 ? { amount, label: promo?.code ?? coupon?.name ?? session.connect_data.coupon ?? 'discount' } : undefined,
    };
  },

  /** A Connect test control, or undefined when the path is not one. */
  control(method: string, parts: string[], body: Record<string, unknown>): { body: Record<string, unknown>; events: StripeEvent[] } | undefined {
    const [resource, id, action] = parts;
    if (method === 'POST' && resource === 'accounts' && id && action === 'ready') {
      const account = state.accounts[id];
      if (!account) throw missing('account', id);
      return { body: { account }, events: connect.accounts.complete(account, automatic) };
    }
    if (method === 'POST' && resource === 'charges' && id && action === 'dispute') {
      const amount = body.amount;
      if (amount !== undefined && (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1)) {
        throw new StripeApiError(400, 'amount must be a positive integer (minor units).', 'parameter_invalid_integer', 'amount');
      }
      const opened = connect.payments.dispute(id, {
        reason: typeof body.reason === 'string' ? body.reason : undefined,
        amount: amount as number | undefined,
      });
      if (!opened) throw missing('charge', id);
      return { body: { dispute: opened.dispute }, events: opened.events };
    }
    return undefined;
  },
});
