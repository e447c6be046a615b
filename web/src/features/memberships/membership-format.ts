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
