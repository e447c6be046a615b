import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { planTypes } from '../contracts/plans.ts';
import type { BillingRepository, StoredSubscription } from '../core/ports.ts';
import { contractStatus } from '../core/billing/subscription-state.ts';
import { countersUpdate } from './counters.ts';
import { accountPut, balanceIncrease, creditKeys, ledgerPuts } from './credits.ts';
import { documentClient, tableName, transact } from './table.ts';

const EVENT_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * subscribers, Stripe customers, credit purchases and processed Stripe events (access patterns 4, 5, 15).
 * Customer:      pk USER#<id>             sk STRIPE_CUSTOMER  customerId
 * Customer -> user: pk STRIPECUST#<cus>   sk CUSTOMER         userId
 * Subscription:  pk USER#<id>             sk SUBSCRIPTION     gsi1pk SUBSTATE#<status>  gsi1sk <updatedAt>#<id>
 * Purchase:      pk PURCHASE#<session>    sk PURCHASE         userId, credits, status pending|granted
 * Event:         pk STRIPEEVT#<evt>       sk EVENT            expiresAt (TTL 30 days)
 */
export const billingKeys = {
  customer: (userId: string) => ({ pk: `USER#${userId}`, sk: 'STRIPE_CUSTOMER' }),
  customerUser: (customerId: string) => ({ pk: `STRIPECUST#${customerId}`, sk: 'CUSTOMER' }),
  subscription: (userId: string) => ({ pk: `USER#${userId}`, sk: 'SUBSCRIPTION' }),
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
});

const purchaseItem = z.object({ userId: z.string(), credits: z.number().int().positive(), status: z.enum(['pending', 'granted']) });

const get = async (key: { pk: string; sk: string }) =>
  (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

const eventPut = (event: { id: string; type: string }, nowMs = Date.now()) => ({
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

  async getSubscription(userId) {
    const item = await get(billingKeys.subscription(userId));
    return item ? subscriptionItem.parse(item) : undefined;
  },

  async savePendingPurchase({ sessionId, userId, credits, pricePence, createdAt }) {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...billingKeys.purchase(sessionId), type: 'CreditPurchase', sessionId, userId, credits, pricePence, status: 'pending', createdAt },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
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
    const codes = await transact([eventPut(event)]);
    return codes ? 'duplicate' : 'applied';
  },

  async applySubscriptionEvent({ event, before, after, counters, creditGrant, creditPlan }) {
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
    const codes = await transact([eventPut(event), subscriptionPut(before, after), ...countersUpdate(counters), ...credit]);
    if (!codes) return 'applied';
    return codes[0] === 'ConditionalCheckFailed' ? 'duplicate' : 'changed';
  },

  async grantPurchase({ event, sessionId, userId, entry, key }) {
    const codes = await transact([
      eventPut(event),
      {
        Update: {
          TableName: tableName(),
          Key: billingKeys.purchase(sessionId),
          UpdateExpression: 'SET #status = :granted',
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':granted': 'granted', ':pending': 'pending' },
        },
      },
      balanceIncrease(userId, entry.credits),
      ...ledgerPuts(userId, entry, key),
    ]);
    if (!codes) return 'applied';
    if (codes[0] === 'ConditionalCheckFailed' || codes[1] === 'ConditionalCheckFailed' || codes[3] === 'ConditionalCheckFailed') return 'duplicate';
    return 'no-account';
  },
});
