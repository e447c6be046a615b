import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { REPORT_PAGE_SIZE } from '#contracts/licenses.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import type { Order } from '#core/ports.ts';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { readCounter } from '#data/sharded-counters.ts';
import { enrolledCounter } from '#data/courses.ts';
import { receiptKey } from '#data/order-receipts.ts';
import { dynamoOrders } from '#data/orders.ts';
import { tableName } from '#data/table.ts';
import { dynamoUsers } from '#data/users.ts';
import { resetConfig } from '#functions/config.ts';
import { getDeps } from '#functions/composition/deps.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { applyFunctionEnv } from '#lib/local/function-env.ts';
import { signIn, startUnthrottledGateway } from '../api-latency.ts';
import { count } from '../cloud-part.ts';
import { stopOnSignals } from '../signals.ts';
import { compareFirstPages } from '../first-pages.ts';
import { errorRow, formatTable, row, section, shortMessage, type Row } from '../table.ts';
import { capturePutsOf } from './capture.ts';
import { benchReader, loadJob, runJob, scaleJobs, SLOW_REQUEST_MS, type CountContext, type JobRun, type ScaleJob } from './jobs.ts';
import { personalExport, personalExportShortSlices } from './personal-export.ts';
import { courseItems, enrolmentItems, learnerEmail, licenceItems, userItems, type SeedCourse } from './seed.ts';
import { batchWriteAll, billedUnits, readSizes, recordWrites, summarizeWrites, writesByShape } from './writes.ts';

/**
 * The bench's scale section (issue 28 point 7): `npm run bench -- --scale` (run.ts starts this instead of bench.ts;
 * never in CI). Its own local cloud, its DynamoDB Local on /dev/shm when there is one (the seeding is what it measures
 * least); then:
 *   1. each job (jobs.ts) at 1,000 items and at its size at scale, over items of its own seeded straight into the
 *      table: items per second, slices (or invocations), the per-item ratio (budget <= 1.5x); and a run killed mid-way
 *      (one write lands, its answer is lost) and resumed: lost and doubled counted from the table (budget 0 / 0);
 *      "Download my data" (personal-export.ts) for a creator of 50,000 CRM rows, in the job's own slices and in short
 *      ones (`--jobs=personal-export,personal-export-short-slices`): every row in the ZIP once, and the heap's growth;
 *   2. the platform at size, seeded straight into the table (BatchWriteItem, in parallel) with items the data modules
 *      build themselves (seed.ts): 100,000 learners (one creator with 50,000 on one course, the rest on 50 creators'
 *      courses), 10,000 group leaders with licences and seats (one of 5,000 seats), and the seeding time (< 5 min);
 *   3. a flash sale: 5,000 paid orders of one course through the Connect webhook (signed events, 16 in flight), every
 *      write's keys and ReturnConsumedCapacity recorded until the mail sender has sent what the orders queued and the
 *      stream aggregator (decision 0040, its cloud batching window of 2 s) has counted them, exactly (a row says): write
 *      units per order (<= 10) as DynamoDB Local reports them and as DynamoDB bills them (writes.ts billedUnits: Local
 *      reports a transaction by the size of all its items together), where they go by the shape of each write, and the
 *      most writes any one item took, as a fraction of the orders (<= 1/10), the hottest items named;
 *   4. the CRM's first page and the leader report's at size against the default bench's small size, 10 (<= 1.5x).
 * `--fraction=0.1` runs everything but the 1,000-item job runs (the ratios' base) at a tenth (a loaded machine; the table says so);
 * `--jobs=credit-reset,mail drain` runs only those jobs, and nothing of the platform at size (its seeding alone is minutes
 * that measure none of the jobs); `--flash-only` seeds the platform and runs the flash sale alone (no jobs, no first
 * pages: a quick measure of the sale's writes); `--platform` the same and the first pages at size (no jobs). None of
 * them: everything. Nothing asserts: ✗ marks a miss.
 */

