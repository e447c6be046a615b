import * as z from 'zod';

/**
 * The creator's payment account (API.md "Selling courses"; docs/api.md "Payment account"): a Standard Stripe
 * account connected to the platform, on which the creator's course sales are charged directly (the creator keeps
 * 100%: no application fee).
 */

/** POST /api/creator/payouts/connect: where the provider's onboarding sends the creator back (the app's own origin). */
export const connectPayoutsBody = z.strictObject({
  returnUrl: z.url({ protocol: /^https?$/ }).max(2000),
  refreshUrl: z.url({ protocol: /^https?$/ }).max(2000),
});
export type ConnectPayoutsBody = z.infer<typeof connectPayoutsBody>;

export const payoutStatuses = ['none', 'pending', 'enabled'] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];

/**
 * GET /api/creator/payouts. `none`: no account yet; `pending`: onboarding not finished, or the provider still needs
 * something before the account can take charges; `enabled`: the account can take charges.
 */
export const payoutsResponse = z.object({
  status: z.enum(payoutStatuses),
  chargesEnabled: z.boolean(),
  payoutsEnabled: z.boolean(),
  /** Project extension: whether the creator finished the provider's onboarding form. */
  detailsSubmitted: z.boolean(),
  /** Project extension: what the provider still needs (its requirement names, e.g. `external_account`), soonest first. */
  requirements: z.array(z.string()),
});
export type PayoutsResponse = z.infer<typeof payoutsResponse>;
