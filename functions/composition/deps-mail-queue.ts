import { deletedAccountEmails } from '#data/deleted-recipients.ts';
import { createBuyerAccount } from '#core/sales/buyer-account.ts';
import type { QueuedAccount } from '#core/ports.ts';
import {
  appOrigin,
  clock,
  directoryService,
  enrollmentRepository,
  licenseRepository,
  mailer,
  mailQueue,
  mailSchool,
  metrics,
  orderRepository,
  temporaryPassword,
  userRepository,
} from '#functions/composition/deps.ts';

type Log = (message: string, fields: Record<string, unknown>) => void;

/**
 * What the job that sends the mail queue needs (core/mail/mail-queue.ts sendQueuedMail): SES, the queue, and the
 * queued work it does: a paid order's new buyer's account, invitation and enrolment (core/sales/buyer-account.ts;
 * Cognito, the orders, enrolments and licences). `warn` gets a failed try, `error` what an operator must look at.
 */
export const mailQueueSenderDeps = (warn: Log, error: Log) => {
  const work = {
    orders: orderRepository(),
    users: userRepository(),
    directory: directoryService(),
    enrollments: enrollmentRepository(),
    licenses: licenseRepository(),
    mailer: mailer(),
    clock,
    metrics,
    appOrigin: appOrigin(),
    mailSchool,
    temporaryPassword,
    alert: error,
  };
  return {
    mailer: mailer(),
    mailQueue: mailQueue(),
    clock,
    log: warn,
    logError: error,
    work: async (item: QueuedAccount) => void (await createBuyerAccount(work, item)),
    // Pending emails to a person who deleted their account are dropped at send time (issue 37 point 2).
    deletedRecipients: deletedAccountEmails,
  };
};
