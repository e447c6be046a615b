import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { work as sweep } from '#functions/jobs/webhook-deliveries.ts';
import { accountWithRole, api, eventually, useLocalCloudEnv } from '../support.ts';
import { faults, injectedSince, post, report, untilSettled } from './support.ts';

/**
 * Issue 31 point 4: webhook deliveries while the database fails (a fifth of its calls refused, some dropped) and the
 * receiver fails (a third of the requests answered 500, some read and then hung up on, so the sender never learns they
 * arrived). Learners are enrolled through the API meanwhile. After recovery and the sweep's retries: every enrolment
 * reached the receiver (accepted with a 2xx at least once: lost 0), and each under one `webhook-id` (a retry repeats
 * the id; one change never makes two deliveries: doubled 0).
 */
afterEach(() => faults.recover());

const LEARNERS = 8;

type Request = { id: string; email: string; answer: number | 'hung-up' };
const requests: Request[] = [];
let failShare = 0;
let hangUpShare = 0;
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { data: { learner?: { email?: string } } };
      const request: Request = { id: String(req.headers['webhook-id']), email: body.data.learner?.email ?? '', answer: 200 };
      const draw = Math.random();
      if (draw < hangUpShare) {
        request.answer = 'hung-up';
        requests.push(request);
        req.socket.destroy();
        return;
      }
      if (draw < hangUpShare + failShare) request.answer = 500;
      requests.push(request);
      res.statusCode = request.answer as number;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('webhook deliveries while the database and the receiver fail', () => {
  it('lose none and double none', async () => {
    const creator = await accountWithRole('creator', 'fault-webhooks');
    const made = await api('POST', '/api/webhook-endpoints', { token: creator.token, body: { url, events: ['enrollment.created'] } });
    expect(made.status).toBe(201);
    const course = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Faulty wires' } })).body.id as string;
    expect((await api('PATCH', `/api/courses/${course}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    const learners = await Promise.all(Array.from({ length: LEARNERS }, (_, i) => accountWithRole('learner', `fault-hook-${i}`)));
    useLocalCloudEnv();

    const before = await faults.state();
    [failShare, hangUpShare] = [0.35, 0.1];
    await faults.set('dynamodb', { error: 0.2, drop: 0.05 });
    // Each enrolment retried by its caller until it settles (a repeat of one already made is 409).
    const enrolled = await Promise.all(
      learners.map((learner) => untilSettled(post(`/api/courses/${course}/enrollments`, { email: learner.email }, { authorization: `Bearer ${creator.token}` }))),
    );
    expect(enrolled.map((e) => e.status).every((s) => s === 201 || s === 409), JSON.stringify(enrolled.map((e) => e.status))).toBe(true);
    // Each enrolment's delivery is written by the stream's reactions consumer, which a loaded machine may run late:
    // every one is in the endpoint's log before the sweeps, or they would all be first tried after the receiver healed
    // (a read the failing database refuses is read again).
    const logged = async () => {
      const res = await api('GET', `/api/webhook-endpoints/${made.body.id}/deliveries`, { token: creator.token });
      return res.status === 200 ? (res.body.items as { status: string }[]) : [];
    };
    expect((await eventually(logged, (items) => items.length === LEARNERS, 120_000)).length, 'a delivery per enrolment').toBe(LEARNERS);
    // The sweep runs at each retry's time while the database still fails (a run that meets a fault leaves the rest due).
    const start = Date.now();
    const sweepAt = async (offsetMs: number) => {
      try {
        await sweep(() => 25_000, { clock: { now: () => new Date(start + offsetMs) } })({ job: 'webhook-deliveries', run: `fault-${offsetMs}`, lane: 'main', cursor: undefined } as never, () => false);
      } catch {
        // The job failed on the database: its queue would run it again; the next sweep does.
      }
    };
    for (const offset of [10e3, 6 * 60e3]) await sweepAt(offset);
    const injected = await injectedSince(before);
    await faults.clear();

    // Recovered database, receiver still flaky: the retries' times come (leases of runs that died included), up to the
    // sixth attempt at most (WEBHOOK_RETRY_DELAYS_S: about 5 s, 5 min, 30 min, 2 h, 5 h), so two remain when it heals.
    const emails = new Set(learners.map((l) => l.email));
    const accepted = () => new Set(requests.filter((r) => emails.has(r.email) && r.answer === 200).map((r) => r.email));
    for (const hours of [1, 3, 8]) {
      if (accepted().size === LEARNERS) break;
      await sweepAt(hours * 3_600_000);
    }
    failShare = hangUpShare = 0;
    await eventually(async () => (await sweepAt(30 * 3_600_000), accepted().size), (n) => n === LEARNERS, 30_000);

    const mine = requests.filter((r) => emails.has(r.email));
    const idsPerLearner = learners.map((l) => new Set(mine.filter((r) => r.email === l.email).map((r) => r.id)).size);
    const lost = learners.filter((l) => !accepted().has(l.email)).length;
    const doubled = idsPerLearner.reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    report({ path: `webhook deliveries (${LEARNERS} enrolments)`, injected, database: 'errors 20%, drops 5%', lost, doubled, recoveryMs: null });
    expect(lost, 'every enrolment accepted by the receiver').toBe(0);
    expect(idsPerLearner, 'one webhook-id per enrolment, however often it was tried').toEqual(learners.map(() => 1));
    expect(injected['dynamodb']!.error + injected['dynamodb']!.drop, 'the database failed meanwhile').toBeGreaterThan(0);
    expect(mine.length, 'the receiver failed some attempts, which were retried').toBeGreaterThan(LEARNERS);
    // The log agrees: each delivery to the endpoint is delivered.
    expect((await logged()).map((d) => d.status)).toEqual(learners.map(() => 'delivered'));
  }, 180_000);
});
