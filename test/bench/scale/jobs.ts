import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { config } from '#functions/config.ts';
import { firstSlice, runSlice, SLICE_MARGIN_MS, sliceIdentity, type SliceWork } from '#core/jobs/slices.ts';
import type { Slice } from '#core/jobs/ports.ts';
import type { StoredCampaign } from '#core/ports.ts';
import { weekOf } from '#core/licenses/weekly-report.ts';
import { MAIL_HOLD_MS } from '#core/mail/mail-queue.ts';
import { affiliateKeys, dynamoAffiliates } from '#data/affiliates.ts';
import { readCreatorStats } from '#data/courses.ts';
import { readCounter } from '#data/sharded-counters.ts';
import { dynamoCampaigns } from '#data/campaigns.ts';
import { dynamoEnrollments } from '#data/enrollments.ts';
import { leaderSettingsKey } from '#data/leader-settings.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { documentClient, tableName } from '#data/table.ts';
import { newAffiliate } from '#test/functions/fakes/affiliates.ts';
import { memorySliceQueue } from '#test/functions/fakes/slice-queue.ts';
import { JOB_QUEUE_MAX_RECEIVE_COUNT, maxConcurrencyOf } from '#lib/constructs/job-queue-names.ts';
import type { Row } from '../table.ts';
import { capturePuts, capturePutsOf } from './capture.ts';
import { commissionItems, courseItems, creditAccountItems, enrolmentItems, licenceItems, learnerId, userItems } from './seed.ts';

/**
 * The jobs of the scale bench, one entry each: how to seed `n` items of its work (straight into the table), the module
 * that runs it, and how many of the seeded items the table shows done, and done twice. An entry runs through the job
 * engine when its module exports `work` (functions/jobs/sliced.ts's `(remainingMs) => SliceWork`): its slices on the
 * engine's memory queue, in this process; otherwise through today's handler, called again while it makes progress
 * (each call one invocation). So an entry lights up as its job is converted, with no change here.
 */

export interface Seeded {
  tag: string;
  n: number;
  /** Anything the entry's `count` needs (ids). */
  ids?: Record<string, string>;
  /** What a run of a job started by a change carries (its first slice's input). */
  input?: Slice['input'];
}

/** What an entry's `count` may look at besides the table: SES local's store of sent mail (the mail jobs' doubles). */
export interface CountContext {
  sesUrl: string;
  /** Resolves once the table stream's aggregator has counted every write so far (decision 0040): before a final count. */
  streamsCaughtUp: () => Promise<void>;
}

export interface ScaleJob {
  /** The job's name in functions/routes.ts `jobs`. */
  name: string;
  /** Its module functions/jobs/<module>.ts: the first of these that exists (a job may move into a module of its own). */
  modules: readonly string[];
  /** What one item is, in the table's rows ("accounts"). */
  unit: string;
  /** The size of the large run (the size that applies at 100,000 learners). */
  large: number;
  /** An item a killed invocation held comes back after this long (the mail queue's hold): a stalled run waits it once. */
  heldMs?: number;
  /** Writes `n` items due for the job, tagged `tag`; resolves when they are in the table. */
  seed(write: (items: Record<string, unknown>[]) => Promise<void>, tag: string, n: number): Promise<Seeded>;
  /** Of the seeded items: how many the table shows done, and how many it shows done more than once. */
  count(seeded: Seeded, ctx: CountContext): Promise<{ done: number; doubled: number; note?: string; worked?: number }>;
  /** Its Lambda's timeout, when it is not SLICE_MS and the margin: a slice works that long less the margin. */
  timeoutMs?: number;
  /** The write the kill run dies after, when half the small run's write calls (the default) is not a moment of its run. */
  killAfterWrites?: number;
  /** Rows of its own after a run's row (what `count` measured besides: memory, a file's size). */
  rows?(seeded: Seeded): Row[];
}

/** How a run went: its wall time, the slices (or invocations) it took, and the kill it survived. */
export interface JobRun {
  seconds: number;
  slices: number;
  engine: 'sliced' | 'handler';
  killed: boolean;
  /** Slices that failed (not the bench's kill) and were delivered again, as SQS does after their visibility timeout. */
  redelivered: number;
  /** The functions' DynamoDB calls that took longer than SLOW_REQUEST_MS (or failed), slowest first. */
  slow: SlowRequest[];
}

