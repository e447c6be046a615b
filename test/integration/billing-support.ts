import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { expect } from 'vitest';
import type { CreditAccount } from '#core/ports.ts';
import { dynamoBilling } from '#data/billing.ts';
import { accountPut, ledgerPuts } from '#data/credits.ts';
import { platformCounters } from '#data/counters.ts';
import { transact } from '#data/table.ts';
import { api, dynamo, outputs, postRaw, useLocalCloudEnv } from './support.ts';

const stripe = new Stripe('sk_test_signing_only', { telemetry: false });

/** A Stripe event signed as Stripe signs it (or with the given secret / timestamp, to test refusals). */
export const signed = (event: object, opts: { secret?: string; timestamp?: number } = {}) => {
  const payload = JSON.stringify(event);
  const header = stripe.webhooks.generateTestHeaderString({
    payload,
    secret: opts.secret ?? outputs().StripeWebhookSecret,
    ...(opts.timestamp ? { timestamp: opts.timestamp } : {}),
  });
  return { payload, header };
};

export const deliver = (event: object, opts: { secret?: string; timestamp?: number; tamper?: (payload: string) => string } = {}) => {
  const { payload, header } = signed(event, opts);
  return postRaw('/api/webhooks/stripe', opts.tamper ? opts.tamper(payload) : payload, {
    'content-type': 'application/json',
    'stripe-signature': header,
  });
};

let seq = 0;
const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export const subscriptionEvent = (input: {
  type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted';
  created: number;
  customer: string;
  subscription: string;
  status: string;
  price?: string;
  trialEnd?: string | null;
  periodEnd?: string;
}) => ({
  id: `evt_test_${Date.now()}_${++seq}`,
  object: 'event',
  type: input.type,
  created: input.created,
  livemode: false,
  api_version: '2026-10-28.endive',
  data: {
    object: {
      id: input.subscription,
      object: 'subscription',
      customer: input.customer,
      status: input.status,
      cancel_at_period_end: false,
      trial_end: input.trialEnd ? epoch(input.trialEnd) : null,
      items: {
        object: 'list',
        data: [{ id: `si_${seq}`, price: { id: input.price ?? 'price_starter_monthly' }, current_period_end: epoch(input.periodEnd ?? '2030-01-01T00:00:00Z') }],
      },
    },
  },
});

export const otherEvent = (type: string, created: number) => ({
  id: `evt_test_${Date.now()}_${++seq}`,
  object: 'event',
  type,
  created,
  livemode: false,
  data: { object: { id: `in_${seq}`, object: 'invoice' } },
});

/** A Stripe customer id known to belong to `userId` (what a checkout records). */
export const linkCustomer = async (userId: string, customerId = `cus_test_${Date.now()}_${++seq}`) => {
  useLocalCloudEnv();
  await dynamoBilling().saveCustomer(userId, customerId);
  return customerId;
};

/** A credit account with `balance` credits and the ledger row that explains them. */
export const giveCredits = async (userId: string, balance: number, overrides: Partial<CreditAccount> = {}) => {
  useLocalCloudEnv();
  const account: CreditAccount = {
    userId,
    creditsRemaining: balance,
    creditsUsed: 0,
    monthlyAllocation: 50,
    planType: 'starter',
    billingPeriodEnd: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
  const codes = await transact([
    accountPut(account),
    ...ledgerPuts(userId, { actionType: 'test_grant', credits: balance, createdAt: new Date().toISOString() }, `test:${userId}`),
  ]);
  expect(codes).toBeUndefined();
  return account;
};

/** The platform counters: the sum of their shards (data/counters.ts), read consistently. */
export const counters = async (table = outputs().TableName): Promise<Record<string, number>> => {
  const { Responses } = await dynamo().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: platformCounters.readKeys(), ConsistentRead: true } } }));
  const sums: Record<string, number> = {};
  for (const item of Responses?.[table] ?? []) {
    for (const [name, value] of Object.entries(item)) if (typeof value === 'number') sums[name] = (sums[name] ?? 0) + value;
  }
  return sums;
};

export const credits = async (token: string) => (await api('GET', '/api/me/credits', { token })).body;
export const subscription = async (token: string) => (await api('GET', '/api/me/subscription', { token })).body;
