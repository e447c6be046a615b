import { backfillPayingCounters } from '#data/admin-stats.ts';
import { backfillAffiliateEmailIndex, backfillAffiliateIndex, backfillCommissionIndex, backfillPayoutLines } from '#data/affiliates.ts';
import { backfillCouponIndex } from '#data/coupons.ts';
import { backfillCounterShards } from '#data/counter-shards-backfill.ts';
import { backfillCourseFigures, backfillCourseIndex, backfillCourseOutlines } from '#data/courses.ts';
import { backfillLeftEnrollmentsIndex } from '#data/enrollments.ts';
import { backfillBuyerIndex } from '#data/orders.ts';
import { backfillCourseSubmissionsIndex } from '#data/submissions.ts';

/**
 * `npm run backfill`: the one-off data migrations a deployed table needs after an upgrade, each idempotent (a second
 * run finds nothing to do). Point it at the stage with TABLE_NAME and AWS_REGION (and the usual AWS credentials).
 * The local cloud runs them itself on every start (lib/local/seed.ts).
 */
const indexed = await backfillCourseIndex();
console.log(`courses given the all-courses index keys: ${indexed}`);
const outlined = await backfillCourseOutlines();
console.log(`course outlines checked (written where missing or behind): ${outlined}`);
const paying = await backfillPayingCounters();
console.log(paying ? `paid-up subscription counters set: Starter ${paying.starter}, Pro ${paying.pro}` : 'paid-up subscription counters: already there, left alone');
const figures = await backfillCourseFigures();
console.log(
  figures
    ? `course figures set: ${figures.courses} courses, ${figures.enrollments} active enrolments, ${figures.completed} completed`
    : 'course figures: already there, left alone',
);
const commissions = await backfillCommissionIndex();
console.log(`commissions given the paged list's index keys: ${commissions}`);
const payouts = await backfillPayoutLines();
console.log(`payouts whose order ids became line items: ${payouts}`);
const coupons = await backfillCouponIndex();
console.log(`coupons given the paged list's index keys: ${coupons}`);
const affiliates = await backfillAffiliateIndex();
console.log(`affiliates given the paged list's index keys: ${affiliates}`);
// The counters from before the shards (issue 28 point 3), moved into shard 0 once.
const shards = await backfillCounterShards();
console.log(`counters moved into their shards: ${Object.entries(shards).map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
// Issue 37: the indexes the account deletion and the data export reach a person's records through.
const buyers = await backfillBuyerIndex();
console.log(`orders given the buyer index keys: ${buyers}`);
const submitted = await backfillCourseSubmissionsIndex();
console.log(`submissions given the course's index keys: ${submitted}`);
const claims = await backfillAffiliateEmailIndex();
console.log(`affiliate email claims given the email index keys: ${claims}`);
const left = await backfillLeftEnrollmentsIndex();
console.log(`removed enrolments given the learner's past courses index keys: ${left}`);
