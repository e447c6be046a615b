import type { Account, AccountLinkRecord, AccountRequirements, ConnectedData } from './connect-state.ts';
import { emptyConnected } from './connect-state.ts';
import { StripeApiError } from './errors.ts';
import { eventLog, type EventCause } from './events.ts';
import { newId, nowSeconds, type Metadata, type StripeEvent, type StripeState } from './state.ts';

/**
 * Connected Standard accounts and their hosted onboarding. A new account cannot take charges until its owner
 * finishes onboarding on the page an Account Link opens (or the `/_stand-in/accounts/<id>/ready` control stands in
 * for it); every change of its state is an `account.updated` Connect event, as in Stripe.
 */

/** What Stripe asks of a new GB Standard account before it may take charges (all due now). */
const initiallyDue = [
  'business_profile.mcc',
  'business_profile.url',
  'business_type',
  'external_account',
  'representative.first_name',
  'representative.last_name',
  'tos_acceptance.date',
  'tos_acceptance.ip',
];

/** Onboarding saved part-way: the account details are in, the payout bank account is still missing. */
const stillDueAfterSaving = ['external_account'];

const requirements = (due: string[]): AccountRequirements => ({
  alternatives: [],
  current_deadline: null,
  currently_due: [...due],
  disabled_reason: due.length > 0 ? 'requirements.past_due' : null,
  errors: [],
  eventually_due: [...due],
  past_due: [...due],
  pending_verification: [],
});

/** Account Links are single-use and live five minutes, as Stripe's do. */
export const accountLinkLifetimeSeconds = 300;

const currencyOf: Record<string, string> = {
  GB: 'gbp', US: 'usd', CA: 'cad', AU: 'aud', NZ: 'nzd', CH: 'chf', SE: 'sek', NO: 'nok', DK: 'dkk', PL: 'pln',
  IE: 'eur', FR: 'eur', DE: 'eur', ES: 'eur', IT: 'eur', NL: 'eur', BE: 'eur', PT: 'eur', AT: 'eur', FI: 'eur',
};

/** The 403 Stripe answers for an account the key may not act on (`Stripe-Account` header or `/v1/accounts/<id>`). */
export const noAccessTo = (account: string, apiKey: string): StripeApiError => {
  const masked = apiKey.length > 12 ? `${apiKey.slice(0, 8)}${'*'.repeat(apiKey.length - 12)}${apiKey.slice(-4)}` : apiKey;
  return new StripeApiError(
    403,
    `The provided key '${masked}' does not have access to account '${account}' (or that account does not exist). Application access may have been revoked.`,
    'account_invalid',
  );
};