interface JobModule {
  work?: (remainingMs: () => number) => SliceWork<Record<string, number>>;
  handler?: (event: { time?: string }, context?: { getRemainingTimeInMillis: () => number }) => Promise<unknown>;
}

const jobsDir = fileURLToPath(new URL('../../../functions/jobs/', import.meta.url));
/** The job's module: the first of `modules` that exists. */
export const loadJob = async (job: Pick<ScaleJob, 'modules'>): Promise<{ module: string; mod: JobModule } | undefined> => {
  const module = job.modules.find((m) => existsSync(`${jobsDir}${m}.ts`));
  if (!module) return undefined;
  return { module, mod: (await import(pathToFileURL(`${jobsDir}${module}.ts`).href)) as JobModule };
};

/**
 * A kill armed on the functions' DynamoDB client: the `after`-th write reaches the table, then its caller sees the
 * process die (the answer lost: the worst moment). Once. `fired` says whether it did.
 */
export const armKill = (after: number): { fired: () => boolean; disarm: () => void } => {
  const stack = documentClient().middlewareStack;
  const name = 'benchKill';
  let writes = 0;
  let fired = false;
  stack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const command = String((context as { commandName?: string }).commandName ?? '');
      if (!fired && /^(Put|Update|Delete|TransactWrite|BatchWrite)/.test(command) && ++writes >= after) {
        fired = true;
        throw new Error('bench: the slice was killed after this write');
      }
      return result;
    },
    { step: 'initialize', name, priority: 'low', override: true },
  );
  return { fired: () => fired, disarm: () => stack.remove(name) };
};

/** A call of the functions' DynamoDB client that took long or failed: what it was, how long, in how many attempts. */
export interface SlowRequest {
  command: string;
  ms: number;
  attempts: number;
  /** What it asked (index, limit, items in a batch or transaction) and, if it failed, why. */
  detail: string;
}

/** A call slower than this is logged: DynamoDB Local answers the jobs' reads and writes in tens of ms when it is well. */
export const SLOW_REQUEST_MS = 1_000;

/** DynamoDB's refusals that are the request's answer (its condition), not a fault of the service. */
const ANSWERS = new Set(['ConditionalCheckFailedException', 'TransactionCanceledException']);

/** The shape of a call's input, without its values: enough to tell a page read from a transaction. */
const shapeOf = (input: Record<string, unknown>): string => {
  const parts: string[] = [];
  if (typeof input['IndexName'] === 'string') parts.push(`index ${input['IndexName']}`);
  if (typeof input['Limit'] === 'number') parts.push(`Limit ${input['Limit']}`);
  if (input['ExclusiveStartKey']) parts.push('from a cursor');
  if (Array.isArray(input['TransactItems'])) parts.push(`${input['TransactItems'].length} items`);
  const batch = (input['RequestItems'] ?? {}) as Record<string, unknown[] | { Keys?: unknown[] }>;
  for (const requests of Object.values(batch)) parts.push(`${Array.isArray(requests) ? requests.length : (requests.Keys?.length ?? 0)} items`);
  const key = input['Key'] as Record<string, unknown> | undefined;
  if (key?.['pk']) parts.push(`key ${String(key['pk']).split('#')[0]}`);
  return parts.join(', ');
};

/**
 * Every call of the functions' DynamoDB client timed, retries included (a middleware at its first step): those slower
 * than SLOW_REQUEST_MS or failed are kept, and each is told to `log` as it ends, so a run that ends on the client's
 * 3 s request timeout says which request it was (a page read deep in a partition, a transaction) and how the others
 * fared around it: DynamoDB Local stalling slows every kind of call at once, a request of the job's that grows with
 * the data slows that one.
 */
export const watchSlowRequests = (log: (line: string) => void): { slow: SlowRequest[]; stop: () => void } => {
  const stack = documentClient().middlewareStack;
  const name = 'benchSlowRequests';
  const slow: SlowRequest[] = [];
  stack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName ?? '?').replace(/Command$/, '');
      const started = performance.now();
      const note = (attempts: number | undefined, error?: unknown) => {
        const ms = Math.round(performance.now() - started);
        if (ms < SLOW_REQUEST_MS && !error) return;
        const why = error === undefined ? '' : `; failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`.slice(0, 200);
        const request = { command, ms, attempts: attempts ?? 1, detail: `${shapeOf(args.input as Record<string, unknown>)}${why}` };
        slow.push(request);
        log(`slow request: ${command} ${ms} ms, ${request.attempts} attempt(s) (${request.detail})`);
      };
      try {
        const result = await next(args);
        note((result.output as { $metadata?: { attempts?: number } }).$metadata?.attempts);
        return result;
      } catch (error) {
        // A condition that did not hold is an answer (a copy already written), not a failure: slow only if slow.
        const answered = error instanceof Error && ANSWERS.has(error.name);
        note((error as { $metadata?: { attempts?: number } }).$metadata?.attempts, answered ? undefined : error);
        throw error;
      }
    },
    { step: 'initialize', name, priority: 'high', override: true },
  );
  return { slow, stop: () => stack.remove(name) };
};

