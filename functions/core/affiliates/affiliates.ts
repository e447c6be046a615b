import {
  AFFILIATES_PER_CREATOR_MAX,
  REF_COOKIE,
  type Affiliate,
  type AffiliateList,
  type CommissionList,
  type Payout,
  type createAffiliateBody,
} from '#contracts/affiliates.ts';
import { PAGE_SIZE, type PageRequest } from '#contracts/common.ts';
import { hasFeature } from '#contracts/entitlements.ts';
import { creatorPlanOf } from '#core/billing/subscription-state.ts';
import type { AffiliateRepository, BillingRepository, Clock, ExportFiles, Ids, NewCommission, Order, PublicProfileRepository, StoredAffiliate, StoredCommission, StoredPayout, UserRepository, VisitMarks } from '#core/ports.ts';
import { countOnce, type VisitorSeen } from '#core/visits/visitor-key.ts';
import { csv, exportCsvPages } from '#core/csv.ts';
import { ConflictError, NotFoundError, PlanRequiredError, ValidationError } from '#core/errors.ts';
import { affiliateEmail } from '#core/affiliates/affiliate-email.ts';
import { type MailLaterDeps, heldMail, sendHeld } from '#core/mail/mail-queue.ts';
import { checkMailOnBehalf, type OnBehalfDeps } from '#core/mail/on-behalf.ts';
import type * as z from 'zod';
import { throughPages, type SliceWork } from '#core/jobs/slices.ts';

/**
 * A creator's affiliates (API.md "Affiliates"; decision 0018): the link that counts a click and leaves a `ref` cookie,
 * the checkout that credits the affiliate, the paid order's commission (data/orders.ts writes it with the order), its
 * approval after the refund hold, and the creator's payout.
 */

export const AFFILIATE_NOT_FOUND = 'Affiliate not found.';
export const AFFILIATES_ARE_PRO = 'Affiliates are part of the Pro plan: upgrade to Pro to add affiliates.';
export const AFFILIATE_EMAIL_TAKEN = 'This email is an affiliate already.';
/**
 * Commissions per payout transaction: each moves its commission and writes its payout line (2 items), with the
 * affiliate's figures, the platform's counters and the payout's record: 45 x 2 + a few, within DynamoDB's 100 items.
 */
export const PAYOUT_BATCH = 45;
/** Payout lines read per page (a payout's file, exportPayout). */
const PAYOUT_LINES_PAGE = 1_000;
const DAY_MS = 86_400_000;
/** Codes read aloud and typed: no 0/O, 1/I. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 8;

/** An affiliate's code: 8 of the alphabet's letters and digits (40 bits), from `random(n)` (an integer below n). */
export const newAffiliateCode = (random: (below: number) => number): string =>
  Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[random(CODE_ALPHABET.length)]).join('');

/** The shared link: the redirect with `to` (the creator's public page, or the home page while they have none). */
export const referralLink = (appOrigin: string, code: string, to: string): string =>
  `${new URL(appOrigin).origin}/api/public/r/${encodeURIComponent(code)}?to=${encodeURIComponent(to).replace(/%2F/g, '/')}`;

const view = (affiliate: StoredAffiliate, link: string): Affiliate => ({
  id: affiliate.id,
  code: affiliate.code,
  link,
  name: affiliate.name,
  email: affiliate.email,
  commissionPercent: affiliate.commissionPercent,
  cookieDays: affiliate.cookieDays,
  holdDays: affiliate.holdDays,
  clicks: affiliate.clicks,
  sales: affiliate.sales,
  pending: affiliate.pending,
  approved: affiliate.approved,
  paid: affiliate.paid,
  clawedBack: affiliate.clawedBack,
  createdAt: affiliate.createdAt,
});

interface LinkDeps {
  profiles: Pick<PublicProfileRepository, 'get'>;
  appOrigin: string;
}
/** Where a creator's links send visitors by default: their public page, or the home page while they have none. */
const landingOf = async (deps: LinkDeps, creatorId: string): Promise<{ path: string; name: string | undefined }> => {
  const profile = await deps.profiles.get(creatorId);
  return profile ? { path: `/u/${profile.slug}`, name: profile.displayName } : { path: '/', name: undefined };
};

/** An affiliate's email is not capped (Pro creators only): checkMailOnBehalf's 'verified-only' never takes a send. */
const noQuota = { take: () => Promise.resolve(true) };