const args = process.argv.slice(2);
const fraction = Number(args.find((a) => a.startsWith('--fraction='))?.slice('--fraction='.length) ?? '1');
if (!(fraction > 0 && fraction <= 1)) throw new Error(`--fraction must be in (0, 1], not ${fraction}`);
const at = (n: number) => Math.max(1, Math.round(n * fraction));
const flashOnly = args.includes('--flash-only');
const platformOnly = args.includes('--platform');
const onlyJobs = flashOnly || platformOnly ? [] : args.find((a) => a.startsWith('--jobs='))?.slice('--jobs='.length).split(',');
const jobsOnly = !flashOnly && !platformOnly && onlyJobs !== undefined;

const LEARNERS = at(100_000);
const BIG_COURSE = at(50_000);
const SPREAD_CREATORS = 50;
const LEADERS = at(10_000);
const BIG_LICENCE = at(5_000);
const SEATS_EACH = 4;
const SMALL_JOB = 1_000;
const ORDERS = at(5_000);
const SMALL_PAGE = 10;
const RATIO_BUDGET = 1.5;
const UNITS_PER_ORDER_BUDGET = 10;
const HOT_FRACTION_BUDGET = 0.1;
const SEED_PARALLEL = 8;

process.env.LOG_LEVEL ??= 'warn';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const progress = (line: string): void => void process.stderr.write(`[scale] ${new Date().toISOString().slice(11, 19)} ${line}\n`);
const workDir = mkdtempSync(join(process.platform === 'linux' ? '/dev/shm' : '/tmp', 'bench-scale-'));
const seconds = (s: number) => `${s.toFixed(1)} s`;

let cloud: Promise<LocalCloud> | undefined;
let stopGateway: (() => Promise<void>) | undefined;
const stopEverything = async () => {
  await stopGateway?.().catch(() => undefined);
  stopGateway = undefined;
  const starting = cloud;
  cloud = undefined;
  await starting?.then((c) => c.stop()).catch(() => undefined);
};
stopOnSignals(progress, () => stopEverything().finally(() => rmSync(workDir, { recursive: true, force: true })));

interface Population {
  bigCreator: { id: string; token: string };
  smallCreator: { id: string; token: string };
  bigLeader: { licenceId: string; token: string };
  smallLeader: { licenceId: string; token: string };
  bigCourse: SeedCourse;
  /** Learners of the spread courses, none on the big course: the flash sale's buyers. */
  buyers: { tag: string; count: number };
}

/** An account of the bench's own that signs in (Cognito and the table, as the product makes one). */
const realAccount = async (local: LocalCloud, role: 'creator' | 'leader', name: string) => {
  const email = `scale-${name}-${Date.now()}@example.com`;
  const password = 'ScaleBench123';
  const user = await createAccount(getDeps(), { email, role, password });
  const { token } = await signIn(local, email, password);
  return { id: user.id, email, token };
};

