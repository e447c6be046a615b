import type { PortalBody } from '#contracts/billing.ts';
import { NotFoundError } from '#core/errors.ts';
import type { BillingRepository, Ids, Payments } from '#core/ports.ts';
import { requireOwnOrigin } from '#core/billing/prices.ts';

/**
 * The provider's billing portal, where the subscription is managed or cancelled. The same Idempotency-Key (a retried
 * click) gets the same portal session.
 */
export const openBillingPortal = async (
  deps: { billing: BillingRepository; payments: Payments; ids: Ids; appOrigin: string },
  input: { userId: string; body: PortalBody; idempotencyKey?: string | undefined },
): Promise<{ url: string }> => {
  requireOwnOrigin(deps.appOrigin, { returnUrl: input.body.returnUrl });
  const customerId = await deps.billing.getCustomerId(input.userId);
  if (!customerId) throw new NotFoundError('You have no billing account yet: choose a plan first.');
  return deps.payments.createPortalSession({
    customerId,
    returnUrl: input.body.returnUrl,
    idempotencyKey: `portal:${input.userId}:${input.idempotencyKey ?? deps.ids.newId()}`,
  });
};
