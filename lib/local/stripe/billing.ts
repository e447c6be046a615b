import { checkout } from './checkout.ts';
import { customers } from './customers.ts';
import { eventLog } from './events.ts';
import { invoices } from './invoices.ts';
import type { StripeState } from './state.ts';
import { subscriptions } from './subscriptions.ts';

/**
 * The billing lifecycle over one state: customers, checkout sessions, subscriptions and their invoices. Each
 * operation changes the state and returns the events it caused, in the order Stripe's docs describe; delivering
 * them is the caller's business. One module per concern, wired here. With `account`, the state is that connected
 * account's billing scope (connect-billing.ts) and the events are its Connect events.
 */
export const createBilling = (state: StripeState, account?: string) => {
  const emit = eventLog(state, account);
  const customerStore = customers(state);
  const subscriptionLifecycle = subscriptions(state, { emit, invoices: invoices(state) });
  return {
    emit,
    customers: customerStore,
    subscriptions: subscriptionLifecycle,
    checkout: checkout(state, { emit, customers: customerStore, subscriptions: subscriptionLifecycle }),
  };
};

export type Billing = ReturnType<typeof createBilling>;
