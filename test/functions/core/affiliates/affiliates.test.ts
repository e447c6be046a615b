import { describe, expect, it } from 'vitest';
import {
  affiliateCommissions,
  AFFILIATES_ARE_PRO,
  approveDueCommissions,
  commissionOf,
  createAffiliate,
  followReferral,
  listAffiliates,
  exportPayout,
  ownPath,
  payOutAffiliate,
  PAYOUT_CSV_HEADER,
  PAYOUT_LINES_CSV_HEADER,
} from '#core/affiliates/affiliates.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import type { ExportFiles, StoredAffiliate } from '#core/ports.ts';
import { sendQueuedMail } from '#core/mail/mail-queue.ts';
import { startCourseCheckout } from '#core/sales/checkout.ts';
import { applyCheckoutEvent, applyReversalEvent } from '#core/sales/orders.ts';
import { createCoupon } from '#core/sales/coupons.ts';
import { refundSale } from '#core/sales/sales.ts';
import { storedSubscription } from '#test/functions/fakes/billing.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { memoryAffiliates } from '#test/functions/fakes/affiliates.ts';
import { runSliced } from '#test/functions/fakes/sliced-run.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
import { notReady, salesDeps } from '#test/functions/fakes/payouts.ts';
import { memoryPublicProfiles } from '#test/functions/fakes/public-profiles.ts';
import { memoryDirectory } from '#test/functions/fakes/users.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';

const DAY = 86_400_000;
/** A whole run of the daily approval job (its slices on the memory queue): what it approved and skipped. */
const approveDue = async (d: Parameters<typeof approveDueCommissions>[0], sliceMs?: number) =>
  (await runToEnd('commission-approval', () => approveDueCommissions(d), sliceMs === undefined ? {} : { sliceMs })).counts;
const checkoutBody = { successUrl: `${APP_ORIGIN}/c/c1?purchase=success`, cancelUrl: `${APP_ORIGIN}/c/c1` };

/** A Pro creator (u1) with a connected account, a £29 course (c1), and what the affiliate use cases need besides. */
const world = async (plan: 'pro' | 'starter' = 'pro') => {
  const d = salesDeps();
  await d.payouts.create({ userId: 'u1', accountId: 'acct_1', ...notReady, chargesEnabled: true, lastEventAt: 1, createdAt: 'x', updatedAt: 'x' });
  const codes = ['AAAA2222', 'AAAA2222', 'CCCC4444', 'DDDD5555'];
  let next = 0;
  return {
    ...d,
    billing: { getSubscription: async (userId: string) => (userId === 'u1' ? storedSubscription({ status: 'active', tier: plan, trialEnd: null }) : undefined) },
    directory: memoryDirectory(),
    profiles: memoryPublicProfiles([{ creatorId: 'u1', displayName: 'Chef Ann', bio: '', slug: 'chef-ann', avatar: null, version: 1, updatedAt: 'x' }]),
    randomBelow: (below: number) => {
      const code = codes[Math.floor(next / 8) % codes.length]!;
      const char = code[next++ % 8]!;
      return 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'.indexOf(char) % below;
    },
    clickIds: sequentialIds('click'),
    payoutIdFor: (affiliateId: string, key: string) => `po_${affiliateId}_${key}`,
  };
};
type World = Awaited<ReturnType<typeof world>>;

const add = (d: World, over: Partial<{ email: string; name: string; commissionPercent: number; cookieDays: number; holdDays: number }> = {}) =>
  createAffiliate(d, { creatorId: 'u1', body: { email: 'ali@example.com', name: 'Ali', commissionPercent: 25, cookieDays: 30, holdDays: 30, ...over } });

/** The visitor follows the link: the `ref` cookie's value. */
const click = async (d: World, code: string): Promise<string> => {
  const { cookie } = await followReferral({ ...d, ids: d.clickIds }, { code, to: '/c/c1' });
  return /^ref=([^;]+)/.exec(cookie!)![1]!;
};