/**
 * How long a failed slice stays invisible before the bench delivers it again. In the cloud its visibility timeout
 * (JOB_QUEUE_VISIBILITY_FACTOR x the function's timeout: minutes); here a few seconds, which is what a stalled DynamoDB
 * Local needs to recover, and the lane waits it as a FIFO message group does (nothing of the lane runs meanwhile).
 */
export const REDELIVERY_WAIT_MS = 5_000;

/** Per slice or invocation: the Lambda's time, so slices are as long as they are in the cloud. */
const SLICE_MS = 60_000;

/**
 * Runs the job over everything due: through the engine (slices on the memory queue, a killed slice delivered again,
 * as SQS does after its visibility timeout) when the module has `work`, else its handler until a call finds nothing
 * left of the seeded items (`left`). `killAfterWrites`: one kill after that many writes. A slice that fails otherwise
 * (a request past the client's timeout on a loaded machine) is delivered again after REDELIVERY_WAIT_MS, up to
 * JOB_QUEUE_MAX_RECEIVE_COUNT receives, as its SQS queue would (then its dead letters: the run's end): the jobs are
 * idempotent, so a redelivery doubles nothing, and the run says how many there were. Slow calls are logged.
 * The engine's slices run as the job's queue delivers them in the cloud: up to its event source's `maxConcurrency`
 * (lib/constructs/job-queue-names.ts) at once, of different lanes (a lane's slices one after the other). One at a time,
 * a job that fans out (the weekly report's lane per page of leaders, each paced at its share of SES's rate) measured
 * the bench's queue, not the job: one lane's pace where the cloud sends REPORT_LANES_AT_ONCE lanes' worth.
 */
