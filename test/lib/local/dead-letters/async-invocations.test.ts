import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asyncRetries } from '#lib/constructs/async-retries.ts';
import { startTriggerBridge } from '#lib/local/cognito/trigger-bridge.ts';
import { asyncInvoker, localRetryPolicy, type RetryPolicy } from '#lib/local/dead-letters/async-invoker.ts';
import { deadLetterStore, type DeadLetterStore } from '#lib/local/dead-letters/store.ts';
import type { Handler } from '#lib/local/handlers.ts';
import { freePorts } from '#lib/local/ports.ts';
import { startScheduler } from '#lib/local/scheduler/emulator.ts';

const fast: RetryPolicy = { retries: 2, delaysMs: [10, 20] };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const setup = (retryPolicy: RetryPolicy = fast) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cp-async-'));
  const store = deadLetterStore(dataDir);
  const lines: string[] = [];
  const invoker = asyncInvoker({ store, retryPolicy, log: (line) => lines.push(line) });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => invoker.stop());
  return { store, invoker, lines };
};

/** A handler that throws its first `failures` calls, then succeeds; it records every event it was given. */
const flaky = (failures: number) => {
  const events: unknown[] = [];
  const handler: Handler = async (event) => {
    events.push(event);
    if (events.length <= failures) throw new Error(`database unreachable (call ${events.length})`);
    return { done: true };
  };
  return { handler, events };
};

const until = async (check: () => Promise<boolean> | boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const job = { name: 'nightly-report', handler: 'jobs/nightly-report', schedule: 'cron(0 7 ? * MON *)' };
const lettersOf = (store: DeadLetterStore) => store.list('jobs');

describe('asynchronous runs in the local cloud', () => {
  it("retry as many times as Lambda retries the cloud's asynchronous invocations", () => {
    expect(localRetryPolicy.retries).toBe(asyncRetries.jobs.retryAttempts);
  });

  it('land a scheduled job that fails every attempt once in the jobs dead letters, with its event and last error', async () => {
    const { store, invoker, lines } = setup();
    const { handler, events } = flaky(Infinity);
    const scheduler = startScheduler({ log: (line) => lines.push(line), invoker, jobs: [job], load: async () => handler });
    cleanups.push(() => scheduler.stop());
    await until(async () => (await lettersOf(store)).length > 0);
    await scheduler.stop();

    expect(events).toHaveLength(3);
    const letters = await lettersOf(store);
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({
      queue: 'jobs',
      functionName: 'nightly-report',
      source: 'schedule',
      event: events[0],
      error: { errorType: 'Error', errorMessage: 'database unreachable (call 3)' },
      attempts: 3,
    });
    expect(events.every((e) => JSON.stringify(e) === JSON.stringify(events[0]))).toBe(true);
    expect(letters[0]!.event).toMatchObject({ source: 'aws.scheduler', 'detail-type': 'Scheduled Event' });
    expect(Date.parse(letters[0]!.failedAt)).toBeGreaterThanOrEqual(Date.parse(letters[0]!.firstAttemptAt));
    expect(lines.filter((l) => l.includes('failed (attempt'))).toHaveLength(3);
    expect(lines.find((l) => l.includes('given up'))).toMatch(
      new RegExp(`^\\[scheduler\\] nightly-report given up after 3 attempts: dead letter ${letters[0]!.id} in .*dead-letters/jobs\\.jsonl \\(npm run redrive -- jobs\\)$`),
    );
  });

  it('leave no dead letter for a job that succeeds on a retry', async () => {
    const { store, invoker, lines } = setup();
    const { handler, events } = flaky(2);
    const scheduler = startScheduler({ log: (line) => lines.push(line), invoker, jobs: [job], load: async () => handler });
    await until(() => lines.includes('[scheduler] nightly-report ran'));
    await scheduler.stop();
    expect(events).toHaveLength(3);
    expect(await lettersOf(store)).toEqual([]);
  });

  it('give a waiting retry up when the local cloud stops, so its event is kept rather than lost', async () => {
    const { store, invoker } = setup({ retries: 2, delaysMs: [60_000] });
    const { handler, events } = flaky(Infinity);
    const scheduler = startScheduler({ log: () => undefined, invoker, jobs: [job], load: async () => handler });
    await until(() => events.length === 1);
    const started = Date.now();
    await invoker.stop();
    await scheduler.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await lettersOf(store)).toEqual([expect.objectContaining({ attempts: 1, functionName: 'nightly-report' })]);
  });

  it('land a job started with an asynchronous Lambda invoke that keeps failing, after the 202, with the event it was sent', async () => {
    const { store, invoker, lines } = setup();
    const { handler, events } = flaky(Infinity);
    const { lambda: port } = await freePorts();
    const bridge = await startTriggerBridge({ port, log: (line) => lines.push(line), invoker, load: async () => handler });
    cleanups.push(() => bridge.stop());

    const res = await fetch(`${bridge.url}/2015-03-31/functions/campaign-sender/invocations`, {
      method: 'POST',
      headers: { 'x-amz-invocation-type': 'Event' },
      body: JSON.stringify({ source: 'campaign-queued' }),
    });
    expect(res.status).toBe(202);
    await until(async () => (await lettersOf(store)).length > 0);

    expect(events).toEqual([{ source: 'campaign-queued' }, { source: 'campaign-queued' }, { source: 'campaign-queued' }]);
    expect(await lettersOf(store)).toEqual([
      expect.objectContaining({ functionName: 'campaign-sender', source: 'async-invoke', event: { source: 'campaign-queued' }, attempts: 3 }),
    ]);
    expect(lines.filter((l) => l.startsWith('[job] campaign-sender (started at once) failed (attempt'))).toHaveLength(3);
  });

  it('refuse an asynchronous invoke whose body is not JSON, as Lambda does, and queue nothing', async () => {
    const { store, invoker } = setup();
    const { handler, events } = flaky(0);
    const { lambda: port } = await freePorts();
    const bridge = await startTriggerBridge({ port, log: () => undefined, invoker, load: async () => handler });
    cleanups.push(() => bridge.stop());
    const res = await fetch(`${bridge.url}/2015-03-31/functions/campaign-sender/invocations`, {
      method: 'POST',
      headers: { 'x-amz-invocation-type': 'Event' },
      body: '{not json',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toBe('InvalidRequestContentException');
    expect(events).toEqual([]);
    expect(await lettersOf(store)).toEqual([]);
  });
});