/** Point 2: the platform at size. */
const seedPopulation = async (local: LocalCloud, write: (items: Record<string, unknown>[]) => Promise<void>): Promise<{ rows: Row[]; population: Population }> => {
  const started = performance.now();
  const [bigC, smallC, bigL, smallL] = [
    await realAccount(local, 'creator', 'big-creator'),
    await realAccount(local, 'creator', 'small-creator'),
    await realAccount(local, 'leader', 'big-leader'),
    await realAccount(local, 'leader', 'small-leader'),
  ];
  const bigCourse = { id: 'scale-big-course', title: 'The course of 50,000', creatorId: bigC.id };
  const smallCourse = { id: 'scale-small-course', title: 'A course of 10', creatorId: smallC.id };
  let items = 0;
  let building = 0;
  // Building the next items overlaps writing the last (the builders are this process's CPU, the writes DynamoDB Local's).
  let writing: Promise<void> = Promise.resolve();
  const put = async (build: () => Promise<Record<string, unknown>[]>) => {
    const t0 = performance.now();
    const built = await build();
    building += performance.now() - t0;
    items += built.length;
    await writing;
    writing = write(built);
    writing.catch(() => undefined); // awaited by the next put or at the end
  };
  progress(`seeding: courses, the big creator's ${count(BIG_COURSE)} learners (${count(BIG_LICENCE)} on one licence, ${count(LEADERS)} leaders)`);
  await put(async () => [...(await courseItems(bigCourse)), ...(await courseItems(smallCourse))]);
  // The big course: one licence of BIG_LICENCE seats, a small one of SMALL_PAGE, LEADERS - 2 of SEATS_EACH, the rest own enrolments.
  const big = await licenceItems({ tag: 'P-big', course: bigCourse, count: 1, seats: BIG_LICENCE, expiresAt: null, leader: { id: bigL.id, email: bigL.email } });
  await put(async () => big.items);
  const small = await licenceItems({ tag: 'P-small', course: bigCourse, count: 1, seats: SMALL_PAGE, expiresAt: null, leader: { id: smallL.id, email: smallL.email } });
  await put(async () => small.items);
  const teams = Math.max(0, LEADERS - 2);
  for (let from = 0; from < teams; from += 1_000) {
    await put(async () => (await licenceItems({ tag: `P-team${from}`, course: bigCourse, count: Math.min(1_000, teams - from), seats: SEATS_EACH, expiresAt: null })).items);
  }
  const own = Math.max(0, BIG_COURSE - BIG_LICENCE - SMALL_PAGE - teams * SEATS_EACH);
  await put(async () => [...(await userItems('P-own', own)), ...(await enrolmentItems('P-own', bigCourse, 0, own))]);
  await put(async () => [...(await userItems('P-few', SMALL_PAGE)), ...(await enrolmentItems('P-few', smallCourse, 0, SMALL_PAGE))]);
  // The rest of the learners on SPREAD_CREATORS creators' courses, 10,000 at a time.
  const spread = Math.max(0, LEARNERS - BIG_COURSE - SMALL_PAGE);
  progress(`seeding: ${count(spread)} more learners on ${SPREAD_CREATORS} creators' courses`);
  const creators = Array.from({ length: SPREAD_CREATORS }, (_, i) => ({ id: `P-creator${i}`, course: { id: `scale-course-${i}`, title: `Course ${i}`, creatorId: `P-creator${i}` } }));
  await put(async () => {
    const made = await capturePutsOf(['User', 'UserEmail'], async () => {
      for (const c of creators) await dynamoUsers().createUser({ id: c.id, email: `${c.id}@scale.example.com`, role: 'creator', createdAt: new Date().toISOString() });
    });
    for (const c of creators) made.push(...(await courseItems(c.course)));
    return made;
  });
  for (let from = 0; from < spread; from += 10_000) {
    const n = Math.min(10_000, spread - from);
    await put(async () => {
      const users = await userItems('P-s', n, { from });
      const enrolments: Record<string, unknown>[] = [];
      // A block of learners per course (one capture each), enrolled over the last year.
      const block = Math.ceil(n / SPREAD_CREATORS);
      for (let c = 0; c < SPREAD_CREATORS && c * block < n; c++) {
        enrolments.push(...(await enrolmentItems('P-s', creators[c]!.course, from + c * block, Math.min(block, n - c * block))));
      }
      return [...users, ...enrolments];
    });
    progress(`  ${count(from + n)} of ${count(spread)}`);
  }
  await writing;
  const total = (performance.now() - started) / 1000;
  const learners = BIG_COURSE + SMALL_PAGE + spread;
  return {
    rows: [
      row(
        `seeded ${count(learners)} learners (${count(BIG_COURSE)} on one course), ${count(LEADERS)} leaders with licences and seats: BatchWriteItem, ${SEED_PARALLEL} in flight`,
        `${seconds(total)} (${count(items)} items, ${count(Math.round(items / total))} items/s; building them ${seconds(building / 1000)})`,
        '< 300 s',
        total < 300,
      ),
    ],
    population: {
      bigCreator: { id: bigC.id, token: bigC.token },
      smallCreator: { id: smallC.id, token: smallC.token },
      bigLeader: { licenceId: big.licenceIds[0]!, token: bigL.token },
      smallLeader: { licenceId: small.licenceIds[0]!, token: smallL.token },
      bigCourse,
      buyers: { tag: 'P-s', count: spread },
    },
  };
};

