import { describe, expect, it } from 'vitest';
import { openBillingPortal } from '#core/billing/portal.ts';
import { NotFoundError, ValidationError } from '#core/errors.ts';
import { fakeDeps } from '#test/functions/fakes/deps.ts';

const returnUrl = 'https://app.example/dashboard/billing';

describe('opening the billing portal', () => {
  it("opens the provider's portal for the creator's customer, coming back to our page", async () => {
    const d = fakeDeps();
    await d.billing.saveCustomer('u1', 'cus_1');
    const { url } = await openBillingPortal(d, { userId: 'u1', body: { returnUrl } });
    expect(d.payments.portals).toEqual([{ customerId: 'cus_1', returnUrl, idempotencyKey: 'portal:u1:id-1', url }]);
  });

  it('gives a retried click with the same Idempotency-Key the same portal session', async () => {
    const d = fakeDeps();
    await d.billing.saveCustomer('u1', 'cus_1');
    const first = await openBillingPortal(d, { userId: 'u1', body: { returnUrl }, idempotencyKey: 'k1' });
    expect(await openBillingPortal(d, { userId: 'u1', body: { returnUrl }, idempotencyKey: 'k1' })).toEqual(first);
    expect(d.payments.portals).toHaveLength(1);
    expect(await openBillingPortal(d, { userId: 'u1', body: { returnUrl }, idempotencyKey: 'k2' })).not.toEqual(first);
  });

  it('is NOT_FOUND for a creator who never chose a plan', async () => {
    const d = fakeDeps();
    await expect(openBillingPortal(d, { userId: 'u1', body: { returnUrl } })).rejects.toThrow(NotFoundError);
    expect(d.payments.portals).toEqual([]);
  });

  it('refuses a return address on another origin', async () => {
    const d = fakeDeps();
    await d.billing.saveCustomer('u1', 'cus_1');
    await expect(openBillingPortal(d, { userId: 'u1', body: { returnUrl: 'https://evil.example/billing' } })).rejects.toThrow(ValidationError);
    expect(d.payments.portals).toEqual([]);
  });
});
