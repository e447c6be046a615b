import type { ConnectPayoutsBody, PayoutsResponse } from '#contracts/payouts.ts';
import { requireOwnOrigin } from '#core/billing/prices.ts';
import { NotFoundError } from '#core/errors.ts';
import type { Clock, UserRepository } from '#core/ports.ts';
import type { ConnectPayments, PayoutAccount, PayoutRepository } from '#core/sales/ports.ts';

/**
 * The creator's payment account: a Standard Stripe account connected to the platform, onboarded on Stripe's hosted
 * pages, on which course sales are charged directly (docs/decisions/0016-course-sales.md). The platform mirrors
 * what Stripe says of it (`account.updated` on the Connect webhook); a creator sells once it can take charges.
 */

/** GET /api/creator/payouts, from the mirrored state. */
export const payoutsView = (account: PayoutAccount | undefined): PayoutsResponse => ({
  status: !account ? 'none' : account.chargesEnabled ? 'enabled' : 'pending',
  chargesEnabled: account?.chargesEnabled ?? false,
  payoutsEnabled: account?.payoutsEnabled ?? false,
  detailsSubmitted: account?.detailsSubmitted ?? false,
  requirements: account?.requirements ?? [],
});

export const getPayouts = async (deps: { payouts: PayoutRepository }, userId: string): Promise<PayoutsResponse> =>
  payoutsView(await deps.payouts.get(userId));

/**
 * POST /api/creator/payouts/connect: the creator's connected account (created on first use, one per creator even
 * under concurrent clicks) and a fresh onboarding link. A link is single-use and short-lived: Stripe sends an expired
 * or used one to `refreshUrl`, where the app asks for a new one.
 */
export const connectPayouts = async (
  deps: { payouts: PayoutRepository; connect: ConnectPayments; users: Pick<UserRepository, 'getUser'>; clock: Clock; appOrigin: string },
  input: { userId: string; body: ConnectPayoutsBody },
): Promise<{ url: string }> => {
  requireOwnOrigin(deps.appOrigin, { returnUrl: input.body.returnUrl, refreshUrl: input.body.refreshUrl });
  let account = await deps.payouts.get(input.userId);
  if (!account) {
    const user = await deps.users.getUser(input.userId);
    if (!user) throw new NotFoundError('Your profile was not found.');
    const created = await deps.connect.createConnectedAccount({ userId: input.userId, email: user.email });
    const now = deps.clock.now().toISOString();
    account = await deps.payouts.create({
      userId: input.userId,
      accountId: created.accountId,
      ...created.state,
      lastEventAt: created.eventAt,
      createdAt: now,
      updatedAt: now,
    });
  }
  return deps.connect.createAccountLink({ accountId: account.accountId, returnUrl: input.body.returnUrl, refreshUrl: input.body.refreshUrl });
};
