import * as z from 'zod';
import { featureKeys } from './entitlements.ts';
import { planTypes } from './plans.ts';

/** POST /api/billing/checkout. The price comes from planType on the server; a priceId is only cross-checked. */
export const checkoutBody = z.strictObject({
  planType: z.enum(planTypes),
  successUrl: z.url({ protocol: /^https?$/ }).max(2000),
  cancelUrl: z.url({ protocol: /^https?$/ }).max(2000),
  priceId: z.string().min(1).max(200).optional(),
});
export type CheckoutBody = z.infer<typeof checkoutBody>;

/** The hosted page the browser is sent to (checkout, credit top-up, billing portal). */
export const redirectResponse = z.object({ url: z.url() });
export type RedirectResponse = z.infer<typeof redirectResponse>;

/** POST /api/billing/portal (project extension): manage or cancel the subscription on the provider's page. */
export const portalBody = z.strictObject({ returnUrl: z.url({ protocol: /^https?$/ }).max(2000) });
export type PortalBody = z.infer<typeof portalBody>;

export const subscriptionStatuses = ['none', 'trialing', 'active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** GET /api/me/subscription */
export const subscriptionResponse = z.object({
  status: z.enum(subscriptionStatuses),
  subscribed: z.boolean(),
  tier: z.enum(planTypes).nullable(),
  trialEnd: z.string().nullable(),
  onTrial: z.boolean(),
  trialDaysLeft: z.number().int().min(0),
  /** Project extensions: the end of the paid period, and whether it ends then (cancelled in the portal). */
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /**
   * Project extension: whether a Starter checkout would still carry the free trial. One trial per creator, ever:
   * false once the creator has trialed or paid for any plan.
   */
  trialAvailable: z.boolean(),
  /** The feature keys of the caller's plan (functions/contracts/entitlements.ts; [] without a plan) and its limits. */
  features: z.array(z.enum(featureKeys)),
  limits: z.object({ teamLicenseSeats: z.number().int().min(0).nullable() }),
});
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>;
