import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import type { MailQueue, QueuedAccount, QueuedItem, QueuedMail } from '#core/ports.ts';
import { documentClient, partitionQueue, tableName, transact } from '#data/table.ts';

/**
 * The mail queue: an email nobody waits for, written in the transaction of what it announces (`mailQueuePut`) and
 * kept until it is sent; due from `dueAt` (later while a sender holds it: core/mail/mail-queue.ts).
 * Queued mail:     pk MAILQUEUE  sk <dueAt>#<id>  id, to, subject, body, queuedAt, dueAt, tries
 *                  body: the text and the html as one brotli-compressed JSON {text, html} (binary): a receipt's 1.1 KB
 *                  of text and html is ~0.4 KB, so the item stays under 1 KB, one write unit (and in a transaction, its
 *                  writer's and each hold's, two) instead of two (decision 0043). Items written before it (text and html
 *                  as strings) are read as they are.
 * Queued account:  pk MAILQUEUE  sk <dueAt>#<id>  kind 'buyer-account', id (account:<orderId>), orderId, email, queuedAt, dueAt, tries
 *                  (a paid order's new buyer: the account made and invited by the sender job, core/sales/buyer-account.ts)
 */
export const mailQueueKey = (mail: Pick<QueuedItem, 'dueAt' | 'id'>) => ({ pk: 'MAILQUEUE', sk: `${mail.dueAt}#${mail.id}` });

// An email queued before `dueAt` existed (its sort key was its queuedAt) is due from when it was queued.
const attachments = z.array(z.object({ filename: z.string(), contentType: z.string(), content: z.string() }));

const queuedMail = z
  .object({
    id: z.string(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    attachments: attachments.optional(),
    fromName: z.string().optional(),
    headers: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
    queuedAt: isoDate,
    dueAt: isoDate.optional(),
    tries: z.number().int(),
  })
  .transform(({ attachments: files, ...mail }): QueuedMail => ({ ...mail, ...(files?.length ? { attachments: files } : {}), dueAt: mail.dueAt ?? mail.queuedAt }));

const queuedAccount = z.object({
  kind: z.literal('buyer-account'),
  id: z.string(),
  orderId: z.string(),
  email: z.string(),
  queuedAt: isoDate,
  dueAt: isoDate,
  tries: z.number().int(),
}) satisfies z.ZodType<QueuedAccount>;

/** An email's text, html and files as stored: one compressed binary attribute (brotli, text mode). */
const packBody = (mail: Pick<QueuedMail, 'text' | 'html' | 'attachments'>): Uint8Array =>
  brotliCompressSync(JSON.stringify({ text: mail.text, html: mail.html, ...(mail.attachments?.length ? { attachments: mail.attachments } : {}) }), { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 11 } });

const packedBody = z.object({ text: z.string(), html: z.string(), attachments: attachments.optional() });

/** A stored email with its body unpacked (an item from before the packing has its text and html as they are). */
const unpacked = (item: Record<string, unknown>): Record<string, unknown> => {
  const { body, ...rest } = item;
  return body instanceof Uint8Array ? { ...rest, ...packedBody.parse(JSON.parse(brotliDecompressSync(body).toString('utf8'))) } : item;
};

const queuedItem = (item: Record<string, unknown>): QueuedItem => (item['kind'] === 'buyer-account' ? queuedAccount.parse(item) : queuedMail.parse(unpacked(item)));

const partition = partitionQueue('MAILQUEUE', queuedItem);

/** The item that queues `mail` (or work), for the transaction of what it announces (a paid order, a certificate, an affiliate). */
export const mailQueuePut = (mail: QueuedItem) => {
  const item = queuedItem(mail as unknown as Record<string, unknown>);
  if ('kind' in item) return { Put: { TableName: tableName(), Item: { ...mailQueueKey(item), type: 'QueuedAccount', ...item } } };
  const { text, html, attachments: files, ...rest } = item;
  return { Put: { TableName: tableName(), Item: { ...mailQueueKey(item), type: 'QueuedMail', ...rest, body: packBody({ text, html, ...(files ? { attachments: files } : {}) }) } } };
};

export const dynamoMailQueue = (): MailQueue => ({
  due: (now, limit) => partition.oldest(limit, now),

  async move(from, to) {
    const cancelled = await transact([
      { Delete: { TableName: tableName(), Key: mailQueueKey(from), ConditionExpression: 'attribute_exists(pk)' } },
      mailQueuePut(to),
    ]);
    return !cancelled;
  },

  async remove(mail) {
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: mailQueueKey(mail) }));
  },
});