/** A run's failed slices delivered again (as SQS does), when there were any. */
const redeliveries = (run: JobRun): string => (run.redelivered > 0 ? `, ${run.redelivered} failed and delivered again` : '');

/** The run's calls slower than SLOW_REQUEST_MS (or failed): how many, by command, and the slowest three. */
const slowRow = (name: string, n: number, slow: JobRun['slow']): Row => {
  const byCommand = new Map<string, number>();
  for (const s of slow) byCommand.set(s.command, (byCommand.get(s.command) ?? 0) + 1);
  const slowest = slow.slice(0, 3).map((s) => `${s.command} ${count(s.ms)} ms x${s.attempts} (${s.detail})`);
  return row(`${name} at ${count(n)}: DynamoDB calls over ${count(SLOW_REQUEST_MS)} ms or failed`, `${[...byCommand].map(([c, k]) => `${c} ${k}`).join(', ')}; slowest: ${slowest.join('; ')}`);
};

/** Point 1: each job at 1,000 and at size; after the 1,000, a run killed mid-way (1,000 items, or the fraction of them). */
const benchJobs = async (write: (items: Record<string, unknown>[]) => Promise<void>, ctx: CountContext, size: 'small' | 'large', measured: Map<string, number>): Promise<Row[]> => {
  const rows: Row[] = [];
  // The personal data export's entry lives in a module of its own (it imports the entries' types from jobs.ts).
  for (const entry of [...scaleJobs, personalExport, personalExportShortSlices].filter((j) => !onlyJobs || onlyJobs.includes(j.name))) {
    const job: ScaleJob = entry;
    const n = size === 'small' ? SMALL_JOB : at(job.large);
    try {
      const loaded = await loadJob(job);
      if (!loaded) {
        if (size === 'small') rows.push(row(job.name, `not measured: functions/jobs/${job.modules[0]}.ts is not on this branch yet`));
        continue;
      }
      const { mod, module } = loaded;
      const tag = `J-${job.name}-${size}`;
      progress(`${job.name}: seeding ${count(n)} ${job.unit}`);
      const seeded = await job.seed(write, tag, n);
      progress(`${job.name}: running over ${count(n)}`);
      const recorder = recordWrites();
      let run;
      try {
        run = await runJob(job, mod, seeded, async () => n - (await job.count(seeded, ctx)).done, { log: progress });
      } finally {
        recorder.stop();
      }
      const writeCalls = recorder.writes.length;
      // Figures the stream aggregator keeps are final once it has caught up (decision 0040).
      await ctx.streamsCaughtUp();
      const { done, doubled, note, worked } = await job.count(seeded, ctx);
      // The time is per item the run worked through: more than these n where the job's audience is wider (a campaign).
      const perItem = run.seconds / (worked ?? n);
      const how = `${module === job.name ? '' : `functions/jobs/${module}.ts, `}${run.engine === 'sliced' ? 'sliced' : 'not sliced yet: its handler, invoked again while it moves'}`;
      rows.push(
        row(
          `${job.name} at ${count(n)} ${job.unit} (${how})`,
          `${count(Math.round((worked ?? n) / run.seconds))} items/s, ${seconds(run.seconds)}, ${run.slices} ${run.engine === 'sliced' ? 'slices' : 'invocations'}${redeliveries(run)}; done ${count(done)}, doubled ${doubled}${note ? ` (${note})` : ''}`,
          `${count(n)} done, 0 doubled`,
          done === n && doubled === 0,
        ),
      );
      rows.push(...(job.rows?.(seeded) ?? []));
      if (run.slow.length > 0) rows.push(slowRow(job.name, n, run.slow));
      if (size === 'small') measured.set(job.name, perItem);
      else {
        const small = measured.get(job.name);
        if (small !== undefined) {
          const ratio = perItem / small;
          rows.push(row(`${job.name} time per item at ${count(n)} / at ${count(SMALL_JOB)}`, `${ratio.toFixed(2)}x`, `<= ${RATIO_BUDGET}x`, ratio <= RATIO_BUDGET));
        }
      }
      if (size === 'small') {
        // Killed once, mid-run: after half the write calls the run above made, scaled to the kill run's items.
        const k = at(SMALL_JOB);
        const killSeeded = await job.seed(write, `J-${job.name}-kill`, k);
        const killAt = job.killAfterWrites ?? Math.max(1, Math.round(((writeCalls / n) * k) / 2));
        progress(`${job.name}: a run killed after write ${count(killAt)}, resumed`);
        const killed = await runJob(job, mod, killSeeded, async () => k - (await job.count(killSeeded, ctx)).done, { killAfterWrites: killAt, log: progress });
        await ctx.streamsCaughtUp();
        const after = await job.count(killSeeded, ctx);
        const lost = k - after.done;
        rows.push(
          row(
            `${job.name} at ${count(k)}, killed mid-run (after write ${count(killAt)}${killed.killed ? '' : ': the run ended first'}) and resumed: lost / doubled`,
            `${lost} / ${after.doubled} (${killed.slices} ${killed.engine === 'sliced' ? 'slices' : 'invocations'}${redeliveries(killed)}${after.note ? `; ${after.note}` : ''})`,
            '0 / 0',
            lost === 0 && after.doubled === 0 && killed.killed,
          ),
        );
      }
    } catch (error) {
      rows.push(errorRow(`${job.name} at ${count(n)}`, error));
    }
  }
  return rows;
};

