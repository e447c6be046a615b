import { backfillCourseIndex } from '#data/courses.ts';

/**
 * `npm run backfill`: the one-off data migrations a deployed table needs after an upgrade, each idempotent (a second
 * run finds nothing to do). Point it at the stage with TABLE_NAME and AWS_REGION (and the usual AWS credentials).
 * The local cloud runs them itself on every start (lib/local/seed.ts).
 */
const indexed = await backfillCourseIndex();
console.log(`courses given the all-courses index keys: ${indexed}`);
