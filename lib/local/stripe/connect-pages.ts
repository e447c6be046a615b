import type { Account, AccountLinkRecord } from './connect-state.ts';
import { escapeHtml } from '../http-replies.ts';
import { layout } from './pages.ts';

/**
 * The hosted Connect onboarding an Account Link opens: it names the account and offers the two ways out of Stripe's
 * real form, finishing it or leaving it part-way, as plain forms (no scripts, the same CSP as the other pages).
 */
export const onboardingPage = (link: AccountLinkRecord, account: Account): string => {
  const base = `/connect/onboarding/${escapeHtml(link.token)}`;
  const who = account.business_profile.name ?? account.email ?? account.id;
  const due = account.requirements.currently_due;
  return layout(
    `Set up payments for ${who}`,
    `<h1>Set up payments</h1>
<p>The platform asks you to finish your Stripe account so it can take payments on your behalf.</p>
<dl>
  <dt>Account</dt><dd>${escapeHtml(account.id)}</dd>
  ${account.email ? `<dt>Email</dt><dd>${escapeHtml(account.email)}</dd>` : ''}
  <dt>Country</dt><dd>${escapeHtml(account.country)}</dd>
  <dt>Still needed</dt><dd>${due.length > 0 ? escapeHtml(due.join(', ')) : 'Nothing'}</dd>
</dl>
<div class="actions">
  <form method="post" action="${base}/complete">
    <button type="submit" class="primary">Complete onboarding</button>
  </form>
  <form method="post" action="${base}/later">
    <button type="submit" class="secondary">Save and return later</button>
  </form>
</div>`,
  );
};