export interface CreateAffiliateDeps extends LinkDeps, MailLaterDeps, Pick<OnBehalfDeps, 'directory'> {
  affiliates: Pick<AffiliateRepository, 'create' | 'list'>;
  billing: Pick<BillingRepository, 'getSubscription'>;
  users: Pick<UserRepository, 'getUser'>;
  randomBelow: (below: number) => number;
}

/**
 * POST /api/affiliates: 1. the creator is on the Pro plan (403 PLAN_REQUIRED otherwise); 2. under the cap of affiliates; 3. the
 * affiliate with a fresh code (another code on the rare collision), one per email (409), and their email with their
 * link; 4. that email sent (one that fails is left to the sender job; the creator can copy the link meanwhile).
 */
export const createAffiliate = async (deps: CreateAffiliateDeps, input: { creatorId: string; body: z.output<typeof createAffiliateBody> }): Promise<Affiliate> => {
  // The route table's `affiliates` refuses it first (the middleware); checked here too, the same rule (a past-due Pro keeps it).
  if (!hasFeature(await creatorPlanOf(deps, input.creatorId), 'affiliates')) throw new PlanRequiredError('pro', AFFILIATES_ARE_PRO);
  // The affiliate is emailed their link for the creator: only from a verified creator (403 EMAIL_NOT_VERIFIED).
  await checkMailOnBehalf({ ...deps, sendQuota: noQuota }, input.creatorId, 'verified-only');
  if ((await deps.affiliates.list(input.creatorId)).length >= AFFILIATES_PER_CREATOR_MAX) {
    throw new ConflictError(`You have ${AFFILIATES_PER_CREATOR_MAX} affiliates, the most an account can have.`);
  }
  const landing = await landingOf(deps, input.creatorId);
  const creatorName = landing.name ?? (await deps.users.getUser(input.creatorId))?.email ?? 'A creator';
  for (let attempt = 1; ; attempt++) {
    const affiliate: StoredAffiliate = {
      id: deps.ids.newId(),
      creatorId: input.creatorId,
      code: newAffiliateCode(deps.randomBelow),
      ...input.body,
      clicks: 0,
      sales: 0,
      pending: 0,
      approved: 0,
      paid: 0,
      clawedBack: 0,
      createdAt: deps.clock.now().toISOString(),
    };
    const link = referralLink(deps.appOrigin, affiliate.code, landing.path);
    const message = affiliateEmail({ name: affiliate.name, creatorName, link, percent: affiliate.commissionPercent, cookieDays: affiliate.cookieDays, holdDays: affiliate.holdDays });
    // Its email is written with it, held for this request to send (the sender job sends it if the request dies first).
    const email = heldMail(deps, { to: affiliate.email, ...message });
    const outcome = await deps.affiliates.create(affiliate, email);
    if (outcome === 'email-taken') throw new ConflictError(AFFILIATE_EMAIL_TAKEN);
    if (outcome === 'code-taken') {
      if (attempt >= 5) throw new Error('no free affiliate code after 5 tries');
      continue;
    }
    await sendHeld(deps, email, { email: 'affiliate link', affiliateId: affiliate.id });
    return view(affiliate, link);
  }
};

/** GET /api/affiliates?cursor=&limit=: the creator's affiliates with their figures, newest first, a page at a time. */
export const listAffiliates = async (
  deps: LinkDeps & { affiliates: Pick<AffiliateRepository, 'page'> },
  creatorId: string,
  request: Partial<PageRequest> = {},
): Promise<AffiliateList> => {
  const [page, landing] = await Promise.all([deps.affiliates.page(creatorId, { cursor: request.cursor, limit: request.limit ?? PAGE_SIZE }), landingOf(deps, creatorId)]);
  return { items: page.items.map((affiliate) => view(affiliate, referralLink(deps.appOrigin, affiliate.code, landing.path))), nextCursor: page.nextCursor };
};

const ownAffiliate = async (deps: { affiliates: Pick<AffiliateRepository, 'get'> }, creatorId: string, affiliateId: string): Promise<StoredAffiliate> => {
  const affiliate = await deps.affiliates.get(creatorId, affiliateId);
  if (!affiliate) throw new NotFoundError(AFFILIATE_NOT_FOUND);
  return affiliate;
};

const commissionView = (c: StoredCommission): CommissionList['items'][number] => ({
  orderId: c.orderId,
  courseTitle: c.courseTitle,
  orderAmount: c.orderAmount,
  amount: c.amount,
  status: c.status,
  approveAt: c.approveAt,
  createdAt: c.createdAt,
  paidAt: c.paidAt,
  clawback: c.clawback,
});

