import { describe, expect, it } from 'vitest';
import { dynamoMailQueue, mailQueueKey } from '#data/mail-queue.ts';
import { dynamoOrderReceipts, receiptKey } from '#data/order-receipts.ts';
import { useLocalCloudEnv } from '../support.ts';
import { rawItem, unique } from './data-support.ts';

useLocalCloudEnv();

const mail = (orderId: string) => ({
  id: `receipt:${orderId}`,
  to: `${orderId}@example.com`,
  subject: 'Your purchase on Course Platform',
  text: 'Thank you',
  html: '<p>Thank you</p>',
  queuedAt: '2026-11-28T10:00:00.000Z',
  dueAt: '2026-11-28T10:00:00.000Z',
  tries: 0,
});

describe('order receipt marks (DynamoDB Local, decision 0054)', () => {
  it('marks a sent receipt once, with a TTL', async () => {
    const receipts = dynamoOrderReceipts();
    const orderId = unique('order');
    expect(await receipts.done(orderId)).toBe(false);
    expect(await receipts.markSent(orderId)).toBe(true);
    expect(await receipts.done(orderId)).toBe(true);
    expect(await receipts.markSent(orderId)).toBe(false);
    const item = await rawItem(receiptKey(orderId));
    expect(item).toMatchObject({ how: 'sent', type: 'OrderReceipt' });
    expect(item?.['expiresAt']).toBeGreaterThan(Date.now() / 1000 + 6 * 24 * 60 * 60);
    // Marked already: nothing queued.
    expect(await receipts.queue(orderId, mail(orderId))).toBe(false);
    expect(await rawItem(mailQueueKey(mail(orderId)))).toBeUndefined();
  });

  it('queues a receipt with its mark in one transaction, once', async () => {
    const receipts = dynamoOrderReceipts();
    const orderId = unique('order');
    expect(await receipts.queue(orderId, mail(orderId))).toBe(true);
    expect(await rawItem(receiptKey(orderId))).toMatchObject({ how: 'queued' });
    expect(await rawItem(mailQueueKey(mail(orderId)))).toMatchObject({ id: `receipt:${orderId}`, to: `${orderId}@example.com` });
    expect(await receipts.queue(orderId, mail(orderId))).toBe(false);
    expect(await receipts.markSent(orderId)).toBe(false);
    // Off the queue again: no other test's sender sends it.
    await dynamoMailQueue().remove(mail(orderId));
    expect(await rawItem(mailQueueKey(mail(orderId)))).toBeUndefined();
  });
});
