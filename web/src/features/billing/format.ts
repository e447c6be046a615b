import type { SubscriptionResponse } from '@contracts/billing.ts';
import { plans, type PlanType } from '@contracts/plans.ts';
import { formatPounds } from '@/lib/format-money.ts';

/** SPEC.md "AI credits card": 'Starter Plan' if the plan type is starter, otherwise 'Pro Plan'. */
export const planLabel = (planType: PlanType | null): string => (planType === 'starter' ? 'Starter Plan' : 'Pro Plan');

/** Percent of the monthly allocation still left, 0-100 (bought credits above the allocation cap it at 100). */
export function creditsPercent(remaining: number, allocation: number): number {
  if (allocation <= 0) return remaining > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, Math.round((remaining / allocation) * 100)));
}

// Dates as en-US writes them, by hand rather than with Intl.DateTimeFormat: a page's first Intl formatter loads the
// locale's data, well over 100 ms of main thread on a slow phone, while the dashboard renders.
const shortMonths = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** 'Dec 5': the reset date as month and day (in the viewer's time zone, where the reset happens for them). */
export function formatMonthDay(iso: string): string {
  const date = new Date(iso);
  return `${shortMonths[date.getMonth()]} ${date.getDate()}`;
}

/** 'Dec 5, 2025' (in the viewer's time zone). */
export const formatDate = (iso: string): string => `${formatMonthDay(iso)}, ${new Date(iso).getFullYear()}`;

export const trialDaysLeftText = (days: number): string => `${days} ${days === 1 ? 'day' : 'days'} left in your trial`;

/** '£28/month' (whole pounds without pence). */
export const formatMonthlyPrice = (pricePence: number): string => `${formatPounds(pricePence)}/month`;

/** The plan's monthly price, '£28/month', or null without a plan. */
const priceOf = (subscription: SubscriptionResponse): string | null =>
  subscription.tier ? formatMonthlyPrice(plans[subscription.tier].pricePence) : null;

/** What the period line says: the renewal, the announced end, or the trial's end. */
export function periodLine(subscription: SubscriptionResponse): string | null {
  const price = priceOf(subscription);
  if (subscription.cancelAtPeriodEnd && subscription.currentPeriodEnd) {
    return `Cancels on ${formatDate(subscription.currentPeriodEnd)}`;
  }
  if (subscription.status === 'trialing' && subscription.trialEnd) {
    return `Free until ${formatDate(subscription.trialEnd)}${price ? `, then ${price}` : ''}`;
  }
  if (subscription.currentPeriodEnd) {
    return `Renews on ${formatDate(subscription.currentPeriodEnd)}${price ? ` at ${price}` : ''}`;
  }
  return null;
}

/**
 * Right after a checkout that started the plan without a trial (a creator who had theirs already, or Pro): the first
 * month was charged just now. 'Billed £28/month from today; next payment on Jan 5, 2027'.
 */
export function billedNowLine(subscription: SubscriptionResponse): string | null {
  const price = priceOf(subscription);
  if (!price) return null;
  const next = subscription.currentPeriodEnd ? `; next payment on ${formatDate(subscription.currentPeriodEnd)}` : '';
  return `Billed ${price} from today${next}`;
}