export const accounts = (state: StripeState) => {
  /** The account's own objects (created on first use, so a state saved before an account had any still works). */
  const scope = (account: string): ConnectedData => (state.connected[account] ??= emptyConnected());

  const snapshot = (account: Account) => ({
    charges_enabled: account.charges_enabled,
    payouts_enabled: account.payouts_enabled,
    details_submitted: account.details_submitted,
    capabilities: structuredClone(account.capabilities),
    requirements: structuredClone(account.requirements),
    tos_acceptance: structuredClone(account.tos_acceptance),
    external_accounts: structuredClone(account.external_accounts),
  });

  /** Applies an onboarding outcome; `account.updated` (with what changed) when anything did. */
  const update = (account: Account, change: (account: Account) => void, cause: EventCause): StripeEvent[] => {
    const before = snapshot(account);
    change(account);
    const after = snapshot(account);
    const previous = Object.fromEntries(
      (Object.keys(before) as (keyof typeof before)[])
        .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
        .map((key) => [key, before[key]]),
    );
    if (Object.keys(previous).length === 0) return [];
    return [eventLog(state, account.id)('account.updated', account, cause, previous)];
  };

  const acceptTerms = (account: Account) => {
    account.details_submitted = true;
    account.tos_acceptance = { date: account.tos_acceptance.date ?? nowSeconds(), ip: '127.0.0.1', user_agent: 'Local Stripe stand-in' };
    account.business_type ??= 'individual';
    account.business_profile.mcc ??= '8299';
    account.business_profile.url ??= 'https://example.com';
  };

  return {
    scope,

    find: (id: string): Account | undefined => state.accounts[id],

    create(fields: { email: string | null; country: string; metadata: Metadata }): Account {
      const id = newId('acct', 16);
      const due = requirements(initiallyDue);
      const created: Account = {
        id,
        object: 'account',
        business_profile: {
          mcc: null,
          name: null,
          product_description: null,
          support_address: null,
          support_email: null,
          support_phone: null,
          support_url: null,
          url: null,
        },
        business_type: null,
        capabilities: { card_payments: 'inactive', transfers: 'inactive' },
        charges_enabled: false,
        controller: {
          fees: { payer: 'account' },
          is_controller: true,
          losses: { payments: 'stripe' },
          requirement_collection: 'stripe',
          stripe_dashboard: { type: 'full' },
          type: 'application',
        },
        country: fields.country,
        created: nowSeconds(),
        default_currency: currencyOf[fields.country] ?? 'gbp',
        details_submitted: false,
        email: fields.email,
        external_accounts: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/accounts/${id}/external_accounts` },
        future_requirements: requirements([]),
        metadata: fields.metadata,
        payouts_enabled: false,
        requirements: due,
        tos_acceptance: { date: null, ip: null, user_agent: null },
        type: 'standard',
      };
      state.accounts[id] = created;
      scope(id);
      return created;
    },

    createLink(account: Account, urls: { refreshUrl: string; returnUrl: string }, publicUrl: string): AccountLinkRecord {
      const token = newId('link', 32).slice('link_'.length);
      const created = nowSeconds();
      const link: AccountLinkRecord = {
        token,
        object: 'account_link',
        account: account.id,
        created,
        expires_at: created + accountLinkLifetimeSeconds,
        refresh_url: urls.refreshUrl,
        return_url: urls.returnUrl,
        type: 'account_onboarding',
        url: `${publicUrl}/connect/onboarding/${token}`,
        status: 'new',
      };
      state.accountLinks[token] = link;
      return link;
    },

    /** Stripe's view of a link: no token, no bookkeeping. */
    renderLink: (link: AccountLinkRecord) => ({ object: link.object, created: link.created, expires_at: link.expires_at, url: link.url }),

    /** 'Complete onboarding' (and the ready control): the account can take charges and receive payouts. */
    complete: (account: Account, cause: EventCause): StripeEvent[] =>
      update(
        account,
        (target) => {
          acceptTerms(target);
          target.charges_enabled = true;
          target.payouts_enabled = true;
          target.capabilities = { card_payments: 'active', transfers: 'active' };
          target.requirements = requirements([]);
          if (target.external_accounts.data.length === 0) {
            target.external_accounts.data.push({
              id: newId('ba', 24),
              object: 'bank_account',
              account: target.id,
              account_holder_name: null,
              account_holder_type: null,
              bank_name: 'STRIPE TEST BANK',
              country: target.country,
              currency: target.default_currency,
              default_for_currency: true,
              last4: '2345',
              metadata: {},
              routing_number: '108800',
              status: 'new',
            });
            target.external_accounts.total_count = 1;
          }
        },
        cause,
      ),

    /** 'Save and return later': details submitted, but Stripe still needs the payout account before charges. */
    saveForLater: (account: Account, cause: EventCause): StripeEvent[] =>
      update(
        account,
        (target) => {
          acceptTerms(target);
          if (target.charges_enabled) return;
          target.capabilities = { card_payments: 'pending', transfers: 'pending' };
          target.requirements = requirements(stillDueAfterSaving);
        },
        cause,
      ),
  };
};

export type Accounts = ReturnType<typeof accounts>;
