import type { MemberList, Membership } from '@contracts/memberships.ts';

/** A membership as GET /api/memberships lists it: by default £12 a month for all the creator's courses, on sale. */
export const membership = (id: string, title: string, changes: Partial<Membership> = {}): Membership => ({
  id,
  title,
  description: '',
  interval: 'month',
  priceAmount: 1_200,
  currency: 'gbp',
  courseIds: 'all',
  active: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...changes,
});

/** One member row of GET /api/memberships/{id}/members: active, renewing. */
export const member = (email: string, changes: Partial<MemberList['items'][number]> = {}): MemberList['items'][number] => ({
  email,
  status: 'active',
  currentPeriodEnd: '2026-12-20T10:00:00.000Z',
  cancelAtPeriodEnd: false,
  ...changes,
});

export { course, courses } from '@/test/fixtures.ts';
