import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { PlanLevel } from '#contracts/entitlements.ts';
import { planTypes } from '#contracts/plans.ts';
import type { BillingRepository, OpenCheckout, StoredSubscription } from '#core/ports.ts';
import { contractStatus, planOf, reachedPlan } from '#core/billing/subscription-state.ts';
import { subscriptionRecords } from '#data/admin-stats.ts';
import { countersUpdate } from '#data/counters.ts';
import { accountPut, balanceIncrease, creditKeys, ledgerPuts } from '#data/credits.ts';
import { outboxPut } from '#data/outbox.ts';
import { documentClient, failedAt, tableName, transact, writeIf } from '#data/table.ts';

const EVENT_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * subscribers, Stripe customers, credit purchases and processed Stripe events (access patterns 4, 5, 15).
 * Customer:      pk USER#<id>             sk STRIPE_CUSTOMER  customerId
 * Customer -> user: pk STRIPECUST#<cus>   sk CUSTOMER         userId
 * Subscription:  pk USER#<id>             sk SUBSCRIPTION     gsi1pk SUBSTATE#<status>  gsi1sk <updatedAt>#<id>
 * Checkout:      pk USER#<id>             sk CHECKOUT         the one checkout in progress (claim, then its open session)
 * Purchase:      pk PURCHASE#<session>    sk PURCHASE         userId, credits, status pending|granted|failed
 * Event:         pk STRIPEEVT#<evt>       sk EVENT            expiresAt (TTL 30 days)
 */
export const billingKeys = {
  customer: (userId: string) => ({ pk: `USER#${userId}`, sk: 'STRIPE_CUSTOMER' }),
  customerUser: (customerId: string) => ({ pk: `STRIPECUST#${customerId}`, sk: 'CUSTOMER' }),
  subscription: (userId: string) => ({ pk: `USER#${userId}`, sk: 'SUBSCRIPTION' }),
  checkout: (userId: string) => ({ pk: `USER#${userId}`, sk: 'CHECKOUT' }),
  byState: (status: string, updatedAt: string, userId: string) => ({ gsi1pk: `SUBSTATE#${contractStatus(status)}`, gsi1sk: `${updatedAt}#${userId}` }),
  purchase: (sessionId: string) => ({ pk: `PURCHASE#${sessionId}`, sk: 'PURCHASE' }),
  event: (eventId: string) => ({ pk: `STRIPEEVT#${eventId}`, sk: 'EVENT' }),
};

const subscriptionItem = z.object({
  userId: z.string(),
  subscriptionId: z.string(),
  customerId: z.string(),
  status: z.string(),
  tier: z.enum(planTypes).nullable(),
  trialEnd: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  lastEventAt: z.number(),
  lastEventRank: z.number(),
  updatedAt: z.string(),
  /** Items written before the one-trial rule lack the flag: any plan they reached counts. */
  hasSubscribed: z.boolean().optional(),
});

/** What the plan depends on (readPlan's projection). */
const planFields = subscriptionItem.pick({ status: true, tier: true });

const toSubscription = (item: unknown): StoredSubscription => {
  const { hasSubscribed, ...sub } = subscriptionItem.parse(item);
  return { ...sub, hasSubscribed: hasSubscribed ?? reachedPlan(sub.status) };
};

const purchaseItem = z.object({ userId: z.string(), credits: z.number().int().positive(), status: z.enum(['pending', 'granted', 'failed']) });

const claimFields = { claimId: z.string(), intent: z.string(), idempotencyKey: z.string().optional(), claimedAt: z.string() };
const checkoutItem = z.discriminatedUnion('status', [
  z.object({ status: z.literal('creating'), ...claimFields }),
  z.object({ status: z.literal('open'), ...claimFields, sessionId: z.string(), url: z.string(), expiresAt: z.string() }),
]);

const get = async (key: { pk: string; sk: string }) =>
  (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** A processed Stripe event (platform or Connect: their ids are unique across both), written once, in the transaction of its effect. */
export const eventPut = (event: { id: string; type: string }, nowMs = Date.now()) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...billingKeys.event(event.id),
      type: 'StripeEvent',
      eventType: event.type,
      processedAt: new Date(nowMs).toISOString(),
      expiresAt: Math.floor(nowMs / 1000) + EVENT_TTL_SECONDS,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** The stored subscription may only move from what the caller read: nothing (new) or that exact last event. */
const subscriptionPut = (before: StoredSubscription | undefined, after: StoredSubscription) => ({
  Put: {
    TableName: tableName(),
    Item: { ...billingKeys.subscription(after.userId), ...billingKeys.byState(after.status, after.updatedAt, after.userId), type: 'Subscription', ...after },
    ...(before
      ? {
          ConditionExpression: 'lastEventAt = :at AND lastEventRank = :rank',
          ExpressionAttributeValues: { ':at': before.lastEventAt, ':rank': before.lastEventRank },
        }
      : { ConditionExpression: 'attribute_not_exists(pk)' }),
  },
});

/** A user's subscription alone: the checks before mail sent on a user's behalf (a trial's cap) take this, not the repository. */
export const readSubscription = async (userId: string): Promise<StoredSubscription | undefined> => {
  const item = await get(billingKeys.subscription(userId));
  return item ? toSubscription(item) : undefined;
};

/**
 * The plan a user is on (issue 29: `planOf` their subscription; `none` without one), from one GetItem of the
 * subscription's status and tier alone: the HTTP middleware's entitlement check on every creator call
 * (functions/middleware/account.ts) and the use cases that depend on a creator's plan (ports.ts `PlanReader`).
 */
export const readPlan = async (userId: string): Promise<PlanLevel> => {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: billingKeys.subscription(userId), ProjectionExpression: '#status, tier', ExpressionAttributeNames: { '#status': 'status' } }),
  );
  return Item ? planOf(planFields.parse(Item)) : 'none';
};