/** GET /api/affiliates/{affiliateId}/commissions: another creator's affiliate is 404. */
export const affiliateCommissions = async (
  deps: { affiliates: Pick<AffiliateRepository, 'get' | 'commissions'> },
  input: { creatorId: string; affiliateId: string; cursor?: string | undefined; limit: number },
): Promise<CommissionList> => {
  const affiliate = await ownAffiliate(deps, input.creatorId, input.affiliateId);
  const page = await deps.affiliates.commissions(affiliate.id, { cursor: input.cursor, limit: input.limit });
  return { items: page.items.map(commissionView), nextCursor: page.nextCursor };
};

/* ---------- The link ---------- */

/** The parts of a `ref`: the code, and the click it came from (absent: a code passed on its own). */
export const parseRef = (ref: string): { code: string; clickId: string | undefined } | undefined => {
  const match = /^([A-Z0-9]{4,16})(?:\.([0-9A-Za-z_-]{1,40}))?$/.exec(ref.trim());
  return match ? { code: match[1]!, clickId: match[2] } : undefined;
};

export const REDIRECT_NOT_OWN = 'The link can only lead to a page of this site.';

/** `to` as a path of the app's own origin: a path ('/c/x'), or an absolute URL on the origin; anything else is 400. */
export const ownPath = (appOrigin: string, to: string | undefined): string => {
  const origin = new URL(appOrigin).origin;
  const target = (to ?? '/').trim() || '/';
  // '//host' and '/\host' are other hosts to a browser; a path must start with one '/' and stay here.
  const isPath = target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\');
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    throw new ValidationError(REDIRECT_NOT_OWN, [{ path: 'to', code: 'custom', message: REDIRECT_NOT_OWN }]);
  }
  if ((!isPath && !/^https?:\/\//i.test(target)) || url.origin !== origin || /[\r\n]/.test(target)) {
    throw new ValidationError(REDIRECT_NOT_OWN, [{ path: 'to', code: 'custom', message: REDIRECT_NOT_OWN }]);
  }
  return `${url.pathname}${url.search}${url.hash}`;
};

/**
 * GET /api/public/r/{code}?to=: where to send the visitor (always our own origin: 400 otherwise) and, for a known
 * code, the click kept and counted and the `ref` cookie for the affiliate's window (a later click replaces it: the
 * last click wins). An unknown code still leads to the page, without a cookie: a visitor is never stranded.
 */
export const followReferral = async (
  deps: { affiliates: Pick<AffiliateRepository, 'code' | 'recordClick'>; clock: Clock; ids: Ids; appOrigin: string; visits?: VisitMarks },
  input: { code: string; to: string | undefined; visitor?: VisitorSeen },
): Promise<{ location: string; cookie: string | undefined }> => {
  const location = `${new URL(deps.appOrigin).origin}${ownPath(deps.appOrigin, input.to)}`;
  const code = /^[A-Z0-9]{4,16}$/.test(input.code.toUpperCase()) ? await deps.affiliates.code(input.code.toUpperCase()) : undefined;
  if (!code) return { location, cookie: undefined };
  const now = deps.clock.now();
  const clickId = deps.ids.newId();
  const maxAge = code.cookieDays * 86_400;
  await deps.affiliates.recordClick({
    clickId,
    code: code.code,
    affiliateId: code.affiliateId,
    creatorId: code.creatorId,
    at: now.toISOString(),
    expiresAt: new Date(now.getTime() + maxAge * 1000).toISOString(),
  }, {
    // Every click is kept (its `ref` names it), but a visitor's repeats the same day are not counted again.
    counted: deps.visits && input.visitor ? await countOnce(deps.visits, `affiliate-click:${code.code}`, input.visitor, now) : true,
  });
  const secure = deps.appOrigin.startsWith('https:') ? '; Secure' : '';
  return { location, cookie: `${REF_COOKIE}=${code.code}.${clickId}; Max-Age=${maxAge}; Path=/; SameSite=Lax${secure}` };
};

/**
 * At the checkout: the affiliate a purchase of this creator's course is credited to. A coupon tied to an affiliate
 * credits them (the buyer typed their code); else the `ref`: a real click record of this creator's affiliate (kept
 * when their link was followed) still inside its window (checked here, not only by the cookie's expiry). A bare code,
 * a made-up click id or anything else credits nobody: an affiliate cannot credit themselves by posting their code.
 */