const stripe = new Stripe('sk_test_x', { telemetry: false });

/** Point 3: the flash sale. */
const flashSale = async (local: LocalCloud, gatewayUrl: string, write: (items: Record<string, unknown>[]) => Promise<void>, population: Population): Promise<Row[]> => {
  const orders = Math.min(ORDERS, population.buyers.count);
  const course = population.bigCourse;
  const accountId = 'acct_scale_flash';
  const createdAt = new Date(Date.now() - 60_000).toISOString();
  const order = (i: number): Order => ({
    id: `ord_flash_${i}`,
    courseId: course.id,
    courseTitle: course.title,
    creatorId: course.creatorId,
    accountId,
    status: 'pending',
    buyerEmail: learnerEmail(population.buyers.tag, i),
    price: 1900,
    discount: 0,
    amount: 1900,
    currency: 'gbp',
    couponCode: null,
    affiliateId: null,
    seats: null,
    checkoutSessionId: `cs_flash_${i}`,
    checkoutUrl: null,
    paymentIntentId: null,
    learnerId: null,
    createdAt,
    paidAt: null,
  });
  progress(`flash sale: ${count(orders)} pending orders`);
  await write(
    await capturePutsOf(['Order'], async () => {
      for (let i = 0; i < orders; i++) await dynamoOrders().create(order(i));
    }),
  );
  const secret = local.outputs.StripeConnectWebhookSecret;
  const event = (i: number) =>
    JSON.stringify({
      id: `evt_flash_${i}`,
      object: 'event',
      type: 'checkout.session.completed',
      account: accountId,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: {
        object: {
          id: `cs_flash_${i}`,
          object: 'checkout.session',
          payment_status: 'paid',
          amount_total: 1900,
          total_details: { amount_discount: 0 },
          customer_email: learnerEmail(population.buyers.tag, i),
          customer_details: { email: learnerEmail(population.buyers.tag, i) },
          payment_intent: `pi_flash_${i}`,
          metadata: { orderId: `ord_flash_${i}`, courseId: course.id },
        },
      },
    });
  // The seeding's own records (its enrolments) counted first: the aggregator's writes for them are not the sale's.
  await local.streams.caughtUp(90_000);
  await local.reactions.caughtUp(90_000);
  const enrolled = async () => (await readCounter(enrolledCounter(course.id), { attributes: ['enrolled'], consistent: true }))['enrolled'] ?? 0;
  const enrolledBefore = await enrolled();
  const statuses: Record<string, number> = {};
  const recorder = recordWrites();
  const started = performance.now();
  let took: number | undefined;
  let receiptsTook: number | undefined;
  let next = 0;
  progress(`flash sale: ${count(orders)} signed checkout.session.completed events, 16 in flight`);
  try {
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < orders) {
          const i = next++;
          const payload = event(i);
          const res = await fetch(`${gatewayUrl}/api/webhooks/stripe-connect`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret }) },
            body: payload,
          });
          await res.text();
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        }
      }),
    );
    // What the orders queued (their receipts) is written again by the mail sender: its writes are the orders' too.
    took = (performance.now() - started) / 1000;
    progress('flash sale: waiting for the mail sender to send what the orders queued');
    await mailQueueDrained(90_000);
    // And until the stream aggregator has counted them (decision 0040): its writes are the orders' too.
    progress('flash sale: waiting for the stream aggregator to count the orders');
    await local.streams.caughtUp(90_000);
    // And until the reactions have sent the receipts (decision 0054: each one's mark is the order's write too). Their
    // one local poller sends them one after the other, well behind the sale: waited for as long as they keep coming.
    progress('flash sale: waiting for the reactions to send the receipts');
    receiptsTook = await reactionsCaughtUp(local, orders, started);
  } finally {
    recorder.stop();
  }
  const summary = summarizeWrites(recorder.writes, 5);
  const sizes = await readSizes(local.outputs, recorder.writes.flatMap((w) => w.keys));
  const billedPerOrder = billedUnits(recorder.writes, sizes) / orders;
  const paid = await countPaid(orders);
  const receipts = await countReceipts(orders);
  // Exact: every paid order counted once in the month's sales, by the aggregator (the month began before the sale unless
  // it just turned: then the day's figures are what the window reads).
  const today = new Date().toISOString().slice(0, 10);
  const counted = (await dynamoOrders().salesWindow(course.creatorId, today, today)).byCourse[course.id]?.sales ?? 0;
  const enrolledBySale = (await enrolled()) - enrolledBefore;
  const hottest = summary.hottest[0];
  const hotFraction = hottest ? hottest.writes / orders : 0;
  const unitsPerOrder = summary.units === undefined ? undefined : summary.units / orders;
  return [
    row(
      `${count(orders)} webhooks answered (${seconds(took ?? 0)}, ${count(Math.round(orders / (took ?? 1)))} orders/s); orders paid`,
      `${Object.entries(statuses).map(([code, n]) => `${code}: ${count(n)}`).join(', ')}; paid ${count(paid)}`,
      `200: ${count(orders)}; paid ${count(orders)}`,
      statuses['200'] === orders && paid === orders,
    ),
    row(
      "receipts sent once from the orders' paid records on the stream (decision 0054: a mark per order), and when the last was",
      `${count(receipts)} of ${count(orders)}${receiptsTook === undefined ? '' : ` (the last ${seconds(receiptsTook)} after the sale's first webhook)`}`,
      `${count(orders)}`,
      receipts === orders,
    ),
    row(
      'sales counted by the stream aggregator (the course\'s sales today: nothing lost, nothing doubled)',
      `${count(counted)} of ${count(orders)}`,
      `${count(orders)}`,
      counted === orders,
    ),
    row(
      "enrolments counted by the stream aggregator (the course's enrolled count: nothing lost, nothing doubled)",
      `+${count(enrolledBySale)} of ${count(orders)}`,
      `+${count(orders)}`,
      enrolledBySale === orders,
    ),
    row(
      'write units per order (ReturnConsumedCapacity INDEXES, table + indexes)',
      unitsPerOrder === undefined ? 'not reported by DynamoDB Local' : `${unitsPerOrder.toFixed(1)} WCU (${count(summary.writeCalls)} write calls, ${count(summary.itemWrites)} item writes)`,
      `<= ${UNITS_PER_ORDER_BUDGET}`,
      unitsPerOrder === undefined ? undefined : unitsPerOrder <= UNITS_PER_ORDER_BUDGET,
    ),
    row(
      'write units per order as DynamoDB bills them (per item: 1 per KB, 2 in a transaction, again per index; from the items\' sizes)',
      `${billedPerOrder.toFixed(1)} WCU`,
      `<= ${UNITS_PER_ORDER_BUDGET}`,
      billedPerOrder <= UNITS_PER_ORDER_BUDGET,
    ),
    row(
      'most writes to one item / orders',
      hottest ? `${count(hottest.writes)} / ${count(orders)} = ${hotFraction.toFixed(2)} (${hottest.key})` : 'no writes',
      `<= ${HOT_FRACTION_BUDGET}`,
      hotFraction <= HOT_FRACTION_BUDGET,
    ),
    row('the hottest items (writes)', summary.hottest.slice(1).map((h) => `${h.key}: ${count(h.writes)}`).join('; ') || 'none'),
    ...writesByShape(recorder.writes, sizes).map((s) =>
      row(
        `  units per order of ${s.shape}`,
        `${(s.units / orders).toFixed(2)} WCU reported, ${(s.billed / orders).toFixed(2)} billed (${count(s.calls)} calls, ${(s.items / s.calls).toFixed(1)} items each)`,
      ),
    ),
  ];
};

