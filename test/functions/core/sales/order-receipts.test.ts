import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { RECEIPTS_AT_ONCE, RECEIPTS_SENDING_MS, type PaidCourseOrder, sendOrderReceipts } from '#core/sales/order-receipts.ts';
import { batchReceiptDeps, orderReceipts } from '#functions/streams/reactions/order-receipts.ts';
import type { ScopedLog } from '#middleware/logger.ts';
import { sendsInFlight } from '#test/functions/fakes/enrollments.ts';
import { salesDeps } from '#test/functions/fakes/payouts.ts';

const order = (i: number): PaidCourseOrder => ({ id: `o${i}`, creatorId: 'u1', buyerEmail: `buyer${i}@example.com`, courseTitle: 'Knife skills', amount: 2900 });
const orders = (n: number) => Array.from({ length: n }, (_, i) => order(i + 1));

/**
 * The sales world with SES at `maxSendRate` a second, a send taking a few ms of real time (so sends can overlap), and
 * the pace's waits recorded instead of slept (the clock stands still: each wait is its slot's distance from the start).
 */
const batchDeps = (maxSendRate: number) => {
  const d = salesDeps();
  const waits: number[] = [];
  const mostInFlight = sendsInFlight(d.mailer, 5);
  const deps = Object.assign(d, { sendRate: async () => maxSendRate, sleep: async (ms: number) => void waits.push(ms) });
  return { d: deps, waits, mostInFlight };
};

const settled = (outcomes: Map<string, Promise<unknown>>) => Promise.allSettled(outcomes.values());

describe("a stream batch's receipts (issue 28: a flash sale's last buyer does not wait minutes)", () => {
  it("sends them a few at a time, paced at the platform's share of SES's rate, each once", async () => {
    // 50 a second: the platform's 20 % is 10 a second, a slot each 100 ms; 4 s of slots hold all 12.
    const { d, waits, mostInFlight } = batchDeps(50);
    const outcomes = sendOrderReceipts(d, orders(12));
    expect(await Promise.all(outcomes.values())).toEqual(Array(12).fill('sent'));
    expect(mostInFlight(), 'side by side, not one after the other').toBe(RECEIPTS_AT_ONCE);
    expect(
      waits.sort((a, b) => a - b),
      'the first at once, then one each 100 ms',
    ).toEqual(Array.from({ length: 11 }, (_, i) => (i + 1) * 100));
    expect(d.mailer.sent.map((m) => m.to).sort()).toEqual(orders(12).map((o) => o.buyerEmail).sort());
    expect([...d.receipts.marks.values()]).toEqual(Array(12).fill('sent'));
  });

  it("queues for the mail sender, with their marks, the receipts the pace has no room for in the batch's time; one already marked takes no room", async () => {
    // 5 a second: the platform's share is 1 a second, so the batch's time holds 4 sends.
    const slots = (RECEIPTS_SENDING_MS / 1000) * 1;
    const { d } = batchDeps(5);
    await d.receipts.markSent('o1');
    await d.receipts.markSent('o2');
    const outcomes = sendOrderReceipts(d, [...orders(10), order(3)]);
    const all = await Promise.all(outcomes.values());
    expect(all.filter((o) => o === 'already')).toHaveLength(2);
    expect(all.filter((o) => o === 'sent')).toHaveLength(slots);
    expect(all.filter((o) => o === 'queued'), 'an order twice in the batch: once').toHaveLength(10 - 2 - slots);
    expect(d.mailer.sent).toHaveLength(slots);
    expect(d.mailQueue.queued.map((m) => m.id).sort()).toEqual(
      [...outcomes.keys()].filter((_, i) => all[i] === 'queued').map((id) => `receipt:${id}`).sort(),
    );
  });

  it('fails only the receipt whose mark failed; the others are sent', async () => {
    const { d } = batchDeps(50);
    d.receipts.before('markSent', (call) => {
      if (call === 2) throw new Error('DynamoDB unavailable');
    });
    const results = await settled(sendOrderReceipts(d, orders(6)));
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect(d.receipts.marks.size).toBe(5);
  });
});

describe("the receipts reaction's batch (decision 0054)", () => {
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as ScopedLog;
  const image = (item: Record<string, unknown>) => marshall(item, { removeUndefinedValues: true }) as Record<string, AttributeValue>;
  const paid = (o: PaidCourseOrder, seq: number): DynamoDBRecord => {
    const pending = { pk: `ORDER#${o.id}`, sk: 'ORDER', ...o, status: 'pending', learnerId: `l-${o.id}`, seats: null };
    return { eventName: 'MODIFY', dynamodb: { SequenceNumber: String(seq), OldImage: image(pending), NewImage: image({ ...pending, status: 'paid' }) } } as DynamoDBRecord;
  };

  it("reads the creator's school once for the batch, and every receipt comes from it", async () => {
    const { d } = batchDeps(50);
    d.brand('u1');
    let reads = 0;
    const deps = batchReceiptDeps({ ...d, mailSchool: (creatorId: string) => (reads++, d.mailSchool(creatorId)) });
    const records = orders(8).map((o, i) => paid(o, i + 1));
    const batch = { deps, sending: new Map() };
    orderReceipts.ahead!(batch, records, log);
    for (const record of records) await orderReceipts.onRecord(batch, record, log);
    await orderReceipts.endBatch!(batch, log);
    expect(d.mailer.sent.map((m) => m.fromName)).toEqual(Array(8).fill('Clay & Kiln'));
    expect(reads).toBe(1);
  });

  it('starts every receipt ahead, lets each record wait for its own, retries from a failed one, and starts the mail sender once for what it queued', async () => {
    const { d } = batchDeps(5);
    d.receipts.before('markSent', (call) => {
      if (call === 2) throw new Error('DynamoDB unavailable');
    });
    const records = orders(8).map((o, i) => paid(o, i + 1));
    const batch = { deps: d, sending: new Map() };
    orderReceipts.ahead!(batch, records, log);
    const failedAt = await (async () => {
      for (const [i, record] of records.entries()) {
        try {
          await orderReceipts.onRecord(batch, record, log);
        } catch {
          return i;
        }
      }
      return undefined;
    })();
    expect(failedAt, 'the second mark failed: the batch is retried from its record').toBe(1);
    await orderReceipts.endBatch!(batch, log);
    // 4 slots at 1 a second: 4 sends (one unmarked), the other 4 queued, whether or not their records were reached.
    expect(d.mailer.sent).toHaveLength(4);
    expect(d.mailQueue.queued).toHaveLength(4);
    expect(d.senderStarts).toHaveLength(1);
    // The retry of the batch from the failed record: the unmarked receipt sent again (at least once), nothing else.
    const retry = { deps: d, sending: new Map() };
    orderReceipts.ahead!(retry, records.slice(1), log);
    for (const record of records.slice(1)) await orderReceipts.onRecord(retry, record, log);
    await orderReceipts.endBatch!(retry, log);
    expect(d.mailer.sent).toHaveLength(5);
    expect(d.receipts.marks.size).toBe(8);
    expect(d.senderStarts, 'nothing newly queued').toHaveLength(1);
  });
});