export const referredAffiliate = async (
  deps: { affiliates: Pick<AffiliateRepository, 'code' | 'click'>; clock: Clock },
  input: { creatorId: string; ref: string | undefined; couponAffiliateId: string | null | undefined },
): Promise<string | null> => {
  if (input.couponAffiliateId) return input.couponAffiliateId;
  const parsed = input.ref ? parseRef(input.ref) : undefined;
  if (!parsed) return null;
  const code = await deps.affiliates.code(parsed.code);
  if (code?.creatorId !== input.creatorId) return null;
  if (!parsed.clickId) return null;
  const click = await deps.affiliates.click(parsed.clickId);
  if (!click || click.code !== code.code || click.affiliateId !== code.affiliateId || Date.parse(click.expiresAt) <= deps.clock.now().getTime()) return null;
  return code.affiliateId;
};

/**
 * When the order is paid: the sale's referral, or null. The affiliate's own purchase (their email) and the creator's
 * earn nothing; otherwise the affiliate is credited with the sale and a commission of their percent of what the buyer
 * actually paid (after the discount, rounded to the penny), held `holdDays` (none when the buyer paid nothing).
 */
export const paidReferral = async (
  deps: { affiliates: Pick<AffiliateRepository, 'get'>; users: Pick<UserRepository, 'getUser'> },
  input: { order: Pick<Order, 'affiliateId' | 'creatorId'>; buyerEmail: string; amount: number; paidAt: string },
): Promise<{ affiliateId: string; commission: NewCommission | null } | null> => {
  if (!input.order.affiliateId) return null;
  const affiliate = await deps.affiliates.get(input.order.creatorId, input.order.affiliateId);
  if (!affiliate) return null;
  const buyer = input.buyerEmail.toLowerCase();
  if (affiliate.email.toLowerCase() === buyer) return null;
  const creator = await deps.users.getUser(input.order.creatorId);
  if (creator?.email.toLowerCase() === buyer) return null;
  const amount = commissionOf(input.amount, affiliate.commissionPercent);
  const approveAt = new Date(Date.parse(input.paidAt) + affiliate.holdDays * DAY_MS).toISOString();
  return { affiliateId: affiliate.id, commission: amount > 0 ? { affiliateId: affiliate.id, amount, approveAt } : null };
};

/** The commission on a paid amount (pence) at a percent: rounded to the nearest penny. */
export const commissionOf = (paid: number, percent: number): number => Math.round((paid * percent) / 100);

/* ---------- Approval and payout ---------- */

/** Due commissions read per page of their index. */
export const COMMISSION_PAGE = 100;

/**
 * The daily job (a sliced run, decision 0033): every pending commission whose hold is over -> approved, each in its
 * own conditional transaction (a second run, a slice delivered again, or a refund that voided it first, finds nothing
 * to do: skipped). Pages of the due index from the slice's cursor (the index key a page starts after), checking the
 * time before each commission; the run goes on in the next slice from where this one stopped, until the index has no
 * page left.
 */
export const approveDueCommissions =
  (deps: { affiliates: Pick<AffiliateRepository, 'dueForApproval' | 'approve'>; clock: Clock }): SliceWork<{ approved: number; skipped: number }> =>
  async (slice, timeUp) => {
    const now = deps.clock.now().toISOString();
    const counts = { approved: 0, skipped: 0 };
    const { cursor } = await throughPages({
      cursor: slice.cursor,
      timeUp,
      page: (after) => deps.affiliates.dueForApproval(now, COMMISSION_PAGE, after),
      handle: async (commission) => void ((await deps.affiliates.approve(commission, now)) ? counts.approved++ : counts.skipped++),
    });
    return { cursor, counts };
  };

export const PAYOUT_CSV_HEADER = 'affiliate,email,amount,commissions,payoutId';
/** What to pay: one row, whatever the payout's size (the order by order lines are exportPayout's file). */
export const payoutCsv = (affiliate: Pick<StoredAffiliate, 'name' | 'email'>, payout: { payoutId: string | null; amount: number; commissions: number }): string =>
  csv(PAYOUT_CSV_HEADER, payout.payoutId && payout.commissions > 0 ? [[affiliate.name, affiliate.email, (payout.amount / 100).toFixed(2), String(payout.commissions), payout.payoutId]] : []);