export const runJob = async (
  job: ScaleJob,
  mod: JobModule,
  seeded: Seeded,
  left: () => Promise<number>,
  opts: { killAfterWrites?: number; log?: (line: string) => void } = {},
): Promise<JobRun> => {
  const log = opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const kill = opts.killAfterWrites === undefined ? undefined : armKill(opts.killAfterWrites);
  const watch = watchSlowRequests((line) => log(`${job.name}: ${line}`));
  const started = performance.now();
  let slices = 0;
  let redelivered = 0;
  const outcome = (engine: JobRun['engine']): JobRun => ({
    seconds: (performance.now() - started) / 1000,
    slices,
    engine,
    killed: kill?.fired() ?? false,
    redelivered,
    slow: [...watch.slow].sort((a, b) => b.ms - a.ms),
  });
  try {
    if (mod.work) {
      const work = mod.work;
      const { queue, drain } = memorySliceQueue();
      await queue.send([firstSlice(job.name, `${job.name}@bench-${seeded.tag}`, seeded.input)]);
      const receives = new Map<string, number>();
      let killDelivered = false;
      const run = async (slice: Slice) => {
        const ends = Date.now() + (job.timeoutMs ?? SLICE_MARGIN_MS + SLICE_MS);
        const remainingMs = () => ends - Date.now();
        const id = sliceIdentity(slice);
        const receive = (receives.get(id) ?? 0) + 1;
        receives.set(id, receive);
        try {
          await runSlice({ queue, remainingMs }, slice, work(remainingMs));
        } catch (error) {
          // Killed by the bench: delivered again at once (the kill stands for a process that died, not a fault).
          if (kill?.fired() && !killDelivered) {
            killDelivered = true;
            receives.set(id, receive - 1);
            queue.queued.unshift(slice);
            return;
          }
          // Failed: SQS delivers it again after its visibility timeout, from its own cursor, up to its receive count;
          // then it goes to the dead letters, which ends the run here.
          if (receive >= JOB_QUEUE_MAX_RECEIVE_COUNT) {
            throw new Error(`a slice failed on all ${JOB_QUEUE_MAX_RECEIVE_COUNT} receives (to the dead letters): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
          }
          redelivered++;
          log(`${job.name}: slice ${id} failed on receive ${receive} (${error instanceof Error ? error.message : String(error)}), delivered again in ${REDELIVERY_WAIT_MS / 1000} s`);
          await new Promise((r) => setTimeout(r, REDELIVERY_WAIT_MS));
          queue.queued.unshift(slice);
        }
      };
      for (let waited = false; ; ) {
        slices += await drain(run, 1_000_000, maxConcurrencyOf(job.name));
        // The run is over. An item a killed slice held (or whose send failed) comes back when its hold ends, for the
        // job's next scheduled run: that run, once.
        if (!job.heldMs || waited || (await left()) === 0) break;
        waited = true;
        await new Promise((r) => setTimeout(r, job.heldMs));
        await queue.send([firstSlice(job.name, `${job.name}@bench-${seeded.tag}-next`, seeded.input)]);
      }
      return outcome('sliced');
    }
    if (!mod.handler) throw new Error(`functions/jobs/${job.name}.ts exports neither work nor handler`);
    let remaining = await left();
    let waited = false;
    let stalled = 0;
    for (;;) {
      slices++;
      const ends = Date.now() + SLICE_MS;
      try {
        await mod.handler({ time: new Date().toISOString() }, { getRemainingTimeInMillis: () => ends - Date.now() });
      } catch (error) {
        if (!kill?.fired()) throw error;
      }
      const now = await left();
      if (now === 0) break;
      stalled = now >= remaining ? stalled + 1 : 0;
      if (stalled >= 3) {
        // Three calls that moved nothing: what is left is held (it comes back after the hold, once) or stuck (lost).
        if (!job.heldMs || waited) break;
        waited = true;
        stalled = 0;
        await new Promise((r) => setTimeout(r, job.heldMs));
      }
      remaining = now;
    }
    return outcome('handler');
  } finally {
    kill?.disarm();
    watch.stop();
  }
};

let reader: DynamoDBDocumentClient | undefined;

/**
 * The bench's own client for its counts: not the functions' (their 3 s request timeout, their few attempts), because a
 * count reads a 100,000-item partition a MB page at a time, each page filtered on DynamoDB Local's side, which takes
 * seconds on a loaded machine. The runs of 2026-11-28 that ended on the 3 s timeout after course-changed had retitled
 * its 100,000 enrolments ended in this count, not in the job (docs/scale-bench.md).
 */
export const benchReader = (): DynamoDBDocumentClient => {
  if (!reader) {
    const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
    reader = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        region: AWS_REGION,
        ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT } : {}),
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        maxAttempts: 5,
        requestHandler: new NodeHttpHandler({ connectionTimeout: 5_000, requestTimeout: 120_000 }),
      }),
    );
  }
  return reader;
};

/** The count of a Query's items (every page), with its filter. */
const countQuery = async (input: Omit<QueryCommandInput, 'TableName' | 'Select' | 'ExclusiveStartKey'>): Promise<number> => {
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await benchReader().send(new QueryCommand({ ...input, TableName: tableName(), Select: 'COUNT', ...(start ? { ExclusiveStartKey: start } : {}) }));
    total += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return total;
};

/** Runs `fn` over 0..n-1, `parallel` at a time. */
const eachParallel = async (n: number, parallel: number, fn: (i: number) => Promise<void>): Promise<void> => {
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < n) await fn(next++);
  }));
};

const hourAgo = () => new Date(Date.now() - 60 * 60 * 1000).toISOString();

/** The course of a seeded run: its id and its creator's from the run's tag. */
const scaleCourse = (tag: string, title: string) => ({ id: `${tag}-course`, title, creatorId: `${tag}-creator` });

/** The enrolments of a course that `filter` keeps (with its own values, `:pk` and `:e` being the course's rows). */
const countEnrolments = (courseId: string, filter: Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>): Promise<number> =>
  countQuery({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :e)',
    ...filter,
    ExpressionAttributeValues: { ':pk': `COURSE#${courseId}`, ':e': 'ENROLL#', ...filter.ExpressionAttributeValues },
  });

/** A job of the bench whose module is functions/jobs/<its name>.ts. */
const ownModule = (job: Omit<ScaleJob, 'modules'>): ScaleJob => ({ ...job, modules: [job.name] });

/** Above this, `doubled` is not counted item by item (a query per item): the kill runs are the small size. */
const COUNT_DOUBLES_UP_TO = 5_000;

const creditReset = ownModule({
  name: 'credit-reset',
  unit: 'accounts',
  large: 100_000,
  async seed(write, tag, n) {
    await write(creditAccountItems(tag, n, hourAgo()));
    return { tag, n };
  },
  async count({ tag, n }) {
    const stillDue = await countQuery({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :due AND gsi1sk <= :now',
      FilterExpression: 'begins_with(userId, :tag)',
      ExpressionAttributeValues: { ':due': 'CREDITRESET', ':now': `${new Date().toISOString()}#~`, ':tag': `${tag}-` },
    });
    let doubled = 0;
    if (n <= COUNT_DOUBLES_UP_TO) {
      await eachParallel(n, 8, async (i) => {
        const resets = await countQuery({
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tx)',
          FilterExpression: 'actionType = :reset',
          ExpressionAttributeValues: { ':pk': `USER#${learnerId(tag, i)}`, ':tx': 'CREDITTX#', ':reset': 'monthly_reset' },
        });
        doubled += Math.max(0, resets - 1);
      });
    }
    return { done: n - stillDue, doubled };
  },
});

const COMMISSION = 300;

const commissionApproval = ownModule({
  name: 'commission-approval',
  unit: 'commissions',
  large: 100_000,
  async seed(write, tag, n) {
    const creatorId = `${tag}-creator`;
    const affiliate = newAffiliate({
      id: `${tag}-aff`,
      creatorId,
      code: `${tag.replace(/[^a-z0-9]/gi, '').toUpperCase()}`,
      name: 'Scale affiliate',
      email: `${tag}-aff@scale.example.com`,
      commissionPercent: 20,
      holdDays: 30,
      createdAt: new Date().toISOString(),
    });
    const now = new Date().toISOString();
    const affiliateItems = (await capturePuts(() => dynamoAffiliates().create(affiliate, { id: `${tag}-m`, to: affiliate.email, subject: 's', text: 't', html: 'h', queuedAt: now, dueAt: now, tries: 0 }))).filter(
      (item) => item['type'] !== 'QueuedMail',
    );
    await write([...affiliateItems, ...commissionItems({ creatorId, affiliateId: affiliate.id, tag, count: n, approveAt: hourAgo(), at: hourAgo(), amount: COMMISSION })]);
    return { tag, n, ids: { creatorId, affiliateId: affiliate.id } };
  },
  async count({ n, ids }) {
    const { creatorId, affiliateId } = ids as { creatorId: string; affiliateId: string };
    const approved = await countQuery({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :c)',
      FilterExpression: '#status = :approved',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': `AFFILIATE#${affiliateId}`, ':c': 'COMMISSION#', ':approved': 'approved' },
    });
    // Each approval ADDs its amount to the affiliate's figure in its transaction: a figure above the approved ones counted twice.
    // (The figures are the item's, from before the shards, plus the shards': decision 0035.)
    const { Item } = await benchReader().send(new GetCommand({ TableName: tableName(), Key: affiliateKeys.affiliate(creatorId, affiliateId), ConsistentRead: true }));
    const shards = await readCounter(affiliateKeys.figures(affiliateId), { attributes: ['approved'], consistent: true });
    const figure = (Number(Item?.['approved'] ?? 0) + (shards['approved'] ?? 0)) / COMMISSION;
    return { done: approved, doubled: Math.max(0, Math.round(figure) - approved) + Math.max(0, approved - n) };
  },
});

const SEATS_PER_LICENCE = 2;

/** `n` team licences of SEATS_PER_LICENCE seats each on the run's team course, ending at `expiresAt` (null: never). */
const seedTeamLicences = async (write: (items: Record<string, unknown>[]) => Promise<void>, tag: string, n: number, expiresAt: string | null) => {
  const course = scaleCourse(tag, 'Scale team course');
  const { items } = await licenceItems({ tag, course, count: n, seats: SEATS_PER_LICENCE, expiresAt });
  await write([...(await courseItems(course)), ...items]);
  return course;
};

const licenceExpiry = ownModule({
  name: 'license-expiry',
  unit: `licences (${SEATS_PER_LICENCE} seats each)`,
  large: 10_000,
  async seed(write, tag, n) {
    const course = await seedTeamLicences(write, tag, n, hourAgo());
    return { tag, n, ids: { courseId: course.id, creatorId: course.creatorId } };
  },
  async count({ tag, n, ids }) {
    const stillEnding = await countQuery({
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :ending',
      FilterExpression: 'begins_with(id, :tag)',
      ExpressionAttributeValues: { ':ending': 'LICENSES#ENDING', ':tag': `lic_${tag}_` },
    });
    const stillEnrolled = await countEnrolments(ids!['courseId']!, {
      FilterExpression: '#status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':active': 'active' },
    });
    // The creator's `students` follow the enrolments from the table's stream (decisions 0040, 0043): +1 for each seeded
    // seat, -1 for each removal; below 0, a seat removed twice (the final counts are read once the stream is counted).
    // (Sharded, decision 0035: read as the sum of the shards.)
    const students = (await readCreatorStats(ids!['creatorId']!, { consistent: true }))['students'] ?? 0;
    const removals = n * SEATS_PER_LICENCE - students;
    const lostLicences = Math.max(stillEnding, Math.ceil(stillEnrolled / SEATS_PER_LICENCE));
    return { done: n - lostLicences, doubled: Math.ceil(Math.max(0, removals - n * SEATS_PER_LICENCE) / SEATS_PER_LICENCE) };
  },
});

/** The mail SES local holds, per recipient (its `GET /store`). */
const sentPerRecipient = async (sesUrl: string, prefix: string): Promise<Map<string, number>> => {
  const { emails } = (await (await fetch(`${sesUrl}/store`)).json()) as { emails: { destination: { to: string[] } }[] };
  const per = new Map<string, number>();
  for (const e of emails) for (const to of e.destination.to) if (to.startsWith(prefix)) per.set(to, (per.get(to) ?? 0) + 1);
  return per;
};

const doublesOf = (per: Map<string, number>) => [...per.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);

const mailDrain: ScaleJob = {
  name: 'mail drain',
  modules: ['mail-sender'],
  unit: 'queued emails',
  large: 20_000,
  heldMs: MAIL_HOLD_MS + 1_000,
  async seed(write, tag, n) {
    const at = hourAgo();
    await write(
      Array.from({ length: n }, (_, i) => mailQueuePut({ id: `${tag}-m${i}`, to: `${tag}-m${i}@scale.example.com`, subject: 'Your receipt', text: 'Thank you.', html: '<p>Thank you.</p>', queuedAt: at, dueAt: at, tries: 0 }).Put.Item),
    );
    return { tag, n };
  },
  async count({ tag, n }, { sesUrl }) {
    const queued = await countQuery({
      KeyConditionExpression: 'pk = :q',
      FilterExpression: 'begins_with(id, :tag)',
      ExpressionAttributeValues: { ':q': 'MAILQUEUE', ':tag': `${tag}-` },
    });
    const sent = await sentPerRecipient(sesUrl, `${tag}-m`);
    // Sent, or still queued (held after a failed send: sent later). Neither: gone without a send (lost).
    return { done: Math.min(sent.size, n - queued), doubled: doublesOf(sent), ...(queued > 0 ? { note: `${queued} still queued` } : {}) };
  },
};

const certificateIssuer = ownModule({
  name: 'certificate-issuer',
  unit: 'completed enrolments',
  large: 10_000,
  async seed(write, tag, n) {
    const course = scaleCourse(tag, 'Scale certificate course');
    await write([...(await courseItems(course)), ...(await userItems(tag, n)), ...(await enrolmentItems(tag, course, 0, n))]);
    // Completed by the enrolments module itself (its conditional update puts each on the certificates' due index).
    const at = hourAgo();
    const enrollments = dynamoEnrollments();
    await eachParallel(n, 8, async (i) => {
      const done = await enrollments.completeLesson({ courseId: course.id, learnerId: learnerId(tag, i), creatorId: course.creatorId, lessonId: 'lesson-1', seenCount: 0, progress: 100, at, day: at.slice(0, 10), completedAt: at });
      if (done !== 'completed') throw new Error(`enrolment ${learnerId(tag, i)} not completed: ${done}`);
    });
    return { tag, n, ids: { courseId: course.id } };
  },
  async count({ n, ids }) {
    const courseId = ids!['courseId']!;
    // One guard per course and learner; every certificate on the course's list: more certificates than guards, issued twice.
    const guards = await countQuery({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :g)', ExpressionAttributeValues: { ':pk': `COURSE#${courseId}`, ':g': 'CERTFOR#' } });
    const certificates = await countQuery({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': `COURSE#${courseId}#CERTS` } });
    return { done: Math.min(n, guards), doubled: Math.max(0, certificates - guards) };
  },
});

const campaignSender = ownModule({
  name: 'campaign-sender',
  unit: 'recipients (a campaign to every creator: those of earlier runs get it too)',
  large: 20_000,
  // On the engine (decision 0033): a killed slice delivered again takes back the campaign its run still holds.
  async seed(write, tag, n) {
    const createdAt = new Date().toISOString();
    const campaign: StoredCampaign = {
      id: `${tag}-campaign`,
      subject: 'Scale news',
      content: 'Hello from the scale bench.',
      recipient: 'creators',
      template: 'custom',
      status: 'queued',
      recipientCount: n,
      sent: 0,
      failed: 0,
      skipped: 0,
      createdAt,
      completedAt: null,
      batch: 0,
      segment: 0,
      position: null,
      leaseUntil: null,
      handedOff: null,
    };
    // The audience is every creator: these n (and those of earlier runs, sent already, which it sends to again).
    await write([...(await userItems(tag, n, { role: 'creator', createdAt })), ...(await capturePutsOf(['Campaign'], () => dynamoCampaigns().create(campaign, undefined)))]);
    return { tag, n, ids: { campaignId: campaign.id } };
  },
  async count({ tag, n, ids }, { sesUrl }) {
    const sent = await sentPerRecipient(sesUrl, `${tag}-u`);
    // The campaign goes to every creator in the table: its time is that of all of them (SES's pace), not of these n.
    const all = (await dynamoCampaigns().get(ids!['campaignId']!))?.sent ?? 0;
    return { done: Math.min(n, sent.size), doubled: doublesOf(sent), ...(all > n ? { worked: all, note: `the campaign sent ${all.toLocaleString('en-GB')} in all: items/s and time per item count them all` } : {}) };
  },
});

const weeklyReport = ownModule({
  name: 'leader-weekly-report',
  unit: `leaders (a licence of ${SEATS_PER_LICENCE} seats each)`,
  large: 10_000,
  async seed(write, tag, n) {
    await seedTeamLicences(write, tag, n, null);
    return { tag, n };
  },
  async count({ tag, n }, { sesUrl }) {
    const week = weekOf(new Date());
    let held = 0;
    await eachParallel(n, 8, async (i) => {
      const { Item } = await benchReader().send(new GetCommand({ TableName: tableName(), Key: leaderSettingsKey(`${tag}-l${i}`), ConsistentRead: true }));
      if (Item?.['heldWeek'] === week && Item['lastWeeklyReport'] !== week) held++;
    });
    const sent = await sentPerRecipient(sesUrl, `${tag}-l`);
    // A leader whose week is still held, not sent, waits for the hold to end (REPORT_HOLD_MS): late, if not lost.
    return { done: sent.size, doubled: doublesOf(sent), ...(held > 0 ? { note: `${held} held, not sent` } : {}) };
  },
});

const courseChanged = ownModule({
  name: 'course-changed',
  unit: 'enrolments of a renamed course',
  large: 100_000,
  async seed(write, tag, n) {
    const course = scaleCourse(tag, 'Scale course, old title');
    const version = new Date().toISOString();
    // The course as a rename leaves it (its new title and the rename's stamp), its enrolments still with the old title.
    const [item] = await courseItems(course);
    await write([{ ...item, title: 'Scale course, new title', titleChangedAt: version }, ...(await enrolmentItems(tag, course, 0, n))]);
    return { tag, n, ids: { courseId: course.id }, input: { change: 'renamed', courseId: course.id, title: 'Scale course, new title', version } };
  },
  async count({ n, ids }) {
    const retitled = await countEnrolments(ids!['courseId']!, { FilterExpression: 'courseTitle = :title', ExpressionAttributeValues: { ':title': 'Scale course, new title' } });
    // A title is state, not an effect: written twice it is the same title (nothing to double).
    return { done: Math.min(n, retitled), doubled: 0 };
  },
});

/** Every job of the issue, in its order. A job whose module is not on this branch is listed as such. */
export const scaleJobs: ScaleJob[] = [
  creditReset,
  commissionApproval,
  licenceExpiry,
  certificateIssuer,
  weeklyReport,
  campaignSender,
  mailDrain,
  courseChanged,
];