/**
 * Until the reactions' poller has caught up with the stream (the receipts sent), however long that takes while they
 * keep coming (the marks counted every 30 s: a wait that stops moving ends): the seconds since `started`, or undefined.
 */
const reactionsCaughtUp = async (local: LocalCloud, orders: number, started: number): Promise<number | undefined> => {
  let before = -1;
  for (;;) {
    try {
      await local.reactions.caughtUp(30_000);
      return (performance.now() - started) / 1000;
    } catch {
      const now = await countReceipts(orders);
      progress(`flash sale: ${count(now)} receipts sent`);
      if (now === before) return undefined;
      before = now;
    }
  }
};

/** Until the mail queue is empty (the sender has sent what was queued), or `ms` pass. */
const mailQueueDrained = async (ms: number): Promise<void> => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const { Items = [] } = await benchReader().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'MAILQUEUE' }, Limit: 1, ConsistentRead: true }),
    );
    if (Items.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  progress('flash sale: the mail queue was not empty after the wait');
};

/** The orders whose receipt was sent (or queued) by the stream's reactions: their marks. */
const countReceipts = async (orders: number): Promise<number> => {
  let marked = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < orders) {
        const { Item } = await benchReader().send(new GetCommand({ TableName: tableName(), Key: receiptKey(`ord_flash_${next++}`), ConsistentRead: true }));
        if (Item) marked++;
      }
    }),
  );
  return marked;
};

