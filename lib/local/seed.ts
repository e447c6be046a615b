import type { Role } from '#contracts/common.ts';
import type { IntegrationsView, SaveIntegrationsBody } from '#contracts/integrations.ts';
import { backfillAffiliateEmailIndex, backfillAffiliateIndex, backfillCommissionIndex, backfillPayoutLines } from '#data/affiliates.ts';
import { backfillCouponIndex } from '#data/coupons.ts';
import { backfillCounterShards } from '#data/counter-shards-backfill.ts';
import { backfillCourseFigures, backfillCourseIndex, backfillCourseOutlines } from '#data/courses.ts';
import { backfillLeftEnrollmentsIndex } from '#data/enrollments.ts';
import { backfillBuyerIndex } from '#data/orders.ts';
import { backfillCourseSubmissionsIndex } from '#data/submissions.ts';
import { documentClient, tableName } from '#data/table.ts';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createAccount } from '#core/accounts/create-account.ts';
import { ConflictError } from '#core/errors.ts';
import { getDeps } from '#functions/composition/deps.ts';
import { seedDemoBusiness } from './demo-business.ts';
import { seedDemoSequences } from './demo-sequences.ts';
import { demoCourses, seedDemoCatalogue } from './demo-catalogue.ts';
import { apiCaller, signInAs, subscribeToPlan } from './demo-flows.ts';
import type { Outputs } from './outputs.ts';

/** The seeded accounts: fixed so the README, the banner and the browser tests can name them. */
export const seedAccounts = {
  admin: { email: 'admin@example.com', password: 'AdminPass123', role: 'admin' },
  /** On the Pro plan with its credits, selling courses (demo-business.ts): signing in shows a live account. */
  creator: { email: 'creator@example.com', password: 'CreatorPass123', role: 'creator' },
  /** Never subscribed: signing in shows the plan picker. */
  newCreator: { email: 'newcreator@example.com', password: 'CreatorPass123', role: 'creator' },
  /** A group leader with the demo creator's team licence and three members (demo-business.ts). */
  leader: { email: 'leader@example.com', password: 'LeaderPass123', role: 'leader' },
} as const satisfies Record<string, { email: string; password: string; role: Role }>;

export interface SeedOptions {
  outputs: Outputs;
  /** Which Stripe the functions use (stripe/mode.ts): the demo trial is paid on the stand-in's page only. */
  stripe: 'stand-in' | 'real';
  log: (line: string) => void;
}

/** What the banner says of the demo creator's plan: how the seed left it. */
export type DemoPlan = 'pro' | 'existing' | 'real-stripe' | 'failed';

/**
 * Seeds through the same use case an admin uses to create an account (Cognito user with a permanent
 * password, its group, the profile and counters), so seeded data is shaped like real data. Idempotent:
 * an account that exists is left as it is. Then the demo creator's plan, courses and learners (demo-catalogue.ts),
 * its upcoming live session in Zoom (issue 30), and business (demo-business.ts: courses on sale, sales, a coupon, an
 * affiliate, the leader's licence and members).
 * Needs the handler environment (functionEnv) applied first, and the gateway up (the plan and the business go
 * through the API and the webhooks).
 */