let n = 0;
/** A checkout of c1 with this ref (and coupon), paid by `email`: the paid order. */
const buy = async (d: World, input: { ref?: string; couponCode?: string; email?: string }) => {
  const email = input.email ?? `buyer${++n}@example.com`;
  await startCourseCheckout(d, { courseId: 'c1', body: { ...checkoutBody, email, ...(input.ref ? { ref: input.ref } : {}), ...(input.couponCode ? { couponCode: input.couponCode } : {}) }, idempotencyKey: `key-aff-${++n}` });
  const order = [...d.orders.orders.values()].find((o) => o.status === 'pending')!;
  await applyCheckoutEvent(d, {
    id: `evt_aff_${n}`,
    type: 'checkout.session.completed',
    account: 'acct_1',
    checkout: { sessionId: order.checkoutSessionId!, orderId: order.id, paymentStatus: 'paid', amountTotal: order.amount, amountDiscount: order.discount, email, paymentIntentId: `pi_aff${n}` },
  });
  return d.orders.orders.get(order.id)!;
};

const figures = async (d: World, affiliateId: string) => (await listAffiliates(d, 'u1')).items.find((a) => a.id === affiliateId)!;

describe('adding an affiliate', () => {
  it('is for Pro creators: a code, the link to their page, and an email to the affiliate with it', async () => {
    const d = await world();
    const ali = await add(d);
    expect(ali).toMatchObject({ code: 'AAAA2222', link: `${APP_ORIGIN}/api/public/r/AAAA2222?to=/u/chef-ann`, clicks: 0, sales: 0, pending: 0, approved: 0, paid: 0 });
    const [mail] = d.mailer.sent;
    expect(mail).toMatchObject({ to: 'ali@example.com', subject: 'Your affiliate link on Course Platform' });
    expect(mail!.text).toContain(ali.link);
    expect(mail!.text).toContain('25%');
    expect(d.mailQueue.queued, 'sent, so no longer queued').toEqual([]);
    await expect(add(await world('starter'))).rejects.toMatchObject({ code: 'PLAN_REQUIRED', message: AFFILIATES_ARE_PRO, details: { requiredPlan: 'pro' } });
  });

  it('sends the email later when SES refuses it now: written with the affiliate, sent once by the sender job', async () => {
    const d = await world();
    d.mailer.before('send', (call) => {
      if (call === 1) throw new Error('SES throttled');
    });
    const ali = await add(d);
    expect(d.mailer.sent).toEqual([]);
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 0, givenUp: 0 });
    expect(d.mailer.sent.map((m) => [m.to, m.text.includes(ali.link)])).toEqual([['ali@example.com', true]]);
  });

  it('writes no email for an affiliate not made (an email that is an affiliate already)', async () => {
    const d = await world();
    await add(d);
    await expect(add(d)).rejects.toThrow(ConflictError);
    expect(d.mailer.sent).toHaveLength(1);
    expect(d.mailQueue.queued).toEqual([]);
  });

  it('takes another code when one is taken, and refuses an email that is an affiliate already (409)', async () => {
    const d = await world();
    await add(d);
    const sam = await add(d, { email: 'sam@example.com', name: 'Sam' });
    expect(sam.code).toBe('CCCC4444');
    await expect(add(d)).rejects.toThrow(ConflictError);
  });
});

describe('the link', () => {
  it('only leads to a page of our own origin: anything else is 400', () => {
    expect(ownPath(APP_ORIGIN, '/c/c1')).toBe('/c/c1');
    expect(ownPath(APP_ORIGIN, `${APP_ORIGIN}/u/chef-ann?x=1`)).toBe('/u/chef-ann?x=1');
    expect(ownPath(APP_ORIGIN, undefined)).toBe('/');
    for (const to of ['https://evil.example/c/c1', '//evil.example', '/\\evil.example', 'javascript:alert(1)', 'c/c1', `${APP_ORIGIN}.evil.example/`, '/c/c1\r\nSet-Cookie: x=1']) {
      expect(() => ownPath(APP_ORIGIN, to), to).toThrow(ValidationError);
    }
  });

  it("counts the click and sets the ref cookie for the affiliate's window; an unknown code still leads to the page", async () => {
    const d = await world();
    const ali = await add(d, { cookieDays: 7 });
    const followed = await followReferral({ ...d, ids: d.clickIds }, { code: ali.code.toLowerCase(), to: '/c/c1' });
    expect(followed).toEqual({ location: `${APP_ORIGIN}/c/c1`, cookie: `ref=${ali.code}.click-1; Max-Age=${7 * 86_400}; Path=/; SameSite=Lax; Secure` });
    expect((await figures(d, ali.id)).clicks).toBe(1);
    expect(d.affiliates.platform['affiliate_clicks']).toBe(1);
    expect(await followReferral({ ...d, ids: d.clickIds }, { code: 'NOPE2345', to: '/c/c1' })).toEqual({ location: `${APP_ORIGIN}/c/c1`, cookie: undefined });
    await expect(followReferral(d, { code: ali.code, to: 'https://evil.example' })).rejects.toThrow(ValidationError);
  });
});

