import { describe, expect, it } from 'vitest';
import { startCheckout } from '#core/billing/start-checkout.ts';
import { ConflictError, ValidationError } from '#core/errors.ts';
import type { BillingRepository, Payments, StoredSubscription } from '#core/ports.ts';
import { fixedClock, memoryUsers } from '#test/functions/fakes.ts';

const setup = (subscription?: Partial<StoredSubscription>) => {
  const sessions: Parameters<Payments['createCheckoutSession']>[0][] = [];
  const customers = new Map<string, string>();
  const payments = {
    createCustomer: async ({ userId }: { userId: string }) => `cus_${userId}`,
    createCheckoutSession: async (input: Parameters<Payments['createCheckoutSession']>[0]) => {
      sessions.push(input);
      return { id: 'cs_1', url: 'https://checkout.example/cs_1' };
    },
  } as unknown as Payments;
  const billing = {
    getCustomerId: async (userId: string) => customers.get(userId),
    saveCustomer: async (userId: string, customerId: string) => void customers.set(userId, customerId),
    getSubscription: async () => (subscription ? ({ status: 'active', ...subscription } as StoredSubscription) : undefined),
  } as unknown as BillingRepository;
  const deps = {
    billing,
    payments,
    users: memoryUsers([{ id: 'u1', email: 'c@example.com', role: 'creator', createdAt: 't' }]),
    ids: { newId: () => 'attempt-1' },
    clock: fixedClock(),
    prices: { starter: 'price_starter', pro: 'price_pro', credits: 'price_credits' },
    appOrigin: 'https://app.example',
  };
  return { deps, sessions, customers };
};

const body = (over = {}) => ({ planType: 'starter' as const, successUrl: 'https://app.example/checkout/success', cancelUrl: 'https://app.example/#pricing', ...over });

describe('starting a checkout', () => {
  it('uses the plan price, the 14-day Starter trial and one customer per user', async () => {
    const { deps, sessions, customers } = setup();
    expect(await startCheckout(deps, { userId: 'u1', body: body() })).toEqual({ url: 'https://checkout.example/cs_1' });
    expect(sessions[0]).toMatchObject({ mode: 'subscription', priceId: 'price_starter', trialDays: 14, customerId: 'cus_u1', idempotencyKey: 'checkout:u1:attempt-1' });
    await startCheckout(deps, { userId: 'u1', body: body({ planType: 'pro' }), idempotencyKey: 'client-key' });
    expect(sessions[1]).toMatchObject({ priceId: 'price_pro', idempotencyKey: 'checkout:u1:client-key' });
    expect(sessions[1]!.trialDays).toBeUndefined();
    expect(customers.size).toBe(1);
  });

  it("refuses a priceId that is not the plan's and return addresses on another origin", async () => {
    const { deps, sessions } = setup();
    await expect(startCheckout(deps, { userId: 'u1', body: body({ priceId: 'price_pro' }) })).rejects.toThrow(ValidationError);
    await expect(startCheckout(deps, { userId: 'u1', body: body({ successUrl: 'https://app.example.evil.com/x' }) })).rejects.toThrow(ValidationError);
    expect(sessions).toHaveLength(0);
  });

  it('refuses a second subscription while one is active or on trial', async () => {
    await expect(startCheckout(setup({ status: 'trialing' }).deps, { userId: 'u1', body: body() })).rejects.toThrow(ConflictError);
    expect(await startCheckout(setup({ status: 'canceled' }).deps, { userId: 'u1', body: body() })).toHaveProperty('url');
  });
});
