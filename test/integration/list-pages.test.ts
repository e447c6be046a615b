import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredCertificate, StoredLicense } from '#core/ports.ts';
import { affiliateKeys } from '#data/affiliates.ts';
import { certificateKeys } from '#data/certificates.ts';
import { couponKeys } from '#data/coupons.ts';
import { dynamoLicenses } from '#data/licenses.ts';
import { accountWithRole, api, dynamo, outputs, useLocalCloudEnv } from './support.ts';

/**
 * Issue 28 point 5: the lists that returned a whole collection answer a page at a time through the gateway: the
 * creator's coupons, affiliates and courses, a course's and a leader's licences and a licence's seats, the learner's
 * certificates and courses. Each
 * is read with `?limit=2` past its page boundaries: every row once, in the list's order, `nextCursor` null on the last
 * page; a cursor another list handed out, or one made up, is a 400 with the contract's error body.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let creator: Account;

const put = (item: Record<string, unknown>) => dynamo().send(new PutCommand({ TableName: outputs().TableName, Item: item }));
const day = (i: number) => `2026-11-${String(10 + i).padStart(2, '0')}T10:00:00.000Z`;

/** Every page of a list at `limit` 2: the rows' `field`, page by page. */
const allPages = async (path: string, token: string, field: string): Promise<string[][]> => {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res = await api('GET', `${path}${separator}limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    expect(res.status).toBe(200);
    pages.push((res.body.items as Record<string, string>[]).map((row) => row[field]!));
    cursor = res.body.nextCursor as string | null;
  } while (cursor && pages.length < 20);
  return pages;
};

/** A cursor of `other` sent to `path`, and one that is no cursor at all: both 400 VALIDATION_FAILED. */
const refusesForeignCursors = async (path: string, token: string, other: { path: string; token: string }) => {
  const foreign = (await api('GET', `${other.path}${other.path.includes('?') ? '&' : '?'}limit=1`, { token: other.token })).body.nextCursor as string;
  expect(foreign).toEqual(expect.any(String));
  for (const cursor of [foreign, 'not-a-cursor']) {
    const res = await api('GET', `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`, { token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', message: expect.any(String) } });
  }
};

/** A coupon item as data/coupons.ts writes one (its list's index keys with it). */
const putCoupon = (creatorId: string, code: string, createdAt: string, redeemed: number) =>
  put({
    ...couponKeys.coupon(creatorId, code),
    type: 'Coupon',
    creatorId,
    code,
    createdAt,
    kind: 'percent',
    value: 10,
    courseIds: null,
    maxRedemptions: null,
    expiresAt: null,
    redeemed,
    active: true,
    affiliateId: null,
    accountId: 'acct_pages',
    stripeCouponId: `co_${code}`,
    promotionCodeId: `promo_${code}`,
    ...couponKeys.listed({ creatorId, code, createdAt }),
  });

beforeAll(async () => {
  useLocalCloudEnv();
  creator = await accountWithRole('creator', 'pages-creator');
});

describe('lists a page at a time', () => {
  it("the creator's coupons: newest first, 5 over three pages, a foreign cursor refused", async () => {
    const codes = Array.from({ length: 5 }, (_, i) => `PAGE${i}${Date.now() % 100000}`);
    for (const [i, code] of codes.entries()) await putCoupon(creator.id, code, day(i), i);
    const pages = await allPages('/api/coupons', creator.token, 'code');
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual([...codes].reverse());
    const first = (await api('GET', '/api/coupons', { token: creator.token })).body;
    expect(first).toMatchObject({ nextCursor: null, items: [{ code: codes[4], redeemed: 4, active: true }, ...codes.slice(0, 4).reverse().map((code) => ({ code }))] });
    const other = await accountWithRole('creator', 'pages-other');
    await putCoupon(other.id, 'OTHER1', day(1), 0);
    await putCoupon(other.id, 'OTHER2', day(2), 0);
    await refusesForeignCursors('/api/coupons', creator.token, { path: '/api/coupons', token: other.token });
  });

  it("the creator's affiliates: newest first with their figures, 5 over three pages", async () => {
    const ids = Array.from({ length: 5 }, (_, i) => `aff-pages-${Date.now()}-${i}`);
    for (const [i, id] of ids.entries()) {
      const affiliate = { id, creatorId: creator.id, createdAt: day(i) };
      await put({
        ...affiliateKeys.affiliate(creator.id, id),
        type: 'Affiliate',
        ...affiliate,
        code: `PG${i}${String(Date.now()).slice(-6)}`,
        name: `Partner ${i}`,
        email: `partner-${i}-${Date.now()}@example.com`,
        commissionPercent: 20,
        cookieDays: 30,
        holdDays: 30,
        clicks: i,
        createdAt: day(i),
        ...affiliateKeys.byCreator(affiliate),
      });
    }
    const pages = await allPages('/api/affiliates', creator.token, 'id');
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual([...ids].reverse());
    const first = (await api('GET', '/api/affiliates', { token: creator.token })).body;
    expect(first.nextCursor).toBeNull();
    expect(first.items[0]).toMatchObject({ id: ids[4], name: 'Partner 4', clicks: 4, link: expect.stringContaining('/api/public/r/') });
    await refusesForeignCursors('/api/affiliates', creator.token, { path: '/api/coupons', token: creator.token });
  });

  it("a course's licences and a leader's licences: newest first, 5 over three pages each", async () => {
    const courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Paged licences' } })).body.id as string;
    const leader = await accountWithRole('leader', 'pages-leader');
    const licenses = dynamoLicenses();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const license: StoredLicense = {
        id: `lic-pages-${Date.now()}-${i}`,
        courseId,
        courseTitle: 'Paged licences',
        creatorId: creator.id,
        leaderId: leader.id,
        leaderEmail: leader.email,
        seatsTotal: 3,
        seatsUsed: 0,
        expiresAt: null,
        status: 'active',
        source: 'granted',
        orderId: null,
        createdAt: day(i),
      };
      expect(await licenses.create(license)).toBe(true);
      ids.push(license.id);
    }
    const byCourse = await allPages(`/api/courses/${courseId}/licenses`, creator.token, 'id');
    expect(byCourse.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(byCourse.flat()).toEqual([...ids].reverse());
    const byLeader = await allPages('/api/leader/licenses', leader.token, 'id');
    expect(byLeader.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(byLeader.flat()).toEqual([...ids].reverse());
    const whole = (await api('GET', '/api/leader/licenses', { token: leader.token })).body;
    expect(whole.nextCursor).toBeNull();
    expect(whole.items[0]).toMatchObject({ id: ids[4], courseTitle: 'Paged licences', seatsTotal: 3, seatsUsed: 0, status: 'active' });
    await refusesForeignCursors('/api/leader/licenses', leader.token, { path: `/api/courses/${courseId}/licenses`, token: creator.token });
    await refusesForeignCursors(`/api/courses/${courseId}/licenses`, creator.token, { path: '/api/leader/licenses', token: leader.token });
  });

  it("the learner's certificates (newest first) and courses (every one once): past the page boundaries", async () => {
    const learner = await accountWithRole('learner', 'pages-learner');
    const courses: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = (await api('POST', '/api/courses', { token: creator.token, body: { title: `Paged course ${i}` } })).body.id as string;
      await api('POST', `/api/courses/${id}/lessons`, { token: creator.token, body: { title: 'One', kind: 'text', body: '<p>One.</p>' } });
      expect((await api('PATCH', `/api/courses/${id}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
      expect((await api('POST', `/api/courses/${id}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
      courses.push(id);
    }
    const coursePages = await allPages('/api/learner/courses', learner.token, 'courseId');
    expect(coursePages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(coursePages.flat().sort()).toEqual([...courses].sort());
    const whole = (await api('GET', '/api/learner/courses', { token: learner.token })).body;
    expect(whole.nextCursor).toBeNull();
    expect(whole.items).toHaveLength(5);
    const activity = (whole.items as { lastActivity: string }[]).map((c) => c.lastActivity);
    expect(activity).toEqual([...activity].sort().reverse());

    const certificates: string[] = [];
    for (const [i, courseId] of courses.entries()) {
      const certificate: StoredCertificate = {
        id: `cert-pages-${Date.now()}-${i}`,
        courseId,
        learnerId: learner.id,
        creatorId: creator.id,
        learnerEmail: learner.email,
        learnerName: null,
        courseTitle: `Paged course ${i}`,
        creatorName: 'Pages',
        issuedAt: day(i),
        statusList: 0,
        statusIndex: 900_000 + i,
        jwt: 'x.y.z',
        status: 'valid',
        revokedAt: null,
        revocationReason: null,
      };
      await put({ ...certificateKeys.certificate(certificate.id), type: 'Certificate', ...certificate, ...certificateKeys.byLearner(certificate), ...certificateKeys.byCourse(certificate) });
      certificates.push(certificate.id);
    }
    const certificatePages = await allPages('/api/learner/certificates', learner.token, 'id');
    expect(certificatePages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(certificatePages.flat()).toEqual([...certificates].reverse());
    await refusesForeignCursors('/api/learner/certificates', learner.token, { path: '/api/learner/courses', token: learner.token });
    await refusesForeignCursors('/api/learner/courses', learner.token, { path: '/api/learner/certificates', token: learner.token });
  });
  it("the creator's own courses: newest first with their fields, 5 over three pages, a foreign cursor refused", async () => {
    const owner = await accountWithRole('creator', 'pages-courses');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api('POST', '/api/courses', { token: owner.token, body: { title: `Listed ${i}`, description: `About ${i}` } });
      expect(res.status).toBe(201);
      ids.push(res.body.id as string);
    }
    const pages = await allPages('/api/courses', owner.token, 'id');
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual([...ids].reverse());
    const whole = (await api('GET', '/api/courses', { token: owner.token })).body;
    expect(whole.nextCursor).toBeNull();
    expect(whole.items.map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
    expect(whole.items[0]).toEqual({ id: ids[4], title: 'Listed 4', description: 'About 4', status: 'draft', lessonCount: 0, enrolledCount: 0, priceAmount: 0, seatPriceAmount: 0, createdAt: expect.any(String) });
    await refusesForeignCursors('/api/courses', owner.token, { path: '/api/courses', token: creator.token });
  });

  it("a licence's seats: active first, each by email, 5 over three pages; another list's cursor refused", async () => {
    const courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Paged seats' } })).body.id as string;
    const leader = await accountWithRole('leader', 'pages-seats-leader');
    const licenses = dynamoLicenses();
    const license: StoredLicense = {
      id: `lic-seats-${Date.now()}`,
      courseId,
      courseTitle: 'Paged seats',
      creatorId: creator.id,
      leaderId: leader.id,
      leaderEmail: leader.email,
      seatsTotal: 10,
      seatsUsed: 0,
      expiresAt: null,
      status: 'active',
      source: 'granted',
      orderId: null,
      createdAt: day(1),
    };
    expect(await licenses.create(license)).toBe(true);
    const emails = ['a', 'b', 'c', 'd', 'e'].map((n) => `seat-${n}@pages.example`);
    for (const [i, email] of emails.entries()) {
      expect(await licenses.assign({ licenseId: license.id, email, learnerId: `learner-${i}`, status: 'active', assignedAt: day(i) })).toBe('assigned');
    }
    // a and c revoked: the active b, d, e come first, then a and c.
    for (const email of [emails[0]!, emails[2]!]) expect(await licenses.revoke(license.id, email, day(6))).toBe(true);
    const path = `/api/leader/licenses/${license.id}/seats`;
    const pages = await allPages(path, leader.token, 'email');
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual([emails[1], emails[3], emails[4], emails[0], emails[2]]);
    const whole = (await api('GET', path, { token: leader.token })).body;
    expect(whole.nextCursor).toBeNull();
    expect(whole.items.map((m: { status: string }) => m.status)).toEqual(['active', 'active', 'active', 'revoked', 'revoked']);
    expect(whole.items[0]).toEqual({ email: emails[1], status: 'active', learnerId: 'learner-1', assignedAt: day(1), progress: 0, lastActivity: null, completedAt: null });
    await refusesForeignCursors(path, leader.token, { path: '/api/courses', token: creator.token });
    const other = await accountWithRole('leader', 'pages-seats-other');
    expect((await api('GET', path, { token: other.token })).status).toBe(404);
  });
});
