import { BadSignatureError } from '#core/errors.ts';
import type { ConnectedAccountState, ConnectEvent, ConnectEvents, ConnectPayments, PayoutAccount, PayoutRepository } from '#core/ports.ts';
import { withHooks } from './hooks.ts';

/** Payment accounts in memory, as functions/data/payouts.ts keeps them: one per creator, each event applied once, newer only. */
export const memoryPayouts = () => {
  const accounts = new Map<string, PayoutAccount>();
  const events = new Set<string>();
  const repo = withHooks<PayoutRepository>({
    async get(userId) {
      const found = accounts.get(userId);
      return found && structuredClone(found);
    },
    async create(account) {
      const stored = accounts.get(account.userId);
      if (stored) return structuredClone(stored);
      if ([...accounts.values()].some((a) => a.accountId === account.accountId)) throw new Error(`payment account ${account.accountId} is already held`);
      accounts.set(account.userId, structuredClone(account));
      return structuredClone(account);
    },
    async ownerOf(accountId) {
      return [...accounts.values()].find((a) => a.accountId === accountId)?.userId;
    },
    async applyAccountEvent({ event, accountId, eventAt, state, updatedAt }) {
      const owner = [...accounts.values()].find((a) => a.accountId === accountId);
      if (!owner) return 'unknown';
      if (events.has(event.id)) return 'duplicate';
      events.add(event.id);
      if (owner.lastEventAt > eventAt) return 'stale';
      accounts.set(owner.userId, { ...owner, ...state, lastEventAt: eventAt, updatedAt });
      return 'applied';
    },
  });
  return Object.assign(repo, { accounts });
};

export const notReady: ConnectedAccountState = { chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false, requirements: ['external_account', 'tos_acceptance.date'] };

/** Stripe Connect as it behaves where it matters: one account per creator whatever the retries, a fresh link each time. */
export const memoryConnect = () => {
  const made: { accountId: string; userId: string; email: string }[] = [];
  const links: { accountId: string; returnUrl: string; refreshUrl: string; url: string }[] = [];
  const connect = withHooks<ConnectPayments>({
    async createConnectedAccount({ userId, email }) {
      let account = made.find((a) => a.userId === userId);
      if (!account) {
        account = { accountId: `acct_${made.length + 1}`, userId, email };
        made.push(account);
      }
      return { accountId: account.accountId, state: notReady, eventAt: 1_000 };
    },
    async createAccountLink(input) {
      const url = `https://connect.stripe.test/setup/${input.accountId}/${links.length + 1}`;
      links.push({ ...input, url });
      return { url };
    },
  });
  return Object.assign(connect, { made, links });
};

/** Connect webhooks: a body is "signed" when the signature is `good`; it is the event itself as JSON. */
export const memoryConnectEvents = (): ConnectEvents => ({
  async parseEvent(rawBody, signature) {
    if (signature !== 'good') throw new BadSignatureError();
    return JSON.parse(rawBody) as ConnectEvent;
  },
});
