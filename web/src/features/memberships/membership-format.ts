import type { Membership, MemberList, MembershipInterval } from '@contracts/memberships.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { publicMembershipPath, urlOf } from '@/lib/paths.ts';

type Member = MemberList['items'][number];

/** '£12 a month', '£99 a year'. */
export const priceLabel = (priceAmount: number, interval: MembershipInterval): string => `${formatPounds(priceAmount)} a ${interval}`;

/** 'All my courses' or '3 courses'. */
export const coursesLabel = (courseIds: Membership['courseIds']): string =>
  courseIds === 'all' ? 'All my courses' : courseIds.length === 1 ? '1 course' : `${courseIds.length} courses`;

/** The membership's public page, absolute: what the creator shares. */
export const membershipLinkOf = (membershipId: string): string => urlOf(publicMembershipPath(membershipId));

/** What a member's status means to the creator, in words. */
export const memberStatusLabel: Record<Member['status'], string> = {
  incomplete: 'Payment not finished',
  trialing: 'On trial',
  active: 'Active',
  past_due: 'Payment overdue',
  unpaid: 'Unpaid',
  canceled: 'Cancelled',
};

/** A subscription that pays now (and so counts in MRR): active or on trial, or past due while Stripe retries. */
export const paying = (member: Pick<Member, 'status'>): boolean => member.status === 'active' || member.status === 'trialing' || member.status === 'past_due';

/** Pence a month of one subscription: a yearly price over 12, rounded to the penny. */
export const monthlyAmount = (priceAmount: number, interval: MembershipInterval): number => (interval === 'month' ? priceAmount : Math.round(priceAmount / 12));

const DAY = 24 * 60 * 60 * 1000;

/**
 * The membership's monthly recurring revenue (paying members x the monthly equivalent of its price) and its churn
 * (subscriptions that ended in the last 30 days: Stripe ends a cancelled one at its period's end, the row's
 * `currentPeriodEnd`), counted from the members given.
 */
export const membershipFigures = (membership: Pick<Membership, 'priceAmount' | 'interval'>, members: readonly Member[], now: Date = new Date()) => {
  const active = members.filter(paying).length;
  const churned = members.filter(
    (m) => m.status === 'canceled' && m.currentPeriodEnd !== null && now.getTime() - new Date(m.currentPeriodEnd).getTime() <= 30 * DAY,
  ).length;
  return { active, mrrAmount: active * monthlyAmount(membership.priceAmount, membership.interval), churned };
};
