import { escapeHtml } from '../http-replies.ts';
import type { CheckoutSession, Customer, Price, Product, Subscription } from './state.ts';

/**
 * The stand-in's hosted pages (checkout and billing portal): small, static, accessible HTML with plain forms,
 * so they work in any browser and in Playwright without scripts.
 */
/** 2800 GBP pence -> "£28.00". */
export const formatMoney = (amount: number, currency: string): string =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);

const formatDate = (epochSeconds: number): string =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(epochSeconds * 1000),
  );

const styles = `
  :root { color-scheme: light; --ink:#1a1f36; --muted:#4f566b; --line:#e3e8ee; --brand:#635bff; --brand-dark:#4b44d6; }
  * { box-sizing: border-box; }
  body { margin:0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--ink);
    background:#f6f9fc; line-height:1.5; }
  main { max-width: 28rem; margin: 3rem auto; padding: 2rem; background:#fff; border:1px solid var(--line);
    border-radius: 12px; box-shadow: 0 4px 16px rgba(50,50,93,.08); }
  .badge { display:inline-block; font-size:.75rem; font-weight:600; letter-spacing:.04em; text-transform:uppercase;
    color:#8a4b00; background:#fff4d6; border-radius:4px; padding:.15rem .5rem; }
  h1 { font-size:1.5rem; margin:.75rem 0 .25rem; }
  .amount { font-size:2rem; font-weight:700; margin:.5rem 0; }
  .amount small { font-size:1rem; font-weight:500; color:var(--muted); }
  p, li { color:var(--muted); }
  dl { display:grid; grid-template-columns:auto 1fr; gap:.25rem 1rem; margin:1rem 0; }
  dt { font-weight:600; } dd { margin:0; color:var(--muted); }
  .actions { display:flex; gap:.75rem; margin-top:1.5rem; flex-wrap:wrap; }
  button, .link-button { font:inherit; font-weight:600; border-radius:8px; padding:.7rem 1.4rem; cursor:pointer;
    border:1px solid transparent; text-decoration:none; display:inline-block; }
  .primary { background:var(--brand); color:#fff; }
  .primary:hover { background:var(--brand-dark); }
  .secondary { background:#fff; color:var(--ink); border-color:#c1c9d2; }
  .danger { background:#fff; color:#a41c1c; border-color:#e5a5a5; }
  button:focus-visible, a:focus-visible { outline:3px solid #0a84ff; outline-offset:2px; }
  ul.subscriptions { list-style:none; padding:0; }
  ul.subscriptions > li { border:1px solid var(--line); border-radius:8px; padding:1rem; margin:.75rem 0; }
  ul.subscriptions h2 { font-size:1.15rem; margin:0 0 .25rem; color:var(--ink); }
  .status { font-weight:600; color:var(--ink); text-transform:capitalize; }
  footer { margin-top:1.5rem; font-size:.8rem; color:var(--muted); }
  .field { display:flex; flex-direction:column; gap:.25rem; margin:0 0 .75rem; width:100%; }
  .field label { font-weight:600; color:var(--ink); }
  .field input { font:inherit; padding:.6rem .75rem; border:1px solid #c1c9d2; border-radius:8px; width:100%; }
  .field input:focus-visible { outline:3px solid #0a84ff; outline-offset:2px; }
  .actions form.with-email { flex:1 1 100%; }
  .error { color:#a41c1c; background:#fdecec; border:1px solid #e5a5a5; border-radius:8px; padding:.75rem 1rem; }
`;

/** Every hosted page's frame (checkout, portal, Connect onboarding): same look, no scripts. */
export const layout = (title: string, body: string): string => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${styles}</style>
</head>
<body>
<main>
<span class="badge">Test mode</span>
${body}
<footer>Local Stripe stand-in: no real payment is taken.</footer>
</main>
</body>
</html>`;

export interface CheckoutView {
  session: CheckoutSession;
  lines: { price: Price; product: Product | undefined; quantity: number }[];
  customer: Customer | undefined;
  /** A session on a connected account: whom the buyer pays. */
  seller?: string;
  /** The discount taken off the subtotal, and the code (or coupon) that gave it. */
  discount?: { amount: number; label: string };
  /** Why the last Pay was refused (e.g. the promotion code ran out meanwhile). */
  error?: string;
  /** What the buyer typed in the email field, kept when the page is shown again. */
  typedEmail?: string;
}

/** The email a session was created with, or its customer's: none means the hosted page asks for one, as Stripe's does. */
export const knownEmail = (view: Pick<CheckoutView, 'session' | 'customer'>): string | null => view.customer?.email ?? view.session.customer_email ?? null;

export const EMAIL_FIELD_REQUIRED = 'Enter your email address: the receipt and what you bought go there.';

export const checkoutPage = ({ session, lines, customer, seller, discount, error, typedEmail }: CheckoutView): string => {
  const first = lines[0];
  const name = lines.map((line) => line.product?.name ?? line.price.nickname ?? line.price.id).join(', ');
  const recurring = first?.price.recurring ? ` <small>per ${first.price.recurring.interval}</small>` : '';
  const total = formatMoney(session.amount_total, session.currency);
  const trialDays = session.mode === 'subscription' ? session.subscription_data.trial_period_days : null;
  const email = knownEmail({ session, customer });

  if (session.status === 'expired') {
    const back = session.cancel_url ?? session.success_url;
    return layout(
      `${name}: checkout expired`,
      `<h1>This checkout has expired</h1>
