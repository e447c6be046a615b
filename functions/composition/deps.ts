import { randomInt } from 'node:crypto';
import { ulid } from 'ulid';
import { cognitoDirectory } from '#adapters/cognito-directory.ts';
import { businessMetrics } from '#adapters/metrics.ts';
import { s3ExportFiles } from '#adapters/s3-export-files.ts';
import { s3FileStore } from '#adapters/s3-file-store.ts';
import { s3FileLinks } from '#adapters/s3-presigner.ts';
import { sesMailer } from '#adapters/ses-mailer.ts';
import { mailerWithoutDeleted } from '#core/mail/deleted-recipients.ts';
import { deletedAccountEmails } from '#data/deleted-recipients.ts';
import { logger } from '#middleware/logger.ts';
import { required } from '#functions/config.ts';
import type { EnrollDeps } from '#core/enrollments/creator-enrollments.ts';
import { makeTemporaryPassword } from '#core/enrollments/invitation-email.ts';
import type { PriceIds } from '#core/billing/prices.ts';
import type { CrmRepository } from '#core/crm/ports.ts';
import type { FileRepository, FileStore } from '#core/files/ports.ts';
import type { LandingPageRepository } from '#core/landing/ports.ts';
import type { AffiliateRepository, BillingRepository, BrandingRepository, Clock, CourseRepository, CreditRepository, Directory, EnrollmentRepository, Ids, LeaderSettingsRepository, LicenseRepository, Mailer, MailQueue, MailSchool, Metrics, OrderRepository, QuizAttemptRepository, UserRepository } from '#core/ports.ts';
import type { CouponRepository, PayoutRepository } from '#core/sales/ports.ts';
import type { PlatformStatsReader } from '#core/admin/platform-stats.ts';
import { mailSchoolOf } from '#core/branding/branding.ts';
import { dynamoAdminStats } from '#data/admin-stats.ts';
import { dynamoBranding } from '#data/branding.ts';
import { dynamoAffiliates } from '#data/affiliates.ts';
import { dynamoBilling, readSubscription } from '#data/billing.ts';
import { dynamoCourses, readCourse, readOutline, updateLessonText } from '#data/courses.ts';
import { dynamoCredits } from '#data/credits.ts';
import { dynamoEnrollments } from '#data/enrollments.ts';
import { dynamoFiles } from '#data/files.ts';
import { dynamoCrm } from '#data/crm.ts';
import { dynamoLandingPages } from '#data/landing-pages.ts';
import { dynamoLeaderSettings } from '#data/leader-settings.ts';
import { dynamoMailQueue } from '#data/mail-queue.ts';
import { dynamoLicenses, readLicense } from '#data/licenses.ts';
import { dynamoQuizAttempts } from '#data/quiz-attempts.ts';
import { dynamoCoupons } from '#data/coupons.ts';
import { dynamoOrders } from '#data/orders.ts';
import { dynamoPayouts } from '#data/payouts.ts';
import { dynamoUsers } from '#data/users.ts';
import { dynamoSendQuota } from '#data/send-quota.ts';
import type { SendQuota } from '#core/mail/ports.ts';
import type { OnBehalfDeps } from '#core/mail/on-behalf.ts';

/**
 * Composition root: the real adapters, built once per process. Handlers take what they need from here and pass it
 * to one use case. One getter per port, so a bundle only carries the SDK clients its handler reaches (the AWS SDK
 * packages are side-effect free, esbuild drops the rest). Stripe's SDK is not side-effect free: its adapter is
 * composed in deps-payments.ts, imported only by the handlers that pay. The HTML sanitizer and the text model are
 * composed in deps-landing.ts, imported only by the handlers that write or generate a page.
 */
export const clock: Clock = { now: () => new Date() };
export const ids: Ids = { newId: () => ulid() };
export const metrics: Metrics = businessMetrics;

let users: UserRepository | undefined;
let directory: Directory | undefined;
let billing: BillingRepository | undefined;
let credits: CreditRepository | undefined;
let landingPages: LandingPageRepository | undefined;
let courses: CourseRepository | undefined;
let enrollments: EnrollmentRepository | undefined;
let mail: Mailer | undefined;
let queuedMail: MailQueue | undefined;
let crm: CrmRepository | undefined;
let files: FileRepository | undefined;
let store: FileStore | undefined;
let adminStats: PlatformStatsReader | undefined;
let payouts: PayoutRepository | undefined;
let orders: OrderRepository | undefined;
let coupons: CouponRepository | undefined;
let affiliates: AffiliateRepository | undefined;
let licenses: LicenseRepository | undefined;
let leaderSettings: LeaderSettingsRepository | undefined;
let quizAttempts: QuizAttemptRepository | undefined;
let sendQuotas: SendQuota | undefined;