/**
 * POST /api/affiliates/{affiliateId}/payouts: the affiliate's approved commissions -> paid, in conditional
 * transactions of at most PAYOUT_BATCH (one that moved meanwhile, voided by a refund, is left out), recorded as one
 * payout, and the one-row CSV of what to pay (the lines: exportPayout). With an Idempotency-Key, a retry answers the
 * payout it made (and finishes it when the first try stopped halfway). The answer's size never grows with the payout.
 */
export const payOutAffiliate = async (
  deps: { affiliates: Pick<AffiliateRepository, 'get' | 'approved' | 'payout' | 'pay' | 'completePayout'>; clock: Clock; ids: Ids; payoutIdFor: (affiliateId: string, key: string) => string },
  input: { creatorId: string; affiliateId: string; idempotencyKey?: string | undefined },
): Promise<Payout> => {
  const affiliate = await ownAffiliate(deps, input.creatorId, input.affiliateId);
  const payoutId = input.idempotencyKey ? deps.payoutIdFor(affiliate.id, input.idempotencyKey) : deps.ids.newId();
  const earlier = input.idempotencyKey ? await deps.affiliates.payout(affiliate.id, payoutId) : undefined;
  const answer = (amount: number, commissions: number): Payout => {
    // No payout record without a commission paid: nothing to fetch.
    const id = commissions > 0 ? payoutId : null;
    return { payoutId: id, paidAmount: amount, commissions, csv: payoutCsv(affiliate, { payoutId: id, amount, commissions }) };
  };
  if (earlier?.complete) return answer(earlier.amount, earlier.lines);

  const at = deps.clock.now().toISOString();
  const paid: StoredCommission[] = [];
  const approved = await deps.affiliates.approved(affiliate.id);
  for (let i = 0; i < approved.length; i += PAYOUT_BATCH) {
    let batch = approved.slice(i, i + PAYOUT_BATCH);
    for (let attempt = 1; batch.length > 0 && attempt <= 5; attempt++) {
      const outcome = await deps.affiliates.pay({ affiliateId: affiliate.id, creatorId: affiliate.creatorId, payoutId, commissions: batch, at });
      if (outcome.paid) {
        paid.push(...batch);
        break;
      }
      batch = batch.filter((c) => !outcome.stale.includes(c.orderId));
    }
  }
  if (earlier || paid.length > 0) await deps.affiliates.completePayout(affiliate.id, payoutId);
  return answer((earlier?.amount ?? 0) + paid.reduce((sum, c) => sum + c.amount, 0), (earlier?.lines ?? 0) + paid.length);
};

export const PAYOUT_NOT_FOUND = 'Payout not found.';
export const PAYOUT_LINES_CSV_HEADER = 'affiliate,email,orderId,amount,paidAt';
/** The file's name in the creator's downloads. */
export const payoutFileName = (affiliate: Pick<StoredAffiliate, 'code'>, payout: Pick<StoredPayout, 'createdAt'>): string =>
  `affiliate-payout-${affiliate.code}-${payout.createdAt.slice(0, 10)}.csv`;

/**
 * GET /api/affiliates/{affiliateId}/payouts/{payoutId}?format=csv: every line of the payout (one row per commission
 * paid), read PAYOUT_LINES_PAGE at a time and written to the export store as it goes (exportReport's way: the function
 * holds one page, whatever the payout's size), answered as a download link. Another creator's affiliate, or a payout
 * of another affiliate, is 404. A failure halfway gives the file up.
 */
export const exportPayout = async (
  deps: { affiliates: Pick<AffiliateRepository, 'get' | 'payout' | 'payoutLines'>; exports: ExportFiles; ids: Ids; pageSize?: number },
  input: { creatorId: string; affiliateId: string; payoutId: string },
): Promise<{ url: string; expiresAt: string; rows: number }> => {
  const affiliate = await ownAffiliate(deps, input.creatorId, input.affiliateId);
  const payout = await deps.affiliates.payout(affiliate.id, input.payoutId);
  if (!payout) throw new NotFoundError(PAYOUT_NOT_FOUND);
  return exportCsvPages(
    deps.exports,
    { key: `affiliate-payouts/${affiliate.id}/${payout.payoutId}/${deps.ids.newId()}.csv`, fileName: payoutFileName(affiliate, payout) },
    PAYOUT_LINES_CSV_HEADER,
    (cursor) => deps.affiliates.payoutLines(payout.payoutId, { cursor, limit: deps.pageSize ?? PAYOUT_LINES_PAGE }),
    (line) => [affiliate.name, affiliate.email, line.orderId, (line.amount / 100).toFixed(2), line.paidAt],
  );
};
