import type { Affiliate, Commission } from '@contracts/affiliates.ts';

/** An affiliate 'aff-1' has the code 'AFF1XXXX' and a link to the creator's page, unless `changes` say otherwise. */
export const affiliate = (id: string, name: string, changes: Partial<Affiliate> = {}): Affiliate => {
  const code = changes.code ?? id.replace(/\W/g, '').toUpperCase().padEnd(8, 'X').slice(0, 8);
  return {
    id,
    code,
    link: `http://localhost:5173/api/public/r/${code}?to=/u/ada-lovelace`,
    name,
    email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
    commissionPercent: 20,
    cookieDays: 30,
    holdDays: 30,
    clicks: 0,
    sales: 0,
    pending: 0,
    approved: 0,
    paid: 0,
    clawedBack: 0,
    createdAt: '2026-11-20T10:00:00.000Z',
    ...changes,
  };
};

export const commission = (orderId: string, changes: Partial<Commission> = {}): Commission => ({
  orderId,
  courseTitle: 'Watercolour for Beginners',
  orderAmount: 4_000,
  amount: 800,
  status: 'pending',
  approveAt: '2026-12-20T10:00:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  paidAt: null,
  clawback: false,
  ...changes,
});

export { course, courses, subscription } from '@/test/fixtures.ts';
