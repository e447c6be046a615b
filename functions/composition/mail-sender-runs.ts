import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { firstSlice } from '#core/jobs/slices.ts';

/**
 * A run of the mail sender job started at once (its first slice on the job's queue, decision 0032), for mail just
 * queued; `key` names it, so a second start with the same key (a redelivered event) is dropped by the queue's
 * deduplication, and the schedule's runs send the queue anyway when a start is lost.
 */
export const startMailSender = (key: string): Promise<void> => sqsSliceQueue().send([firstSlice('mail-sender', `mail-sender@${key}`)]);