export const seed = async (opts: SeedOptions): Promise<{ demoPlan: DemoPlan }> => {
  const deps = getDeps();
  // Before anything is seeded: the platform's course figures of data kept from a version that did not count them.
  const figures = await backfilledOnce('course-figures', backfillCourseFigures, undefined);
  if (figures && figures.courses > 0) opts.log(`[seed] course figures counted for ${figures.courses} earlier course(s)`);
  for (const account of Object.values(seedAccounts)) {
    try {
      await createAccount(deps, { email: account.email, role: account.role, password: account.password });
      opts.log(`[seed] created ${account.role} ${account.email}`);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  const demoPlan = await seedDemoPlan(opts);
  if (demoPlan !== 'failed' && demoPlan !== 'real-stripe') await seedDemoZoom(opts);
  try {
    await seedDemoCatalogue({ creatorEmail: seedAccounts.creator.email, log: opts.log });
  } catch (error) {
    // The cloud still starts: the demo creator then has fewer courses or learners than usual.
    opts.log(`[seed] WARNING: the demo courses and learners were not fully seeded: ${(error as Error)?.message ?? String(error)}`);
  }
  if (demoPlan !== 'failed' && demoPlan !== 'real-stripe') await seedDemoSession(opts);
  if (demoPlan !== 'failed') await seedDemoSequences({ outputs: opts.outputs, ...seedAccounts.creator, log: opts.log });
  // Data kept from an earlier version of the local cloud gets what later versions index (bin/backfill.ts in the cloud),
  // once per table (`backfilledOnce`).
  const indexed = await backfilledOnce('course-index', backfillCourseIndex, 0);
  if (indexed > 0) opts.log(`[seed] ${indexed} earlier courses added to the admin's course list`);
  const commissions = await backfilledOnce('commission-index', backfillCommissionIndex, 0);
  if (commissions > 0) opts.log(`[seed] ${commissions} earlier commissions added to their affiliate's paged list`);
  const payouts = await backfilledOnce('payout-lines', backfillPayoutLines, 0);
  if (payouts > 0) opts.log(`[seed] ${payouts} earlier payouts given their lines as items`);
  const listed = (await backfilledOnce('coupon-index', backfillCouponIndex, 0)) + (await backfilledOnce('affiliate-index', backfillAffiliateIndex, 0));
  if (listed > 0) opts.log(`[seed] ${listed} earlier coupons and affiliates added to their creator's paged lists`);
  const personal =
    (await backfilledOnce('buyer-index', backfillBuyerIndex, 0)) +
    (await backfilledOnce('course-submissions-index', backfillCourseSubmissionsIndex, 0)) +
    (await backfilledOnce('affiliate-email-index', backfillAffiliateEmailIndex, 0)) +
    (await backfilledOnce('left-enrollments-index', backfillLeftEnrollmentsIndex, 0));
  if (personal > 0) opts.log(`[seed] ${personal} earlier orders, submissions, affiliate claims and left courses indexed for the data export and account deletion`);
  // Courses from before outlines (issue 28) get theirs: the learners' lesson reads use them.
  await backfilledOnce('course-outlines', backfillCourseOutlines, 0);
  const sharded = Object.values(await backfilledOnce('counter-shards', backfillCounterShards, {})).reduce((sum, n) => sum + n, 0);
  if (sharded > 0) opts.log(`[seed] ${sharded} earlier counter item(s) moved into their shards`);
  // The demo creator's sales, coupon, affiliate and the leader's licence: through the Stripe stand-in only.
  if (opts.stripe === 'stand-in' && demoPlan !== 'failed') {
    try {
      await seedDemoBusiness({ outputs: opts.outputs, creator: seedAccounts.creator, leader: seedAccounts.leader, log: opts.log });
    } catch (error) {
      opts.log(`[seed] WARNING: the demo sales, coupon, affiliate and licence were not fully seeded: ${(error as Error)?.message ?? String(error)}`);
    }
  }
  return { demoPlan };
};

/** Where a local table keeps which backfills it has had: one item per backfill, named by it. */
const BACKFILLS_PK = 'LOCAL#BACKFILLS';

/**
 * A migration's backfill (bin/backfill.ts in the cloud), run on a local table once: each scans the whole table, and a
 * restart of a cloud whose table holds much (the integration suite's) would scan it a dozen times again for nothing.
 * The marker is written after the backfill ran to its end (a start stopped midway runs it again; backfills are
 * idempotent), and what is written since is written by code that keeps those keys itself. A backfill whose rule
 * changes is given a new name here, so it runs once more. Returns `skipped` when the table has had it.
 */
const backfilledOnce = async <T>(name: string, backfill: () => Promise<T>, skipped: T): Promise<T> => {
  const key = { pk: BACKFILLS_PK, sk: name };
  const marker = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key }));
  if (marker.Item) return skipped;
  const result = await backfill();
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...key, type: 'LocalBackfill', at: new Date().toISOString() } }));
  return result;
};

/**
 * The demo creator's Zoom (issue 30): the Zoom stand-in's demo Server-to-Server OAuth app, saved the way a creator saves
 * it (`PUT /api/integrations`, which checks it with the stand-in), so the demo creator starts Connected. A creator who
 * has saved integrations already keeps them (a restart changes nothing). A failure is reported; the cloud still starts.
 */