export const dynamoBilling = (): BillingRepository => ({
  async getCustomerId(userId) {
    const item = await get(billingKeys.customer(userId));
    return item ? z.object({ customerId: z.string() }).parse(item).customerId : undefined;
  },

  async saveCustomer(userId, customerId) {
    // A failed condition: two first checkouts at once, Stripe's idempotency gave both the same customer and the
    // other write won. Nothing to do.
    await transact([
      { Put: { TableName: tableName(), Item: { ...billingKeys.customer(userId), type: 'StripeCustomer', customerId }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: tableName(), Item: { ...billingKeys.customerUser(customerId), type: 'StripeCustomerUser', userId } } },
    ]);
  },

  async getUserIdByCustomer(customerId) {
    const item = await get(billingKeys.customerUser(customerId));
    return item ? z.object({ userId: z.string() }).parse(item).userId : undefined;
  },

  getSubscription: readSubscription,

  async getOpenCheckout(userId) {
    const item = await get(billingKeys.checkout(userId));
    return item ? (checkoutItem.parse(item) as OpenCheckout) : undefined;
  },

  async claimCheckout({ userId, claim, replacing }) {
    const claimed = await writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...billingKeys.checkout(userId), type: 'Checkout', ...claim },
          ConditionExpression: replacing ? 'claimId = :replacing' : 'attribute_not_exists(pk)',
          ...(replacing ? { ExpressionAttributeValues: { ':replacing': replacing } } : {}),
        }),
      ),
    );
    return claimed ? 'claimed' : 'taken';
  },

  async openCheckout({ userId, checkout }) {
    const opened = await writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...billingKeys.checkout(userId), type: 'Checkout', ...checkout },
          ConditionExpression: 'claimId = :claim',
          ExpressionAttributeValues: { ':claim': checkout.claimId },
        }),
      ),
    );
    return opened ? 'opened' : 'lost';
  },

  async releaseCheckout(input) {
    // Only our own claim or session: if another checkout holds the slot now (or nothing does), it is not ours to free.
    const [condition, id] = 'claimId' in input ? ['claimId = :id', input.claimId] : ['sessionId = :id', input.sessionId];
    const { userId } = input;
    await writeIf(() =>
      documentClient().send(
        new DeleteCommand({ TableName: tableName(), Key: billingKeys.checkout(userId), ConditionExpression: condition, ExpressionAttributeValues: { ':id': id } }),
      ),
    );
  },

  async savePendingPurchase({ sessionId, userId, credits, pricePence, createdAt }) {
    // A failed condition is the same session again: a retried purchase intent (same Idempotency-Key), already recorded.
    await writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...billingKeys.purchase(sessionId), type: 'CreditPurchase', sessionId, userId, credits, pricePence, status: 'pending', createdAt },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  },

  async getPendingPurchase(sessionId) {
    const item = await get(billingKeys.purchase(sessionId));
    return item ? purchaseItem.parse(item) : undefined;
  },

  async eventSeen(eventId) {
    return (await get(billingKeys.event(eventId))) !== undefined;
  },

  async recordEvent(event) {
    return (await transact([eventPut(event)])) ? 'duplicate' : 'applied';
  },

  async applySubscriptionEvent({ event, before, after, counters, creditGrant, creditPlan, outbox }) {
    const credit = creditGrant
      ? [accountPut(creditGrant.account), ...ledgerPuts(creditGrant.account.userId, creditGrant.entry, creditGrant.key)]
      : creditPlan
        ? [
            {
              Update: {
                TableName: tableName(),
                Key: creditKeys.account(after.userId),
                UpdateExpression: 'SET planType = :plan, monthlyAllocation = :allocation',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':plan': creditPlan.planType, ':allocation': creditPlan.monthlyAllocation },
              },
            },
          ]
        : [];
    const cancelled = await transact([
      eventPut(event),
      subscriptionPut(before, after),
      ...countersUpdate(counters),
      ...credit,
      ...subscriptionRecords({ eventId: event.id, before, after, counters }),
      ...(outbox ? [outboxPut(outbox)] : []),
    ]);
    if (!cancelled) return 'applied';
    return failedAt(cancelled, 0) ? 'duplicate' : 'changed';
  },

  async grantPurchase({ event, sessionId, userId, entry, key, openAccount }) {
    const cancelled = await transact([
      eventPut(event),
      purchaseMove(sessionId, 'granted'),
      openAccount ? accountPut(openAccount) : balanceIncrease(userId, entry.credits),
      ...ledgerPuts(userId, entry, key),
    ]);
    if (!cancelled) return 'applied';
    if (failedAt(cancelled, 0) || failedAt(cancelled, 1) || failedAt(cancelled, 3)) return 'duplicate';
    return 'no-account';
  },

  async failPurchase({ event, sessionId }) {
    const cancelled = await transact([eventPut(event), purchaseMove(sessionId, 'failed')]);
    return cancelled ? 'duplicate' : 'applied';
  },
});

/** A pending purchase moves on once, to granted or failed. */
const purchaseMove = (sessionId: string, to: 'granted' | 'failed') => ({
  Update: {
    TableName: tableName(),
    Key: billingKeys.purchase(sessionId),
    UpdateExpression: 'SET #status = :to',
    ConditionExpression: '#status = :pending',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':to': to, ':pending': 'pending' },
  },
});
