import { newId, nowSeconds, type Invoice, type StripeState, type Subscription } from './state.ts';

/** The period the subscription's items are in (all items share it here, as the platform sells one item). */
export const periodOf = (sub: Subscription): { start: number; end: number } => {
  const item = sub.items.data[0];
  return { start: item?.current_period_start ?? sub.start_date, end: item?.current_period_end ?? sub.start_date };
};

/** What one full period of the subscription costs. */
export const fullAmount = (sub: Subscription): number =>
  sub.items.data.reduce((sum, item) => sum + item.price.unit_amount * item.quantity, 0);

export interface InvoiceOptions {
  reason: Invoice['billing_reason'];
  service: { start: number; end: number };
  invoicePeriod: { start: number; end: number };
  amount: number;
  paid: boolean;
  trial: boolean;
}

/** Subscription invoices: one per period, paid (or open, when the payment fails), numbered per customer prefix. */
export const invoices = (state: StripeState) => ({
  /**
   * An invoice for the service period [start, end]. As in Stripe, the lines carry the service period, while the
   * invoice's own period_start/period_end are the period that just ended (equal to `created` for the first one):
   * read the billed period from `lines.data[].period` or the subscription item.
   */
  create(sub: Subscription, options: InvoiceOptions): Invoice {
    const now = nowSeconds();
    const id = newId('in');
    const owner = state.customers[sub.customer];
    state.invoiceSequence += 1;
    const productName = (price: { id: string; product: string }) => state.products[price.product]?.name ?? price.id;
    const invoice: Invoice = {
      id,
      object: 'invoice',
      amount_due: options.amount,
      amount_paid: options.paid ? options.amount : 0,
      amount_remaining: options.paid ? 0 : options.amount,
      attempt_count: options.amount > 0 ? 1 : 0,
      attempted: options.amount > 0 || options.paid,
      billing_reason: options.reason,
      collection_method: 'charge_automatically',
      created: now,
      currency: sub.currency,
      customer: sub.customer,
      customer_email: owner?.email ?? null,
      hosted_invoice_url: null,
      lines: {
        object: 'list',
        data: sub.items.data.map((item) => ({
          id: newId('il'),
          object: 'line_item',
          amount: options.trial ? 0 : item.price.unit_amount * item.quantity,
          currency: sub.currency,
          description: options.trial ? `Trial period for ${productName(item.price)}` : `${item.quantity} × ${productName(item.price)}`,
          invoice: id,
          livemode: false,
          metadata: {},
          parent: {
            type: 'subscription_item_details',
            subscription_item_details: { subscription: sub.id, subscription_item: item.id, proration: false },
          },
          period: { ...options.service },
          pricing: {
            type: 'price_details',
            price_details: { price: item.price.id, product: item.price.product },
            unit_amount_decimal: item.price.unit_amount_decimal,
          },
          quantity: item.quantity,
        })),
        has_more: false,
        total_count: sub.items.data.length,
        url: `/v1/invoices/${id}/lines`,
      },
      livemode: false,
      metadata: {},
      next_payment_attempt: options.paid ? null : now + 3 * 86_400,
      number: `${owner?.invoice_prefix ?? 'LOCAL'}-${String(state.invoiceSequence).padStart(4, '0')}`,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } },
      },
      period_end: options.invoicePeriod.end,
      period_start: options.invoicePeriod.start,
      status: options.paid ? 'paid' : 'open',
      status_transitions: { finalized_at: now, paid_at: options.paid ? now : null, voided_at: null },
      subtotal: options.amount,
      total: options.amount,
    };
    state.invoices[id] = invoice;
    sub.latest_invoice = id;
    return invoice;
  },
});

export type Invoices = ReturnType<typeof invoices>;
