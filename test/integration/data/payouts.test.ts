import { beforeAll, describe, expect, it } from 'vitest';
import type { PayoutAccount } from '#core/sales/ports.ts';
import { billingKeys } from '#data/billing.ts';
import { dynamoPayouts, payoutKeys } from '#data/payouts.ts';
import { useLocalCloudEnv } from '../support.ts';
import { rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const account = (over: Partial<PayoutAccount> = {}): PayoutAccount => {
  const userId = unique('payouts-user');
  return {
    userId,
    accountId: `acct_${userId}`,
    chargesEnabled: false,
    payoutsEnabled: false,
    detailsSubmitted: false,
    requirements: ['external_account'],
    lastEventAt: 1_000,
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:00:00.000Z',
    ...over,
  };
};
const ready = { chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true, requirements: [] };

describe('payment accounts (DynamoDB Local)', () => {
  it("stores a creator's account once, with its owner lookup; a second account for the creator answers the first", async () => {
    const payouts = dynamoPayouts();
    const first = account();
    expect(await payouts.create(first)).toEqual(first);
    expect(await payouts.get(first.userId)).toEqual(first);
    expect(await payouts.ownerOf(first.accountId)).toBe(first.userId);
    expect(await payouts.create({ ...first, accountId: 'acct_other' })).toEqual(first);
    expect(await payouts.ownerOf('acct_other')).toBeUndefined();
    expect(await payouts.get(unique('nobody'))).toBeUndefined();
  });

  it("refuses to give one Stripe account to a second creator", async () => {
    const payouts = dynamoPayouts();
    const first = account();
    await payouts.create(first);
    await expect(payouts.create({ ...account(), accountId: first.accountId })).rejects.toThrow(/already held/);
  });

  it('applies an account event once, records it, and never lets an older one undo a newer state', async () => {
    const payouts = dynamoPayouts();
    const stored = account();
    await payouts.create(stored);
    const event = { id: unique('evt'), type: 'account.updated' };
    const input = { event, accountId: stored.accountId, eventAt: 2_000, state: ready, updatedAt: '2026-11-25T11:00:00.000Z' };
    expect(await payouts.applyAccountEvent(input)).toBe('applied');
    expect(await payouts.applyAccountEvent(input)).toBe('duplicate');
    expect(await rawItem(billingKeys.event(event.id))).toMatchObject({ eventType: 'account.updated' });
    expect(await payouts.get(stored.userId)).toMatchObject({ ...ready, lastEventAt: 2_000, updatedAt: '2026-11-25T11:00:00.000Z' });

    const older = { ...input, event: { id: unique('evt'), type: 'account.updated' }, eventAt: 1_500, state: { ...ready, chargesEnabled: false } };
    expect(await payouts.applyAccountEvent(older)).toBe('stale');
    expect(await payouts.applyAccountEvent(older)).toBe('duplicate');
    expect((await payouts.get(stored.userId))?.chargesEnabled).toBe(true);
  });

  it('writes nothing for an account it does not hold', async () => {
    const event = { id: unique('evt'), type: 'account.updated' };
    expect(await dynamoPayouts().applyAccountEvent({ event, accountId: 'acct_unknown', eventAt: 1, state: ready, updatedAt: '2026-11-25T11:00:00.000Z' })).toBe('unknown');
    expect(await rawItem(billingKeys.event(event.id))).toBeUndefined();
    expect(await rawItem(payoutKeys.owner('acct_unknown'))).toBeUndefined();
  });
});
