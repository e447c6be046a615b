/**
 * The two paid plans (SPEC.md sections 3 and 9): one source for the prices the marketing page shows and the
 * prices the billing server charges. Plain constants, no zod, so the pricing cards can import them cheaply.
 */
export const planTypes = ['starter', 'pro'] as const;
export type PlanType = (typeof planTypes)[number];

export interface Plan {
  name: string;
  /** Monthly price in the smallest unit of `currency` (pence). */
  pricePence: number;
  currency: 'GBP';
  interval: 'month';
  /** Days of free trial before the first charge; 0 when the plan has none. */
  trialDays: number;
  features: readonly string[];
}

export const plans: Readonly<Record<PlanType, Plan>> = {
  starter: {
    name: 'Starter',
    pricePence: 2800,
    currency: 'GBP',
    interval: 'month',
    trialDays: 14,
    features: [
      '14-day free trial',
      'Unlimited course creation',
      'Student progress tracking',
      'Basic analytics',
      'Email support',
      'Course builder tools',
      'File hosting',
    ],
  },
  pro: {
    name: 'Pro',
    pricePence: 6700,
    currency: 'GBP',
    interval: 'month',
    trialDays: 0,
    features: [
      'Everything in Starter',
      'Advanced licensing options',
      'Custom branding',
      'Detailed reporting and analytics',
      'Priority support',
      'Affiliate system',
      'Bulk user management',
      'API access',
    ],
  },
};