describe('attribution', () => {
  it('credits a commission of the percent of what was paid after the coupon, pending until the hold ends', async () => {
    const d = await world();
    const ali = await add(d, { commissionPercent: 25, holdDays: 14 });
    await createCoupon(d, { creatorId: 'u1', body: { code: 'SPRING20', kind: 'percent', value: 20, courseIds: null } });
    const order = await buy(d, { ref: await click(d, ali.code), couponCode: 'SPRING20' });
    expect(order).toMatchObject({ status: 'paid', amount: 2320, affiliateId: ali.id });
    const { items } = await affiliateCommissions(d, { creatorId: 'u1', affiliateId: ali.id, limit: 50 });
    expect(items).toEqual([
      expect.objectContaining({ orderId: order.id, orderAmount: 2320, amount: 580, status: 'pending', approveAt: new Date(d.clock.now().getTime() + 14 * DAY).toISOString() }),
    ]);
    expect(await figures(d, ali.id)).toMatchObject({ sales: 1, pending: 580 });
    expect(d.affiliates.platform).toMatchObject({ affiliate_sales: 1, commissions_total: 580, commissions_pending: 580 });
    expect(commissionOf(2999, 12.5)).toBe(375);
  });

  it('gives the sale to the last click inside its window; an expired click or another creator earns nothing', async () => {
    const d = await world();
    const [ali, sam] = [await add(d), await add(d, { email: 'sam@example.com', name: 'Sam', cookieDays: 1 })];
    await click(d, ali.code);
    const last = await click(d, sam.code);
    // The browser holds the last click's cookie (it replaced the first one): Sam's sale.
    expect((await buy(d, { ref: last })).affiliateId).toBe(sam.id);
    const old = await click(d, sam.code);
    d.clock.advance(DAY + 1000);
    expect((await buy(d, { ref: old })).affiliateId).toBeNull();
    expect((await buy(d, { ref: await click(d, ali.code) })).affiliateId).toBe(ali.id);
    expect((await buy(d, { ref: 'ZZZZ9999.click-1' })).affiliateId).toBeNull();
  });

  it('credits a sale only with a real click record behind its ref: a bare code, a made-up click or another affiliate\'s click earns nothing', async () => {
    const d = await world();
    const [ali, sam] = [await add(d), await add(d, { email: 'sam@example.com', name: 'Sam' })];
    // What an affiliate could post themselves, without anyone following their link.
    expect((await buy(d, { ref: ali.code })).affiliateId).toBeNull();
    expect((await buy(d, { ref: `${ali.code}.made-up-click` })).affiliateId).toBeNull();
    const samsClick = (await click(d, sam.code)).split('.')[1]!;
    expect((await buy(d, { ref: `${ali.code}.${samsClick}` })).affiliateId).toBeNull();
    expect(await figures(d, ali.id)).toMatchObject({ sales: 0, pending: 0 });
    expect((await buy(d, { ref: await click(d, ali.code) })).affiliateId).toBe(ali.id);
  });

  it("earns nothing on the affiliate's own purchase or the creator's", async () => {
    const d = await world();
    const ali = await add(d);
    const own = await buy(d, { ref: await click(d, ali.code), email: 'ali@example.com' });
    expect(own.affiliateId).toBeNull();
    // The creator's own email cannot take a course: refunded, and nobody credited.
    expect(await buy(d, { ref: await click(d, ali.code), email: 'creator@example.com' })).toMatchObject({ status: 'refunded', affiliateId: null });
    expect((await affiliateCommissions(d, { creatorId: 'u1', affiliateId: ali.id, limit: 50 })).items).toEqual([]);
    expect(await figures(d, ali.id)).toMatchObject({ sales: 0, pending: 0 });
  });

  it('credits the affiliate a coupon is tied to, without any cookie (and over a cookie of another)', async () => {
    const d = await world();
    const [ali, sam] = [await add(d), await add(d, { email: 'sam@example.com', name: 'Sam' })];
    await createCoupon(d, { creatorId: 'u1', body: { code: 'ALI10', kind: 'percent', value: 10, courseIds: null, affiliateId: ali.id } });
    expect((await buy(d, { couponCode: 'ALI10' })).affiliateId).toBe(ali.id);
    expect((await buy(d, { couponCode: 'ALI10', ref: await click(d, sam.code) })).affiliateId).toBe(ali.id);
    await expect(createCoupon(d, { creatorId: 'u1', body: { code: 'NOBODY', kind: 'percent', value: 10, courseIds: null, affiliateId: 'someone-else' } })).rejects.toThrow(ValidationError);
  });
});

