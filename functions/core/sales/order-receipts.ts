import { purchaseReceiptEmail } from '#core/enrollments/invitation-email.ts';
import { pacer, platformMailRate, sendRateOr1 } from '#core/jobs/pace.ts';
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

export type ReceiptOutcome = 'sent' | 'queued' | 'already';

/** The receipt, from the course's school when its creator is branded (issue 32). */
const receiptMessage = async (deps: OrderReceiptDeps, order: PaidCourseOrder) => ({
  to: order.buyerEmail,
  ...purchaseReceiptEmail({ appOrigin: deps.appOrigin, courseTitle: order.courseTitle, amount: order.amount, school: await deps.mailSchool(order.creatorId) }),
});

type ReceiptMessage = Awaited<ReturnType<typeof receiptMessage>>;

/** The receipt queued for the mail sender with its mark (one transaction): 'already' when it was marked meanwhile. */
const queueReceipt = async (deps: OrderReceiptDeps, order: PaidCourseOrder, message?: ReceiptMessage): Promise<ReceiptOutcome> =>
  (await deps.receipts.queue(order.id, { ...dueMail(deps, message ?? (await receiptMessage(deps, order))), id: `receipt:${order.id}` })) ? 'queued' : 'already';

/** The receipt of an order found unmarked: sent and marked, or queued with its mark when SES refuses it. */
const sendUnmarked = async (deps: OrderReceiptDeps, order: PaidCourseOrder): Promise<ReceiptOutcome> => {
  const message = await receiptMessage(deps, order);
  try {
    await deps.mailer.send(message);
  } catch (error) {
    deps.log('receipt send failed: queued for the mail sender', { orderId: order.id, error: String(error) });
    return queueReceipt(deps, order, message);
  }
  await deps.receipts.markSent(order.id);
  return 'sent';
};

/** Sends the order's receipt once: 'sent', 'queued' (the send failed: the mail sender retries it) or 'already'. */
export const sendOrderReceipt = async (deps: OrderReceiptDeps, order: PaidCourseOrder): Promise<ReceiptOutcome> =>
  (await deps.receipts.done(order.id)) ? 'already' : sendUnmarked(deps, order);

/**
 * Receipts of one stream batch sent side by side: SES's round trip and the mark's read and write (three calls, tens of
 * ms each) bound a receipt sent alone, so a batch of 100 one after the other took seconds per shard and a flash sale's
 * last buyer waited minutes (docs/scale-bench.md). A few at once fill the pace instead.
 */
export const RECEIPTS_AT_ONCE = 4;

/**
 * The time a batch spends sending receipts: what fits the reactions' function (10 s, crud) beside the batch's other
 * reactions and a slow call's retry. The receipts the pace has no room for in it are queued for the mail sender (with
 * their marks, no send), which sends them at the same pace in its runs, rather than the batch passing its timeout.
 */
export const RECEIPTS_SENDING_MS = 4_000;

export interface ReceiptBatchDeps extends OrderReceiptDeps {
  /** SES's MaxSendRate: receipts go at the platform's share of it (core/jobs/pace.ts), as its other mail does. */
  sendRate: () => Promise<number>;
  sleep: (ms: number) => Promise<void>;
}

/**
 * A stream batch's receipts, RECEIPTS_AT_ONCE at a time, paced at the platform's share of SES's rate; those the pace
 * leaves no room for in RECEIPTS_SENDING_MS queued for the mail sender instead (a receipt already marked takes no
 * room). Starts at once and answers each order's outcome by its id (an order twice in the batch: once), so the caller
 * still takes the records in order and a failed one (its mark unread or unwritten) still retries the batch from its
 * record. Every outcome is handled here too: a rejection the caller never reaches (after a failed record) is not
 * an unhandled one.
 */
export const sendOrderReceipts = (deps: ReceiptBatchDeps, orders: readonly PaidCourseOrder[]): Map<string, Promise<ReceiptOutcome>> => {
  const unique = [...new Map(orders.map((order) => [order.id, order] as const)).values()];
  const outcomes = new Map<string, Promise<ReceiptOutcome>>();
  const settlers: { resolve: (outcome: ReceiptOutcome) => void; reject: (error: unknown) => void }[] = [];
  for (const order of unique) {
    const outcome = new Promise<ReceiptOutcome>((resolve, reject) => settlers.push({ resolve, reject }));
    outcome.catch(() => undefined);
    outcomes.set(order.id, outcome);
  }
  void sendRateOr1(deps.sendRate).then(async (maxSendRate) => {
    const perSecond = platformMailRate(maxSendRate);
    const pace = pacer(perSecond, { now: () => deps.clock.now().getTime(), sleep: deps.sleep });
    // The pace's slots in the batch's time: the first at once, then one each 1/perSecond.
    const slots = Math.max(1, Math.floor((RECEIPTS_SENDING_MS / 1000) * perSecond));
    let taken = 0;
    const receipt = async (order: PaidCourseOrder): Promise<ReceiptOutcome> => {
      if (await deps.receipts.done(order.id)) return 'already';
      if (taken++ >= slots) return queueReceipt(deps, order);
      await pace();
      return sendUnmarked(deps, order);
    };
    let next = 0;
    const worker = async () => {
      while (next < unique.length) {
        const i = next++;
        await receipt(unique[i]!).then(settlers[i]!.resolve, settlers[i]!.reject);
      }
    };
    await Promise.all(Array.from({ length: Math.min(RECEIPTS_AT_ONCE, unique.length) }, worker));
  });
  return outcomes;
};
