import { applyMembershipEvent, type MembershipEventDeps, type MembershipEventOutcome } from '#core/memberships/subscription-events.ts';
import type { Clock } from '#core/ports.ts';
import type { ConnectEvents, PayoutRepository } from '#core/sales/ports.ts';
import { applyCheckoutEvent, applyReversalEvent, type OrderEventDeps, type OrderEventOutcome } from '#core/sales/orders.ts';

export type ConnectEventOutcome = 'applied' | 'stale' | 'unknown' | 'ignored' | OrderEventOutcome | MembershipEventOutcome;

export type ConnectWebhookDeps = OrderEventDeps & MembershipEventDeps & { payouts: PayoutRepository; events: ConnectEvents; clock: Clock };

/**
 * POST /api/webhooks/stripe-connect: the signature first (BadSignatureError, nothing written), then the event applied
 * once. `account.updated` mirrors the creator's payment account (payouts.ts); `checkout.session.*` pays or closes a
 * course order, `charge.refunded` and `charge.dispute.created` undo a paid one (orders.ts); a membership's
 * subscription-mode checkout and `customer.subscription.*` make and move its member (core/memberships); an account the platform does not hold is 'unknown', other types 'ignored' (answered 200
 * all the same, so Stripe stops sending them).
 */
export const applyConnectWebhook = async (
  deps: ConnectWebhookDeps,
  input: { rawBody: string; signature: string | undefined },
): Promise<{ eventId: string; eventType: string; account: string | null; outcome: ConnectEventOutcome }> => {
  const event = await deps.events.parseEvent(input.rawBody, input.signature);
  const base = { eventId: event.id, eventType: event.type, account: event.account };
  if (event.kind === 'subscription' || event.kind === 'membership-checkout') return { ...base, outcome: await applyMembershipEvent(deps, event) };
  if (event.kind === 'checkout') return { ...base, outcome: await applyCheckoutEvent(deps, event) };
  if (event.kind === 'reversal') return { ...base, outcome: await applyReversalEvent(deps, event) };
  if (event.kind !== 'account') return { ...base, outcome: 'ignored' };
  const outcome = await deps.payouts.applyAccountEvent({
    event: { id: event.id, type: event.type },
    accountId: event.account,
    eventAt: event.created,
    state: event.state,
    updatedAt: deps.clock.now().toISOString(),
  });
  return { ...base, outcome };
};