const countPaid = async (orders: number): Promise<number> => {
  const repo = dynamoOrders();
  let paid = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < orders) {
        const o = await repo.get(`ord_flash_${next++}`);
        if (o?.status === 'paid') paid++;
      }
    }),
  );
  return paid;
};

/** Point 4: the first pages at size against the default bench's small sizes. */
const flatReads = async (gatewayUrl: string, population: Population): Promise<Row[]> => {
  const rows: Row[] = [];
  const common = { warmUp: 20, requests: 100, budget: RATIO_BUDGET };
  try {
    progress('CRM first page: 10 vs the big creator');
    rows.push(
      ...(await compareFirstPages({
        small: { url: `${gatewayUrl}/api/crm/learners`, token: population.smallCreator.token, items: SMALL_PAGE },
        large: { url: `${gatewayUrl}/api/crm/learners`, token: population.bigCreator.token, items: BIG_COURSE },
        pageSize: 25,
        noun: 'learners (CRM)',
        ...common,
      })),
    );
  } catch (error) {
    rows.push(errorRow('CRM first page at size', error));
  }
  try {
    progress('leader report first page: 10 vs the big licence');
    const url = (licenceId: string) => `${gatewayUrl}/api/leader/reports?licenseId=${encodeURIComponent(licenceId)}`;
    rows.push(
      ...(await compareFirstPages({
        small: { url: url(population.smallLeader.licenceId), token: population.smallLeader.token, items: SMALL_PAGE },
        large: { url: url(population.bigLeader.licenceId), token: population.bigLeader.token, items: BIG_LICENCE },
        pageSize: REPORT_PAGE_SIZE,
        noun: 'members (leader report)',
        ...common,
      })),
    );
  } catch (error) {
    rows.push(errorRow('leader report first page at size', error));
  }
  return rows;
};

