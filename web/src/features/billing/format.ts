import type { PlanType } from '@contracts/plans.ts';

/** SPEC.md "AI credits card": 'Starter Plan' if the plan type is starter, otherwise 'Pro Plan'. */
export const planLabel = (planType: PlanType | null): string => (planType === 'starter' ? 'Starter Plan' : 'Pro Plan');

/** Percent of the monthly allocation still left, 0-100 (bought credits above the allocation cap it at 100). */
export function creditsPercent(remaining: number, allocation: number): number {
  if (allocation <= 0) return remaining > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, Math.round((remaining / allocation) * 100)));
}

const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const fullDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** 'Dec 5': the reset date as month and day (in the viewer's time zone, where the reset happens for them). */
export const formatMonthDay = (iso: string): string => monthDay.format(new Date(iso));

/** 'Dec 5, 2025' */
export const formatDate = (iso: string): string => fullDate.format(new Date(iso));

export const trialDaysLeftText = (days: number): string => `${days} ${days === 1 ? 'day' : 'days'} left in your trial`;

/** '£28/month' (whole pounds without pence). */
export function formatMonthlyPrice(pricePence: number): string {
  const amount = new Intl.NumberFormat('en-GB', {
    style: 'currency',
    currency: 'GBP',
    minimumFractionDigits: pricePence % 100 === 0 ? 0 : 2,
  }).format(pricePence / 100);
  return `${amount}/month`;
}