describe('commissions over time', () => {
  it('a refund before payout voids the commission; after payout it stays paid, recorded as a clawback', async () => {
    const d = await world();
    const ali = await add(d, { holdDays: 0 });
    const refunded = await buy(d, { ref: await click(d, ali.code) });
    await refundSale(d, { creatorId: 'u1', orderId: refunded.id });
    expect((await affiliateCommissions(d, { creatorId: 'u1', affiliateId: ali.id, limit: 50 })).items[0]).toMatchObject({ status: 'void' });
    expect(await figures(d, ali.id)).toMatchObject({ pending: 0, approved: 0 });

    const kept = await buy(d, { ref: await click(d, ali.code) });
    await approveDue(d);
    await payOutAffiliate(d, { creatorId: 'u1', affiliateId: ali.id });
    await applyReversalEvent(d, { id: 'evt_dispute', type: 'charge.dispute.created', account: 'acct_1', reversal: { paymentIntentId: kept.paymentIntentId!, to: 'disputed', complete: true } });
    const after = (await affiliateCommissions(d, { creatorId: 'u1', affiliateId: ali.id, limit: 50 })).items.find((c) => c.orderId === kept.id);
    expect(after).toMatchObject({ status: 'paid', clawback: true, amount: 725 });
    expect(await figures(d, ali.id)).toMatchObject({ paid: 725, clawedBack: 725 });
    expect(d.affiliates.platform).toMatchObject({ commissions_total: 725, commissions_paid: 725, commissions_clawedback: 725, commissions_pending: 0 });
  });

  it('the daily job approves a commission once its hold is over, once however often it runs', async () => {
    const d = await world();
    const ali = await add(d, { holdDays: 30 });
    await buy(d, { ref: await click(d, ali.code) });
    expect(await approveDue(d)).toEqual({ approved: 0, skipped: 0 });
    d.clock.advance(30 * DAY);
    expect(await approveDue(d)).toEqual({ approved: 1, skipped: 0 });
    expect(await approveDue(d)).toEqual({ approved: 0, skipped: 0 });
    expect(await figures(d, ali.id)).toMatchObject({ pending: 0, approved: 725 });
    // Two runs at once: one of them approves it.
    await buy(d, { ref: await click(d, ali.code) });
    d.clock.advance(30 * DAY);
    const runs = await Promise.all([approveDue(d), approveDue(d)]);
    expect(runs.reduce((sum, run) => sum + (run['approved'] ?? 0), 0)).toBe(1);
    expect(await figures(d, ali.id)).toMatchObject({ pending: 0, approved: 1450 });
  });

  it("'Pay out' marks the approved commissions paid and answers what to pay in one row; the same key again pays nothing twice", async () => {
    const d = await world();
    const ali = await add(d, { name: 'Ali, "the" Chef', holdDays: 0 });
    const [first, second] = [await buy(d, { ref: await click(d, ali.code) }), await buy(d, { ref: await click(d, ali.code) })];
    await approveDue(d);
    // Sold after the job ran: still pending, not paid out.
    const later = await buy(d, { ref: await click(d, ali.code) });
    const payout = await payOutAffiliate(d, { creatorId: 'u1', affiliateId: ali.id, idempotencyKey: 'k1' });
    expect(payout).toEqual({ payoutId: expect.any(String) as string, paidAmount: 1450, commissions: 2, csv: `${PAYOUT_CSV_HEADER}\n"Ali, ""the"" Chef",ali@example.com,14.50,2,${payout.payoutId}\n` });
    expect((await affiliateCommissions(d, { creatorId: 'u1', affiliateId: ali.id, limit: 50 })).items.map((c) => [c.orderId, c.status])).toEqual(
      expect.arrayContaining([[first.id, 'paid'], [second.id, 'paid'], [later.id, 'pending']]),
    );
    expect(await payOutAffiliate(d, { creatorId: 'u1', affiliateId: ali.id, idempotencyKey: 'k1' })).toEqual(payout);
    const again = await payOutAffiliate(d, { creatorId: 'u1', affiliateId: ali.id, idempotencyKey: 'k2' });
    expect(again).toEqual({ payoutId: null, paidAmount: 0, commissions: 0, csv: `${PAYOUT_CSV_HEADER}\n` });
    expect((await figures(d, ali.id)).paid).toBe(payout.paidAmount);
  });

  it("exports a payout's lines a page at a time: one row per commission paid, written as read, answered as a link", async () => {
    const d = await world();
    const ali = await add(d, { name: 'Ali, "the" Chef', holdDays: 0 });
    const sold = [];
    for (let i = 0; i < 5; i++) sold.push(await buy(d, { ref: await click(d, ali.code) }));
    await approveDue(d);
    const payout = await payOutAffiliate(d, { creatorId: 'u1', affiliateId: ali.id });
    const { exports, writes, state } = memoryExports();
    const file = await exportPayout({ ...d, exports, pageSize: 2 }, { creatorId: 'u1', affiliateId: ali.id, payoutId: payout.payoutId! });
    expect(file).toEqual({ url: expect.stringContaining(`affiliate-payouts/${ali.id}/${payout.payoutId}/`) as string, expiresAt: 'soon', rows: 5 });
    // Each page of 2 as it was read (the header with the first): never the whole payout in one write.
    expect(writes).toHaveLength(3);
    const rows = sold.map((o) => o.id).sort().map((orderId) => `"Ali, ""the"" Chef",ali@example.com,${orderId},7.25,${d.clock.now().toISOString()}`);
    expect(writes.join('')).toBe(`${PAYOUT_LINES_CSV_HEADER}\n${rows.join('\n')}\n`);
    expect(state).toMatchObject({ finished: true, aborted: false, fileName: `affiliate-payout-${ali.code}-${d.clock.now().toISOString().slice(0, 10)}.csv` });
  });

  it('gives the file up when a page fails halfway', async () => {
    const d = await world();
    const ali = await add(d, { holdDays: 0 });
    for (let i = 0; i < 3; i++) await buy(d, { ref: await click(d, ali.code) });
    await approveDue(d);
    const payout = await payOutAffiliate(d, { creatorId: 'u1', affiliateId: ali.id });
    const { exports, state } = memoryExports();
    const lines = d.affiliates.payoutLines.bind(d.affiliates);
    let reads = 0;
    d.affiliates.payoutLines = async (id, page) => {
      if (++reads === 2) throw new Error('DynamoDB is down');
      return lines(id, page);
    };
    await expect(exportPayout({ ...d, exports, pageSize: 2 }, { creatorId: 'u1', affiliateId: ali.id, payoutId: payout.payoutId! })).rejects.toThrow('DynamoDB is down');
    expect(state).toMatchObject({ finished: false, aborted: true });
  });

  it("is another creator's business: 404 on their affiliate and their payouts", async () => {
    const d = await world();
    const ali = await add(d, { holdDays: 0 });
    const bea = await add(d, { email: 'bea@example.com', holdDays: 0 });
    await buy(d, { ref: await click(d, ali.code) });
    await approveDue(d);
    const payout = await payOutAffiliate(d, { creatorId: 'u1', affiliateId: ali.id });
    const { exports, state } = memoryExports();
    await expect(exportPayout({ ...d, exports }, { creatorId: 'u2', affiliateId: ali.id, payoutId: payout.payoutId! })).rejects.toThrow(NotFoundError);
    // Ali's payout asked for under Bea, and a made-up id: not found either.
    await expect(exportPayout({ ...d, exports }, { creatorId: 'u1', affiliateId: bea.id, payoutId: payout.payoutId! })).rejects.toThrow(NotFoundError);
    await expect(exportPayout({ ...d, exports }, { creatorId: 'u1', affiliateId: ali.id, payoutId: 'po_nope' })).rejects.toThrow(NotFoundError);
    expect(state.started).toBe(false);
    await expect(affiliateCommissions(d, { creatorId: 'u2', affiliateId: ali.id, limit: 50 })).rejects.toThrow(NotFoundError);
    await expect(payOutAffiliate(d, { creatorId: 'u2', affiliateId: ali.id })).rejects.toThrow(NotFoundError);
    expect((await listAffiliates(d, 'u2')).items).toEqual([]);
  });
});