const seedDemoZoom = async ({ outputs, log }: SeedOptions): Promise<void> => {
  const { email, password } = seedAccounts.creator;
  try {
    const call = apiCaller(outputs);
    const token = await signInAs(outputs, email, password);
    const current = await call<IntegrationsView>('GET', '/api/integrations', { token });
    if (current.updatedAt !== null) return;
    const body: SaveIntegrationsBody = {
      zoom: { enabled: true, accountId: outputs.ZoomAccountId, apiKey: outputs.ZoomClientId, apiSecret: outputs.ZoomClientSecret },
      teams: { enabled: false, clientId: '' },
      googleCalendar: { enabled: false, calendarId: '' },
    };
    const saved = await call<IntegrationsView>('PUT', '/api/integrations', { token, body });
    log(`[seed] ${email} has Zoom ${saved.zoom.status === 'connected' ? 'connected' : `saved but not connected: ${saved.zoom.error ?? ''}`}`);
  } catch (error) {
    log(`[seed] WARNING: the demo creator's Zoom was not connected: ${(error as Error)?.message ?? String(error)}`);
  }
};

/** The demo creator's live session (issue 30): on the demo learner's first course, a few days after the seed, in Zoom. */
export const demoSession = {
  courseTitle: demoCourses[0].title,
  title: 'Live Q&A: your first loaf',
  description: 'Bring your starter questions and a photo of your crumb.',
  daysAhead: 3,
  hourUtc: 17,
  durationMinutes: 60,
} as const;

/**
 * The demo creator's upcoming live session, scheduled the way a creator schedules one (`POST .../sessions` through the
 * gateway with the Zoom connected above: the meeting is made at the Zoom stand-in, the enrolled learners are invited).
 * A course that has a session still ahead keeps it (a restart adds none); once the last one has ended, the next
 * start schedules a new one. A failure is reported; the cloud still starts.
 */
const seedDemoSession = async ({ outputs, log }: SeedOptions): Promise<void> => {
  const { email, password } = seedAccounts.creator;
  try {
    const call = apiCaller(outputs);
    const token = await signInAs(outputs, email, password);
    const courses = await call<{ items: { id: string; title: string }[] }>('GET', '/api/courses', { token });
    const course = courses.items.find((c) => c.title === demoSession.courseTitle);
    if (!course) return;
    const path = `/api/courses/${encodeURIComponent(course.id)}/sessions`;
    const sessions = await call<{ items: { status: string; startsAt: string; durationMinutes: number }[] }>('GET', path, { token });
    if (sessions.items.some((s) => s.status === 'scheduled' && Date.parse(s.startsAt) + s.durationMinutes * 60_000 > Date.now())) return;
    const startsAt = new Date(Date.now() + demoSession.daysAhead * 86_400_000);
    startsAt.setUTCHours(demoSession.hourUtc, 0, 0, 0);
    await call('POST', path, {
      token,
      body: {
        title: demoSession.title,
        description: demoSession.description,
        startsAt: startsAt.toISOString(),
        durationMinutes: demoSession.durationMinutes,
        provider: 'zoom',
        timeZone: 'Europe/London',
      },
    });
    log(`[seed] ${email} has a live session in Zoom on ${startsAt.toISOString()} for '${demoSession.courseTitle}'`);
  } catch (error) {
    log(`[seed] WARNING: the demo live session was not scheduled: ${(error as Error)?.message ?? String(error)}`);
  }
};

/**
 * The demo creator's Pro plan (affiliates are a Pro feature), the way a creator gets one: signed in,
 * `POST /api/billing/checkout` through the gateway, then **Pay** on the Stripe stand-in's hosted page, which delivers
 * the signed events to the real webhook handler before it answers. A creator with any subscription history is left as
 * they are, so a restart never subscribes twice. A failure is reported and the cloud still starts: the creator then
 * shows the plan picker.
 */
const seedDemoPlan = async ({ outputs, stripe, log }: SeedOptions): Promise<DemoPlan> => {
  const { email, password } = seedAccounts.creator;
  if (stripe === 'real') {
    log(`[seed] real Stripe: ${email} is not subscribed for you (subscribe from the dashboard)`);
    return 'real-stripe';
  }
  try {
    const call = apiCaller(outputs);
    const token = await signInAs(outputs, email, password);
    const current = await call<{ status: string; tier: string | null }>('GET', '/api/me/subscription', { token });
    if (current.status !== 'none') return current.tier === 'pro' && current.status === 'active' ? 'pro' : 'existing';
    await subscribeToPlan(call, outputs, token, 'pro');
    log(`[seed] ${email} is on the Pro plan`);
    return 'pro';
  } catch (error) {
    log(`[seed] WARNING: the demo creator's Pro plan was not seeded: ${(error as Error)?.message ?? String(error)}`);
    return 'failed';
  }
};
