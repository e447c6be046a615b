import { createHash } from 'node:crypto';
import { deleteSignInAccount } from '#adapters/cognito-directory.ts';
import { removeUploads } from '#adapters/s3-uploaded-files.ts';
import { cancelSubscriptionNow, deleteCustomer, expireConnectedCheckout, expireCustomerCheckouts, stripePayments } from '#adapters/stripe-payments.ts';
import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { PSEUDONYM_DOMAIN } from '#contracts/account-deletion.ts';
import { ACCOUNT_DELETION_JOB, type AccountDeletionJobDeps, type RequestAccountDeletionDeps } from '#core/accounts/delete-account.ts';
import { firstSlice } from '#core/jobs/slices.ts';
import { dynamoAccountDeletionRequests, dynamoAccountDeletions } from '#data/account-deletion.ts';
import { dynamoBilling } from '#data/billing.ts';
import { clock, courseRepository, directoryService, ids, userRepository } from '#functions/composition/deps.ts';

/** The run of one person's deletion: one per account (the queue drops a second start within its window; the item's `queuedAt` after). */
export const accountDeletionSlice = (userId: string) => firstSlice(ACCOUNT_DELETION_JOB, `${ACCOUNT_DELETION_JOB}@${userId}`, { userId });

/** DELETE /api/me's dependencies. */
export const accountDeletionRequestDeps = (): RequestAccountDeletionDeps => ({
  users: userRepository(),
  courses: courseRepository(),
  directory: directoryService(),
  deletions: dynamoAccountDeletionRequests(),
  jobs: { start: (userId) => sqsSliceQueue().send([accountDeletionSlice(userId)]) },
  clock,
});

/** Where an email must be replaced (orders, certificates): the same pseudonym for the same email, which it does not reveal. */
export const emailPseudonym = (email: string): string =>
  `deleted-${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 16)}@${PSEUDONYM_DOMAIN}`;

/** The 'account-deletion' job's dependencies. */
export const accountDeletionJobDeps = (): AccountDeletionJobDeps => ({
  deletions: dynamoAccountDeletions(),
  billing: dynamoBilling(),
  payments: {
    cancelSubscriptionNow,
    expireCheckoutSession: (sessionId) => stripePayments().expireCheckoutSession(sessionId),
    expireCustomerCheckouts,
    deleteCustomer,
    expireCourseCheckout: expireConnectedCheckout,
  },
  signIn: { deleteAccount: (userId) => deleteSignInAccount(userId) },
  uploads: { remove: removeUploads },
  pseudonym: emailPseudonym,
  clock,
  ids,
});