/** An export store in memory: what was written, chunk by chunk, and how the upload ended. */
function memoryExports() {
  const writes: string[] = [];
  const state = { started: false, finished: false, aborted: false, fileName: '' };
  const exports: ExportFiles = {
    async start(key, { fileName }) {
      Object.assign(state, { started: true, fileName });
      return {
        write: async (chunk) => void writes.push(chunk),
        finish: async () => ((state.finished = true), { url: `https://files.example/exports/${key}`, expiresAt: 'soon' }),
        abort: async () => void (state.aborted = true),
      };
    },
  };
  return { exports, writes, state };
}

describe('the commission approval job in slices (issue 28)', () => {
  /** `n` pending commissions, due one minute apart, in the memory affiliates; how often each was moved to approved. */
  const dueWorld = async (n: number) => {
    const affiliates = memoryAffiliates();
    for (let a = 0; a < 7; a++) affiliates.stored.set(`a${a}`, { id: `a${a}`, creatorId: 'u1' } as StoredAffiliate);
    for (let i = 0; i < n; i++) {
      const approveAt = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
      affiliates.onPaid({ creatorId: 'u1', orderId: `o${String(i).padStart(4, '0')}`, courseTitle: 'Bread', orderAmount: 1000, at: '2025-12-01T00:00:00.000Z', affiliateId: `a${i % 7}`, commission: { affiliateId: `a${i % 7}`, amount: 100, approveAt } });
    }
    const moved = new Map<string, number>();
    const approve = affiliates.approve.bind(affiliates);
    affiliates.approve = async (c, now) => {
      const done = await approve(c, now);
      if (done) moved.set(c.orderId, (moved.get(c.orderId) ?? 0) + 1);
      return done;
    };
    return { affiliates, moved, clock: testClock('2026-03-01T00:00:00.000Z') };
  };

  it('approves every due commission exactly once over a run cut into many slices, a slice killed mid-way included', async () => {
    const d = await dueWorld(250);
    const run = await runSliced('commission-approval', () => approveDueCommissions(d), { itemsPerSlice: 12, kill: { seq: 3, afterChecks: 6 } });
    expect(run.kills).toBe(1);
    expect(run.slices).toBeGreaterThan(20);
    expect(d.moved.size).toBe(250);
    expect([...d.moved.values()].every((n) => n === 1)).toBe(true);
    expect((await d.affiliates.dueForApproval('2026-03-01T00:00:00.000Z', 10)).items).toEqual([]);
  });

  it('leaves the commissions not yet due, and goes past the ones another run approved meanwhile', async () => {
    const d = await dueWorld(30);
    d.clock.set(new Date(Date.UTC(2026, 0, 1) + 19 * 60_000).toISOString());
    const first = await runSliced('commission-approval', () => approveDueCommissions(d), { itemsPerSlice: 4 });
    expect(first.counts).toEqual({ approved: 20, skipped: 0 });
    d.clock.set('2026-03-01T00:00:00.000Z');
    const [a, b] = await Promise.all([1, 2].map(() => runSliced('commission-approval', () => approveDueCommissions(d), { itemsPerSlice: 3 })));
    expect(a!.counts['approved']! + b!.counts['approved']!).toBe(10);
    expect(d.moved.size).toBe(30);
  });
});