const started = performance.now();
const rows: Row[] = [];
try {
  const { startLocalCloud } = await import('#lib/local/cloud.ts');
  progress(`starting the local cloud (its data in ${workDir})`);
  // The stream's batching window as in the cloud (lib/stacks/jobs-stack.ts: 2 s), not the local default of 150 ms.
  cloud = startLocalCloud({ dataDir: join(workDir, 'local'), ports: 'auto', web: false, seed: true, streams: { batchWindowMs: 2_000 }, log: () => undefined });
  const local = await cloud;
  applyFunctionEnv(local.env);
  const gateway = await startUnthrottledGateway(local);
  stopGateway = gateway.stop;
  const write = (items: Record<string, unknown>[]) => batchWriteAll(local.outputs, items, { parallel: SEED_PARALLEL });
  const ctx: CountContext = { sesUrl: local.outputs.SesEndpoint, streamsCaughtUp: () => local.streams.caughtUp(120_000) };
  const scaleNote = fraction === 1 ? '' : ` (at ${fraction} of full size: --fraction)`;

  const measured = new Map<string, number>();
  if (!flashOnly && !platformOnly) {
    rows.push(section(`Jobs at ${count(SMALL_JOB)} items, and killed mid-run${scaleNote}`));
    rows.push(...(await benchJobs(write, ctx, 'small', measured)));
    // Each job at size over items of its own (the platform's population is seeded after: it would be the jobs' work too).
    rows.push(section(`Jobs at size${scaleNote}`));
    rows.push(...(await benchJobs(write, ctx, 'large', measured)));
  }

  let population: Population | undefined;
  if (!jobsOnly) {
    rows.push(section(`The platform at size${scaleNote}`));
    try {
      const seeded = await seedPopulation(local, write);
      rows.push(...seeded.rows);
      population = seeded.population;
    } catch (error) {
      rows.push(errorRow('seeding the platform at size', error));
    }
  }

  if (population) {
    rows.push(section(`Flash sale: ${count(Math.min(ORDERS, population.buyers.count))} paid orders of one course through POST /api/webhooks/stripe-connect${scaleNote}`));
    try {
      rows.push(...(await flashSale(local, gateway.url, write, population)));
    } catch (error) {
      rows.push(errorRow('flash sale', error));
    }
    if (!flashOnly) {
      rows.push(section(`Flat reads at size: first pages at ${SMALL_PAGE} vs at size (1 in flight, alternating)${scaleNote}`));
      rows.push(...(await flatReads(gateway.url, population)));
    }
  }
} catch (error) {
  rows.push(errorRow('scale bench', shortMessage(error)));
} finally {
  process.env.LOG_LEVEL = 'silent';
  resetConfig();
  progress('stopping the local cloud');
  await stopEverything();
  rmSync(workDir, { recursive: true, force: true });
}
const cpu = cpus();
const header =
  `bench --scale ${new Date().toISOString()} · node ${process.version} · ${cpu.length} CPU${cpu.length === 1 ? '' : 's'} ` +
  `(${cpu[0]?.model.trim() ?? 'unknown'}) · load ${loadavg()[0]!.toFixed(2)} · ${((performance.now() - started) / 1000).toFixed(0)} s`;
process.stdout.write(`\n${header}\n${formatTable(rows)}\n`);