<p>Nothing was charged. Start again from the platform to pay for ${escapeHtml(name)}.</p>
${back ? `<div class="actions"><a class="link-button secondary" href="${escapeHtml(back)}">Return to the platform</a></div>` : ''}`,
    );
  }

  if (session.status !== 'open') {
    return layout(
      `${name}: checkout complete`,
      `<h1>This checkout is already complete</h1>
<p>Your ${escapeHtml(name)} purchase went through.</p>
<div class="actions"><a class="link-button primary" href="${escapeHtml(session.success_url ?? '/')}">Continue</a></div>`,
    );
  }

  const trialNote =
    trialDays !== null
      ? `<p id="trial-note"><strong>${trialDays}-day free trial.</strong> You won't be charged today; then ${total} per ${first?.price.recurring?.interval ?? 'month'}.</p>`
      : '';
  const dueToday = trialDays !== null ? formatMoney(0, session.currency) : total;

  const discountRows = discount
    ? `<dt>Subtotal</dt><dd>${formatMoney(session.amount_subtotal, session.currency)}</dd>
  <dt>Discount</dt><dd>-${formatMoney(discount.amount, session.currency)} (${escapeHtml(discount.label)})</dd>
  `
    : '';
  return layout(
    `Pay for ${name}`,
    `${error ? `<p class="error" id="pay-error" role="alert">${escapeHtml(error)} Nothing was charged.</p>\n` : ''}<h1>${escapeHtml(name)}</h1>
${seller ? `<p>Sold by ${escapeHtml(seller)}</p>\n` : ''}<p class="amount">${total}${recurring}</p>
${trialNote}
<dl>
  ${discountRows}<dt>Due today</dt><dd>${dueToday}</dd>
  ${email ? `<dt>Email</dt><dd>${escapeHtml(email)}</dd>` : ''}
  <dt>Card</dt><dd>Test card 4242 4242 4242 4242</dd>
</dl>
<div class="actions">
  <form method="post" action="/checkout/${escapeHtml(session.id)}/pay"${email ? '' : ' class="with-email"'}>
    ${
      email
        ? ''
        : `<p class="field"><label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(typedEmail ?? '')}"${error ? ' aria-invalid="true" aria-describedby="pay-error"' : ''}></p>
    `
    }<button type="submit" class="primary"${trialDays !== null ? ' aria-describedby="trial-note"' : ''}>Pay</button>
  </form>
  <form method="post" action="/checkout/${escapeHtml(session.id)}/cancel">
    <button type="submit" class="secondary">Cancel</button>
  </form>
</div>`,
  );
};

export interface PortalView {
  sessionId: string;
  customer: Customer;
  returnUrl: string | null;
  subscriptions: { subscription: Subscription; name: string; price: Price | undefined }[];
}

const describe = ({ subscription, price }: PortalView['subscriptions'][number]): string => {
  const item = subscription.items.data[0];
  const amount = price ? `${formatMoney(price.unit_amount, price.currency)} per ${price.recurring?.interval ?? 'month'}` : '';
  if (subscription.status === 'canceled') {
    return `Canceled${subscription.canceled_at ? ` on ${formatDate(subscription.canceled_at)}` : ''}.`;
  }
  if (subscription.status === 'trialing' && subscription.trial_end) {
    return `Free trial until ${formatDate(subscription.trial_end)}, then ${amount}.`;
  }
  if (subscription.cancel_at_period_end && item) {
    return `${amount}; ends on ${formatDate(item.current_period_end)}.`;
  }
  return item ? `${amount}; renews on ${formatDate(item.current_period_end)}.` : amount;
};

export const portalPage = (view: PortalView): string => {
  const items = view.subscriptions.map((entry) => {
    const { subscription, name } = entry;
    const headingId = `sub-${escapeHtml(subscription.id)}`;
    const cancel =
      subscription.status === 'canceled'
        ? ''
        : `<form method="post" action="/billing_portal/${escapeHtml(view.sessionId)}/subscriptions/${escapeHtml(subscription.id)}/cancel">
      <button type="submit" class="danger" aria-describedby="${headingId}">Cancel subscription</button>
    </form>`;
    return `<li>
    <h2 id="${headingId}">${escapeHtml(name)} plan</h2>
    <p><span class="status">${escapeHtml(subscription.status.replace('_', ' '))}</span>. ${escapeHtml(describe(entry))}</p>
    ${cancel}
  </li>`;
  });
  const who = view.customer.email ?? view.customer.name ?? view.customer.id;
  return layout(
    'Manage your subscription',
    `<h1>Manage your subscription</h1>
<p>Signed in as ${escapeHtml(who)}.</p>
${items.length > 0 ? `<ul class="subscriptions">${items.join('\n')}</ul>` : '<p>You have no subscriptions.</p>'}
${view.returnUrl ? `<div class="actions"><a class="link-button secondary" href="${escapeHtml(view.returnUrl)}">Return to the platform</a></div>` : ''}`,
  );
};

export const notFoundPage = (what: string): string =>
  layout('Not found', `<h1>Not found</h1><p>${escapeHtml(what)}</p>`);
