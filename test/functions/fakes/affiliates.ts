import type { AffiliateClick, AffiliateRepository, NewCommission, QueuedMail, StoredAffiliate, StoredCommission, StoredPayout, PayoutLine } from '#core/ports.ts';
import { pageOf } from './paging.ts';
import { withHooks } from './hooks.ts';

/**
 * Affiliates in memory, as functions/data/affiliates.ts keeps them: unique codes and emails, clicks, commissions that
 * move once per transition (each move conditioned on the status it starts from), and the platform's figures.
 */
export const memoryAffiliates = (mailQueue?: { write(mail: QueuedMail): Promise<void> }) => {
  const affiliates = new Map<string, StoredAffiliate>();
  const codes = new Map<string, { affiliateId: string; creatorId: string; cookieDays: number }>();
  const clicks = new Map<string, AffiliateClick>();
  const commissions = new Map<string, StoredCommission>();
  const payouts = new Map<string, StoredPayout>();
  const payoutLines = new Map<string, Map<string, PayoutLine>>();
  const platform: Record<string, number> = {};
  const key = (affiliateId: string, orderId: string) => `${affiliateId}/${orderId}`;
  const add = (affiliateId: string, figures: Partial<Record<'clicks' | 'sales' | 'pending' | 'approved' | 'paid' | 'clawedBack', number>>) => {
    const a = affiliates.get(affiliateId);
    if (!a) throw new Error(`no affiliate ${affiliateId}`);
    const sums = a as unknown as Record<string, number>;
    for (const [name, delta] of Object.entries(figures)) sums[name] = (sums[name] ?? 0) + delta;
  };
  const count = (figures: Record<string, number>) => {
    for (const [name, delta] of Object.entries(figures)) platform[name] = (platform[name] ?? 0) + delta;
  };

  const repo = withHooks<AffiliateRepository>({
    async create(affiliate, email) {
      if (codes.has(affiliate.code)) return 'code-taken';
      if ([...affiliates.values()].some((a) => a.creatorId === affiliate.creatorId && a.email === affiliate.email)) return 'email-taken';
      affiliates.set(affiliate.id, structuredClone(affiliate));
      codes.set(affiliate.code, { affiliateId: affiliate.id, creatorId: affiliate.creatorId, cookieDays: affiliate.cookieDays });
      count({ affiliates_total: 1 });
      await mailQueue?.write(email);
      return 'created';
    },
    async list(creatorId) {
      return structuredClone([...affiliates.values()].filter((a) => a.creatorId === creatorId).sort((a, b) => b.createdAt.localeCompare(a.createdAt)));
    },
    async page(creatorId, request) {
      const mine = [...affiliates.values()].filter((a) => a.creatorId === creatorId).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
      return structuredClone(pageOf(mine, request));
    },
    async get(creatorId, affiliateId) {
      const found = affiliates.get(affiliateId);
      return found?.creatorId === creatorId ? structuredClone(found) : undefined;
    },
    async code(code) {
      const found = codes.get(code);
      return found && { code, ...found };
    },
    async recordClick(click, { counted } = { counted: true }) {
      clicks.set(click.clickId, structuredClone(click));
      if (!counted) return;
      add(click.affiliateId, { clicks: 1 });
      count({ affiliate_clicks: 1 });
    },
    async click(clickId) {
      const found = clicks.get(clickId);
      return found && structuredClone(found);
    },
    async commission(affiliateId, orderId) {
      const found = commissions.get(key(affiliateId, orderId));
      return found && structuredClone(found);
    },
    async commissions(affiliateId, page) {
      const newestFirst = [...commissions.values()].filter((c) => c.affiliateId === affiliateId).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.orderId.localeCompare(a.orderId));
      return structuredClone(pageOf(newestFirst, page));
    },
    async dueForApproval(now, limit, after) {
      const dueKey = (c: StoredCommission) => `${c.approveAt}#${c.affiliateId}#${c.orderId}`;
      const due = [...commissions.values()].filter((c) => c.status === 'pending' && c.approveAt <= now && (!after || dueKey(c) > after)).sort((a, b) => dueKey(a).localeCompare(dueKey(b)));
      const items = structuredClone(due.slice(0, limit));
      return { items, nextCursor: due.length > limit ? dueKey(items.at(-1)!) : null };
    },
    async approve(c, now) {
      const stored = commissions.get(key(c.affiliateId, c.orderId));
      if (stored?.status !== 'pending' || stored.approveAt > now) return false;
      stored.status = 'approved';
      add(c.affiliateId, { pending: -c.amount, approved: c.amount });
      count({ commissions_pending: -c.amount, commissions_approved: c.amount });
      return true;
    },
    async approved(affiliateId) {
      return structuredClone([...commissions.values()].filter((c) => c.affiliateId === affiliateId && c.status === 'approved'));
    },
    async payout(affiliateId, payoutId) {
      const found = payouts.get(key(affiliateId, payoutId));
      return found && structuredClone(found);
    },
    async payoutLines(payoutId, page) {
      return pageOf([...(payoutLines.get(payoutId)?.values() ?? [])].sort((a, b) => (a.orderId < b.orderId ? -1 : 1)), page);
    },
    async pay({ affiliateId, payoutId, commissions: batch, at }) {
      const stale = batch.filter((c) => commissions.get(key(c.affiliateId, c.orderId))?.status !== 'approved').map((c) => c.orderId);
      if (stale.length > 0) return { paid: false, stale };
      const amount = batch.reduce((sum, c) => sum + c.amount, 0);
      for (const c of batch) Object.assign(commissions.get(key(c.affiliateId, c.orderId))!, { status: 'paid', paidAt: at });
      add(affiliateId, { approved: -amount, paid: amount });
      count({ commissions_approved: -amount, commissions_paid: amount });
      const earlier = payouts.get(key(affiliateId, payoutId)) ?? { payoutId, affiliateId, amount: 0, lines: 0, createdAt: at, complete: false };
      payouts.set(key(affiliateId, payoutId), { ...earlier, amount: earlier.amount + amount, lines: earlier.lines + batch.length });
      const kept = payoutLines.get(payoutId) ?? new Map<string, PayoutLine>();
      for (const c of batch) kept.set(c.orderId, { orderId: c.orderId, amount: c.amount, paidAt: at });
      payoutLines.set(payoutId, kept);
      return { paid: true, stale: [] };
    },
    async completePayout(affiliateId, payoutId) {
      const found = payouts.get(key(affiliateId, payoutId));
      if (found) found.complete = true;
    },
  });

  /** What data/orders.ts markPaid writes with the order: the affiliate's sale and its commission. */
  const onPaid = (input: { creatorId: string; orderId: string; courseTitle: string; orderAmount: number; at: string; affiliateId: string; commission: NewCommission | null }) => {
    add(input.affiliateId, { sales: 1, pending: input.commission?.amount ?? 0 });
    count({ affiliate_sales: 1 });
    if (!input.commission) return;
    commissions.set(key(input.affiliateId, input.orderId), {
      affiliateId: input.affiliateId,
      creatorId: input.creatorId,
      orderId: input.orderId,
      courseTitle: input.courseTitle,
      orderAmount: input.orderAmount,
      amount: input.commission.amount,
      status: 'pending',
      approveAt: input.commission.approveAt,
      createdAt: input.at,
      paidAt: null,
      clawback: false,
    });
    count({ commissions_total: input.commission.amount, commissions_pending: input.commission.amount });
  };
  /** What data/orders.ts markReversed writes with the order: void while unpaid, a clawback once paid. */
  const onReversed = (affiliateId: string, orderId: string) => {
    const c = commissions.get(key(affiliateId, orderId));
    if (!c || c.status === 'void' || c.clawback) return;
    if (c.status === 'paid') {
      c.clawback = true;
      add(affiliateId, { clawedBack: c.amount });
      count({ commissions_clawedback: c.amount });
      return;
    }
    add(affiliateId, { [c.status]: -c.amount });
    count({ commissions_total: -c.amount, [`commissions_${c.status}`]: -c.amount });
    c.status = 'void';
  };
  return Object.assign(repo, { stored: affiliates, platform, onPaid, onReversed });
};

/**
 * A creator's affiliate as they add one: Ali at 25% with a 30-day cookie and no hold, every figure (clicks, sales,
 * commissions) at zero. Each test sets what it is about (`over`); the ids and the code are its own.
 */
export const newAffiliate = (over: Partial<StoredAffiliate> & Pick<StoredAffiliate, 'id' | 'creatorId' | 'code' | 'email'>): StoredAffiliate => ({
  name: 'Ali',
  commissionPercent: 25,
  cookieDays: 30,
  holdDays: 0,
  clicks: 0,
  sales: 0,
  pending: 0,
  approved: 0,
  paid: 0,
  clawedBack: 0,
  createdAt: '2026-11-25T10:00:00.000Z',
  ...over,
});
