import { purchaseReceiptEmail } from '#core/enrollments/invitation-email.ts';
import { dueMail } from '#core/mail/mail-queue.ts';
import type { Clock, Ids, Mailer, MailSchoolOf } from '#core/ports.ts';
import type { OrderReceiptMarks } from '#core/sales/ports.ts';

/**
 * A course order's purchase receipt, sent from the order's change on the table's stream (decision 0054), not queued in
 * the payment's transaction: the record exists exactly when the payment committed, so nothing is written with the
 * payment for it, and the receipt costs one small write (its mark) instead of a queued email written, held and removed.
 * Exactly once as the mail queue's own emails are: a record seen again finds the mark and sends nothing; a send whose
 * mark could not be written goes again (at least once, decision 0023). A send that fails is queued (with its mark, in
 * one transaction) for the mail sender, which retries it.
 */
export interface OrderReceiptDeps {
  receipts: OrderReceiptMarks;
  mailer: Mailer;
  ids: Ids;
  clock: Clock;
  appOrigin: string;
  /** The course's school (issue 32): a branded creator's receipt comes from it. */
  mailSchool: MailSchoolOf;
  log: (message: string, fields: Record<string, unknown>) => void;
}

/** What a receipt needs of the paid order (its image on the stream). */
export interface PaidCourseOrder {
  id: string;
  creatorId: string;
  buyerEmail: string;
  courseTitle: string;
  amount: number;
}

/**
 * The course order whose receipt this change owes: an order (pk ORDER#<id> sk ORDER) moved pending -> paid with its
 * learner (a buyer who had an account: core/sales/orders.ts payCourseOrder; a new buyer's invitation and a team order's
 * receipt are written with the payment, and a payment undone at once by a parked reversal has no learner).
 */
export const receiptOwed = (before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): PaidCourseOrder | undefined => {
  if (!after || typeof after['pk'] !== 'string' || !after['pk'].startsWith('ORDER#') || after['sk'] !== 'ORDER') return undefined;
  if (before?.['status'] !== 'pending' || after['status'] !== 'paid') return undefined;
  if (typeof after['learnerId'] !== 'string' || (after['seats'] !== null && after['seats'] !== undefined)) return undefined;
  const [id, creatorId, buyerEmail, courseTitle, amount] = [after['id'], after['creatorId'], after['buyerEmail'], after['courseTitle'], after['amount']];
  return typeof id === 'string' && typeof creatorId === 'string' && typeof buyerEmail === 'string' && typeof courseTitle === 'string' && typeof amount === 'number'
    ? { id, creatorId, buyerEmail, courseTitle, amount }
    : undefined;
};

/** Sends the order's receipt once: 'sent', 'queued' (the send failed: the mail sender retries it) or 'already'. */
export const sendOrderReceipt = async (deps: OrderReceiptDeps, order: PaidCourseOrder): Promise<'sent' | 'queued' | 'already'> => {
  if (await deps.receipts.done(order.id)) return 'already';
  const school = await deps.mailSchool(order.creatorId);
  const message = { to: order.buyerEmail, ...purchaseReceiptEmail({ appOrigin: deps.appOrigin, courseTitle: order.courseTitle, amount: order.amount, school }) };
  try {
    await deps.mailer.send(message);
  } catch (error) {
    deps.log('receipt send failed: queued for the mail sender', { orderId: order.id, error: String(error) });
    return (await deps.receipts.queue(order.id, { ...dueMail(deps, message), id: `receipt:${order.id}` })) ? 'queued' : 'already';
  }
  await deps.receipts.markSent(order.id);
  return 'sent';
};
