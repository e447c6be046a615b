import { describe, expect, it } from 'vitest';
import { ConflictError } from '#core/errors.ts';
import { IDEMPOTENCY_IN_PROGRESS_MESSAGE, IDEMPOTENCY_REUSED_MESSAGE, IDEMPOTENCY_TTL_SECONDS, idempotent } from '#core/public-api/idempotency.ts';
import type { IdempotencyStore, IdempotentRecord } from '#core/public-api/ports.ts';
import { testClock } from '#test/functions/fakes/clock.ts';

/**
 * The store as DynamoDB keeps it: a conditional put that answers the record already there, unless that record's time
 * ran out by the caller's `now` (the TTL deletes late).
 */
const memoryStore = () => {
  const records = new Map<string, IdempotentRecord & { expiresAt: number }>();
  const store: IdempotencyStore = {
    begin: async (creatorId, key, requestHash, { now, expiresAt }) => {
      const found = records.get(`${creatorId}#${key}`);
      if (found && found.expiresAt >= now) return found;
      records.set(`${creatorId}#${key}`, { state: 'pending', requestHash, expiresAt });
      return undefined;
    },
    complete: async (creatorId, key, answer, expiresAt) => {
      const found = records.get(`${creatorId}#${key}`)!;
      records.set(`${creatorId}#${key}`, { state: 'done', requestHash: found.requestHash, ...answer, expiresAt });
    },
    abandon: async (creatorId, key) => void records.delete(`${creatorId}#${key}`),
  };
  return { store, records };
};

describe('a /v1 POST with an Idempotency-Key', () => {
  const setup = () => {
    const { store, records } = memoryStore();
    let runs = 0;
    const run = async () => ({ status: 201, body: { run: ++runs } });
    return { deps: { idempotency: store, clock: testClock() }, records, run, runs: () => runs };
  };

  it('runs once and answers a retry of the same request with the first answer, kept 24 hours', async () => {
    const s = setup();
    const input = { creatorId: 'c1', key: 'key-00001', request: { courseId: 'k1', body: { email: 'a@b.co' } } };
    expect(await idempotent(s.deps, input, s.run)).toEqual({ status: 201, body: { run: 1 } });
    expect(await idempotent(s.deps, { ...input, request: { courseId: 'k1', body: { email: 'a@b.co' } } }, s.run)).toEqual({ status: 201, body: { run: 1 } });
    expect(s.runs()).toBe(1);
    expect([...s.records.values()][0]!.expiresAt).toBe(Math.floor(s.deps.clock.now().getTime() / 1000) + IDEMPOTENCY_TTL_SECONDS);
    // Keys are the creator's own: another creator's same key is another request.
    expect(await idempotent(s.deps, { ...input, creatorId: 'c2' }, s.run)).toEqual({ status: 201, body: { run: 2 } });
  });

  it('refuses the same key with another request, and a retry while the first still runs, with 409', async () => {
    const s = setup();
    const input = { creatorId: 'c1', key: 'key-00001', request: { body: 1 } };
    await idempotent(s.deps, input, s.run);
    await expect(idempotent(s.deps, { ...input, request: { body: 2 } }, s.run)).rejects.toThrow(new ConflictError(IDEMPOTENCY_REUSED_MESSAGE));
    let release!: () => void;
    const slow = idempotent(s.deps, { ...input, key: 'key-00002' }, () => new Promise((resolve) => (release = () => resolve({ status: 201, body: 'slow' }))));
    await Promise.resolve();
    await expect(idempotent(s.deps, { ...input, key: 'key-00002' }, s.run)).rejects.toThrow(new ConflictError(IDEMPOTENCY_IN_PROGRESS_MESSAGE));
    release();
    expect(await slow).toEqual({ status: 201, body: 'slow' });
    expect(s.runs()).toBe(1);
  });

  it('runs a request again once its key has been kept 24 hours, by the clock it is given', async () => {
    const s = setup();
    const input = { creatorId: 'c1', key: 'key-00001', request: {} };
    await idempotent(s.deps, input, s.run);
    s.deps.clock.advance(IDEMPOTENCY_TTL_SECONDS * 1000);
    expect(await idempotent(s.deps, input, s.run)).toEqual({ status: 201, body: { run: 1 } });
    s.deps.clock.advance(1000);
    expect(await idempotent(s.deps, input, s.run)).toEqual({ status: 201, body: { run: 2 } });
  });

  it('forgets a request that failed, so its retry runs again; without a key every request runs', async () => {
    const s = setup();
    const input = { creatorId: 'c1', key: 'key-00001', request: {} };
    await expect(idempotent(s.deps, input, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await idempotent(s.deps, input, s.run)).toEqual({ status: 201, body: { run: 1 } });
    await idempotent(s.deps, { ...input, key: undefined }, s.run);
    await idempotent(s.deps, { ...input, key: undefined }, s.run);
    expect(s.runs()).toBe(3);
  });
});
