import { newId, nowSeconds, type Customer, type StripeState } from './state.ts';

/** Customers: created by the API (`POST /v1/customers`) or by a paid subscription checkout that had none. */
export const customers = (state: StripeState) => ({
  find: (id: string): Customer | undefined => state.customers[id],

  create(fields: { email: string | null; name?: string | null }): Customer {
    const created: Customer = {
      id: newId('cus', 14),
      object: 'customer',
      balance: 0,
      created: nowSeconds(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: null,
      email: fields.email,
      invoice_prefix: newId('x', 8).slice(2).toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      metadata: {},
      name: fields.name ?? null,
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    };
    state.customers[created.id] = created;
    return created;
  },
});

export type Customers = ReturnType<typeof customers>;
