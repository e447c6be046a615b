import { describe, expect, it } from 'vitest';
import { ensureCustomer } from '#core/billing/customer.ts';
import { NotFoundError } from '#core/errors.ts';
import { fakeDeps } from '#test/functions/fakes/deps.ts';

describe('the billing customer of a user', () => {
  it('is created with the user email on first need, recorded both ways, and reused after', async () => {
    const d = fakeDeps();
    const first = await ensureCustomer(d, 'u1');
    expect(d.payments.customers).toEqual([{ id: first, userId: 'u1', email: 'creator@example.com' }]);
    expect(await d.billing.getCustomerId('u1')).toBe(first);
    expect(await d.billing.getUserIdByCustomer(first)).toBe('u1');
    expect(await ensureCustomer(d, 'u1')).toBe(first);
    expect(d.payments.customers).toHaveLength(1);
  });

  it('is one customer when two first checkouts race (the provider answers the same key with the same customer)', async () => {
    const d = fakeDeps();
    const [a, b] = await Promise.all([ensureCustomer(d, 'u1'), ensureCustomer(d, 'u1')]);
    expect(a).toBe(b);
    expect(d.payments.customers).toHaveLength(1);
  });

  it('is NOT_FOUND for a user without a profile, creating no customer', async () => {
    const d = fakeDeps({ users: [] });
    await expect(ensureCustomer(d, 'ghost')).rejects.toThrow(NotFoundError);
    expect(d.payments.customers).toEqual([]);
  });
});