export const userRepository = (): UserRepository => (users ??= dynamoUsers());
export const payoutRepository = (): PayoutRepository => (payouts ??= dynamoPayouts());
export const orderRepository = (): OrderRepository => (orders ??= dynamoOrders());
export const couponRepository = (): CouponRepository => (coupons ??= dynamoCoupons());
export const affiliateRepository = (): AffiliateRepository => (affiliates ??= dynamoAffiliates());
export const licenseRepository = (): LicenseRepository => (licenses ??= dynamoLicenses());
/** A licence by id alone (a seat's access check): the learner's routes need no more of licensing. */
export const licenseReader = (): Pick<LicenseRepository, 'get'> => ({ get: readLicense });
export const leaderSettingsRepository = (): LeaderSettingsRepository => (leaderSettings ??= dynamoLeaderSettings());
export const quizAttemptRepository = (): QuizAttemptRepository => (quizAttempts ??= dynamoQuizAttempts());
export const directoryService = (): Directory => (directory ??= cognitoDirectory());
export const billingRepository = (): BillingRepository => (billing ??= dynamoBilling());
export const creditRepository = (): CreditRepository => (credits ??= dynamoCredits());
export const landingPageRepository = (): LandingPageRepository => (landingPages ??= dynamoLandingPages());
export const courseRepository = (): CourseRepository => (courses ??= dynamoCourses());
/** A course by id alone (licences, enrolments, file links): their functions need no more of the courses module. */
export const courseReader = (): Pick<CourseRepository, 'getCourse' | 'getOutline'> => ({ getCourse: readCourse, getOutline: readOutline });
export const enrollmentRepository = (): EnrollmentRepository => (enrollments ??= dynamoEnrollments());
/** SES, which mails nobody whose account was deleted (core/mail/deleted-recipients.ts: every email passes here or the bulk port). */
export const mailer = (): Mailer => (mail ??= mailerWithoutDeleted(sesMailer(), deletedAccountEmails, (message, fields) => logger.info(message, fields)));
/** A trial creator's daily sends (core/mail/on-behalf.ts). */
export const sendQuota = (): SendQuota => (sendQuotas ??= dynamoSendQuota());
/**
 * What the platform checks before it mails someone for a user: their verified email (Cognito), a trial's daily cap (the
 * subscription read alone: no billing repository in the bundles of the routes that invite).
 */
/** The subscriptions alone (a creator's plan, issue 29): one GetItem, no other billing record. */
export const subscriptionReader = (): OnBehalfDeps['billing'] => ({ getSubscription: readSubscription });

let branding: BrandingRepository | undefined;
export const brandingRepository = (): BrandingRepository => (branding ??= dynamoBranding());
/** A creator's school for their learners' emails (issue 32): their branding while their plan includes it. */
export const mailSchool = (creatorId: string): Promise<MailSchool | undefined> =>
  mailSchoolOf({ branding: brandingRepository(), billing: subscriptionReader(), appOrigin: appOrigin() }, creatorId);
export const onBehalfDeps = (): OnBehalfDeps => ({ directory: directoryService(), billing: subscriptionReader(), sendQuota: sendQuota(), clock });
/** Emails nobody waits for whose send failed, for the sender job. */
export const mailQueue = (): MailQueue => (queuedMail ??= dynamoMailQueue());
/** The web app's origin, for links in emails. */
export const appOrigin = (): string => required('APP_ORIGIN');
/** An invited account's first password: meets the pool's policy, from a cryptographic source. */
export const temporaryPassword = (): string => makeTemporaryPassword(randomInt);
/**
 * Team licences that make accounts: a leader's on a grant, a learner's on a seat (users, Cognito, the invitation mail,
 * and the inviter's checks before it: onBehalfDeps).
 */
export const licenseDeps = () => ({
  ...onBehalfDeps(),
  licenses: licenseRepository(),
  courses: courseReader(),
  enrollments: enrollmentRepository(),
  users: userRepository(),
  directory: directoryService(),
  mailer: mailer(),
  clock,
  ids,
  appOrigin: appOrigin(),
  mailSchool,
  temporaryPassword,
});
/** Enrolment by email: the course, the enrolments, the accounts (users and Cognito), the mail. */
export const enrollDeps = (): EnrollDeps => ({
  ...onBehalfDeps(),
  courses: courseReader(),
  enrollments: enrollmentRepository(),
  users: userRepository(),
  directory: directoryService(),
  mailer: mailer(),
  clock,
  appOrigin: appOrigin(),
  mailSchool,
  temporaryPassword,
});
export const crmRepository = (): CrmRepository => (crm ??= dynamoCrm());
export const fileRepository = (): FileRepository => (files ??= dynamoFiles());
export const fileStore = (): FileStore => (store ??= s3FileStore());
/** Exports written to S3 a page at a time, answered as links (capability 'exports'). */
export const exportFiles = () => s3ExportFiles();
/** Course files: the items and the bucket (and the courses they belong to). */
export const fileDeps = () => ({ courses: courseRepository(), files: fileRepository(), store: fileStore(), clock });
/** An upload's routes: the same, with only the course reads and the lesson write they make. */
export const uploadDeps = () => ({ courses: { getCourse: readCourse, updateLesson: updateLessonText }, files: fileRepository(), store: fileStore(), clock });
/** Only the files' links (a download, an upload part): presigned without the S3 client (adapters/s3-presigner.ts). */
export const fileLinkDeps = () => ({ courses: courseReader(), files: fileRepository(), store: s3FileLinks(), clock });
/** The admin's platform figures: counters, trend weeks, recent activity. */
export const platformStatsReader = (): PlatformStatsReader => (adminStats ??= dynamoAdminStats());

/** The catalogue's Stripe price ids (configuration, not secrets). */
export const priceIds = (): PriceIds => ({
  starter: required('STRIPE_PRICE_STARTER'),
  pro: required('STRIPE_PRICE_PRO'),
  credits: required('STRIPE_PRICE_CREDITS'),
});

/** Everything the account use cases need. */
export const getDeps = () => ({ clock, ids, users: userRepository(), directory: directoryService() });
