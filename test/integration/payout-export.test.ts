import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_LINES_CSV_HEADER } from '#core/affiliates/affiliates.ts';
import { affiliateKeys } from '#data/affiliates.ts';
import { newAffiliate } from '#test/functions/fakes/affiliates.ts';
import { accountWithRole, api, dynamo, outputs } from './support.ts';

/**
 * A payout's lines as a file (issue 28: no answer grows with the data): GET .../payouts/{payoutId}?format=csv writes
 * every line to S3 a page at a time (1,000 lines a page) and answers a redirect to the file, or its link as JSON.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let creator: Account;
let other: Account;
const LINES = 1_234;
const PAID_AT = '2026-11-20T09:30:00.000Z';
const run = Date.now().toString(36);
const ali = (creatorId: string) => newAffiliate({ id: `aff_${run}`, creatorId, code: `PX${run.toUpperCase()}`.slice(0, 12), email: `ali-${run}@example.com`, name: 'Ali, "the" Baker' });
const payoutId = `po_${run}`;
const orderId = (i: number) => `order_${String(i).padStart(5, '0')}`;

const put = (item: Record<string, unknown>) => dynamo().send(new PutCommand({ TableName: outputs().TableName, Item: item }));

beforeAll(async () => {
  [creator, other] = [await accountWithRole('creator', 'payout-export'), await accountWithRole('creator', 'payout-export-other')];
  // The affiliate, a payout of LINES lines (more than a page) and a second affiliate of the same creator, as the data
  // module writes them.
  const affiliate = ali(creator.id);
  await put({ ...affiliateKeys.affiliate(creator.id, affiliate.id), type: 'Affiliate', ...affiliate });
  const bea = newAffiliate({ id: `bea_${run}`, creatorId: creator.id, code: `PB${run.toUpperCase()}`.slice(0, 12), email: `bea-${run}@example.com` });
  await put({ ...affiliateKeys.affiliate(creator.id, bea.id), type: 'Affiliate', ...bea });
  await put({ ...affiliateKeys.payout(affiliate.id, payoutId), type: 'Payout', payoutId, affiliateId: affiliate.id, amount: LINES * 250, lines: LINES, createdAt: PAID_AT, complete: true });
  const lines = Array.from({ length: LINES }, (_, i) => ({
    PutRequest: { Item: { ...affiliateKeys.payoutLine(payoutId, orderId(i)), type: 'PayoutLine', payoutId, affiliateId: affiliate.id, orderId: orderId(i), amount: 250 + (i % 3), paidAt: PAID_AT } },
  }));
  for (let i = 0; i < lines.length; i += 25) await dynamo().send(new BatchWriteCommand({ RequestItems: { [outputs().TableName]: lines.slice(i, i + 25) } }));
}, 120_000);

describe('GET /api/affiliates/{affiliateId}/payouts/{payoutId}?format=csv', () => {
  const path = () => `/api/affiliates/aff_${run}/payouts/${payoutId}`;

  it('writes every line of a payout larger than a page to one file and answers its link', async () => {
    const answer = await api('GET', `${path()}?format=csv&delivery=link`, { token: creator.token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ url: expect.stringMatching(/^http/) as string, expiresAt: expect.any(String) as string, rows: LINES });
    const file = await fetch((answer.body as { url: string }).url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="affiliate-payout-${ali(creator.id).code}-2026-11-20.csv"`);
    const rows = (await file.text()).trimEnd().split('\n');
    expect(rows[0]).toBe(PAYOUT_LINES_CSV_HEADER);
    expect(rows).toHaveLength(LINES + 1);
    // Every line once, in order id order, across the page boundary; the name quoted, amounts in pounds.
    expect(rows.slice(1).map((row) => row.split(',')[3])).toEqual(Array.from({ length: LINES }, (_, i) => orderId(i)));
    expect(rows[1]).toBe(`"Ali, ""the"" Baker",ali-${run}@example.com,${orderId(0)},2.50,${PAID_AT}`);
    expect(rows[1_001]).toBe(`"Ali, ""the"" Baker",ali-${run}@example.com,${orderId(1_000)},2.51,${PAID_AT}`);
  });

  it('answers a redirect to the file by default', async () => {
    const res = await fetch(`${outputs().ApiUrl}${path()}?format=csv`, { headers: { authorization: `Bearer ${creator.token}` }, redirect: 'manual' });
    expect(res.status).toBe(302);
    const followed = await fetch(`${outputs().ApiUrl}${path()}?format=csv`, { headers: { authorization: `Bearer ${creator.token}` } });
    expect(followed.redirected).toBe(true);
    expect((await followed.text()).trimEnd().split('\n')).toHaveLength(LINES + 1);
  });

  it("is 404 for another creator, another affiliate's payout or an unknown payout, and 400 for another format", async () => {
    for (const [token, p] of [
      [other.token, path()],
      [creator.token, `/api/affiliates/bea_${run}/payouts/${payoutId}`],
      [creator.token, `/api/affiliates/aff_${run}/payouts/po_unknown`],
      [creator.token, `/api/affiliates/aff_unknown/payouts/${payoutId}`],
    ] as const) {
      const res = await api('GET', `${p}?format=csv&delivery=link`, { token });
      expect(res.status, p).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const bad = await api('GET', `${path()}?format=xml`, { token: creator.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });
});
