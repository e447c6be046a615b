import { describe, expect, it } from 'vitest';
import { SEND_RATE_SHARE } from '#contracts/campaigns.ts';
import { callsInFlight, campaignRunSlice, campaignSenderWork, LEASE_MS, MAX_IN_FLIGHT, queueCampaign, sendPendingCampaigns, THROTTLED_TRIES, type SenderDeps } from '#core/campaigns/campaigns.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { runSliced } from '#test/functions/fakes/sliced-run.ts';
import type { AudiencePage, BulkMailer, CampaignRepository, SealedSecret, StoredCampaign } from '#core/ports.ts';

/**
 * Issue 28 point 4: campaigns at SES's rate. Waves of SendBulkEmail calls in flight at once as the account's rate
 * allows, paced under SEND_RATE_SHARE of it; SES's daily quota kept (the campaign `paused`, resumed by the first run
 * that finds quota again); throttled recipients sent again alone, nobody twice.
 */
const people = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ email: `${tag}-${i}@example.com`, disabled: false }));

/** The campaign store in memory (as campaigns.test.ts's, reduced to what sending uses). */
const memoryCampaigns = (audience: { email: string; disabled: boolean }[]) => {
  const campaigns = new Map<string, StoredCampaign>();
  // The run holding each campaign's lease (data/campaigns.ts leaseOwner).
  const owners = new Map<string, string | undefined>();
  let key: SealedSecret | undefined;
  const repo = {
    audienceSize: async () => audience.length,
    create: async (c: StoredCampaign) => (campaigns.set(c.id, { ...c }), c),
    get: async (id: string) => (campaigns.has(id) ? { ...campaigns.get(id)! } : undefined),
    pending: async () => [...campaigns.values()].filter((c) => c.status !== 'sent').map((c) => c.id),
    lease: async (id: string, now: string, until: string, owner?: string) => {
      const c = campaigns.get(id)!;
      if (c.leaseUntil && c.leaseUntil >= now && !(owner && owners.get(id) === owner)) return false;
      campaigns.set(id, { ...c, leaseUntil: until, status: 'sending' });
      owners.set(id, owner);
      return true;
    },
    audiencePage: async (_segment: string, position: string | null, limit: number): Promise<AudiencePage> => {
      const from = Number(position ?? 0);
      return { people: audience.slice(from, from + limit), next: from + limit < audience.length ? String(from + limit) : undefined };
    },
    suppressed: async () => new Set<string>(),
    handOff: async (id: string, batch: number, count: number, wave?: { segment: number; position: string | null; skipped: number; owedTaken?: number }) => {
      const c = campaigns.get(id)!;
      if (c.batch !== batch) return false;
      campaigns.set(id, { ...c, handedOff: { batch, count, ...wave } });
      return true;
    },
    pauseForQuota: async (id: string) => {
      const c = campaigns.get(id)!;
      if (c.status !== 'sent') campaigns.set(id, { ...c, status: 'paused', leaseUntil: null });
    },
    takeBack: async () => undefined,
    release: async (id: string, batch: number) => {
      const c = campaigns.get(id)!;
      if (c.batch === batch && c.status === 'sending') campaigns.set(id, { ...c, leaseUntil: null });
    },
    recordBatch: async (id: string, batch: number, o: Parameters<CampaignRepository['recordBatch']>[2]) => {
      const c = campaigns.get(id)!;
      if (c.batch !== batch) return false;
      const status = o.done ? 'sent' : 'sending';
      const { owed: _owed, ...rest } = c;
      const owed = o.owed?.length ? { owed: o.owed } : {};
      campaigns.set(id, { ...rest, ...owed, batch: batch + 1, segment: o.segment, position: o.position, sent: c.sent + o.sent, failed: c.failed + o.failed, skipped: c.skipped + o.skipped, status, leaseUntil: o.done ? null : o.leaseUntil, handedOff: null });
      return true;
    },
    unsubscribeKey: async (create: () => Promise<SealedSecret>) => (key ??= await create()),
  };
  return { repo: repo as unknown as CampaignRepository, campaigns };
};

const cipher = { encrypt: async (plaintext: string) => ({ ciphertext: Buffer.from(plaintext).toString('base64'), iv: '', tag: '', encryptedDataKey: '' }), decrypt: async (s: SealedSecret) => Buffer.from(s.ciphertext, 'base64').toString() };

const fakeTime = () => {
  let now = Date.parse('2026-11-24T10:00:00.000Z');
  const sleeps: number[] = [];
  return { clock: { now: () => new Date(now) }, sleep: async (ms: number) => void (sleeps.push(ms), (now += ms)), sleeps, elapsedFrom: (t: number) => now - t, now: () => now };
};

/** SES in memory: each destination's sends, the calls in flight at once (the most seen), the quota it reports. */
const memorySes = (account: { maxSendRate: number; left24Hours: number }, status: (to: string, tries: number) => string = () => 'SUCCESS') => {
  const sends = new Map<string, number>();
  const tries = new Map<string, number>();
  let inFlight = 0;
  let most = 0;
  const mailer: BulkMailer & { quota: () => Promise<{ maxSendRate: number; left24Hours: number }> } = {
    maxSendRate: async () => account.maxSendRate,
    quota: async () => ({ ...account }),
    sendBulk: async ({ entries }) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight -= 1;
      return entries.map((e) => {
        const n = (tries.get(e.to) ?? 0) + 1;
        tries.set(e.to, n);
        const s = status(e.to, n);
        if (s === 'SUCCESS') sends.set(e.to, (sends.get(e.to) ?? 0) + 1);
        return s === 'SUCCESS' ? { to: e.to, ok: true } : { to: e.to, ok: false, error: s };
      });
    },
  };
  return { mailer, sends, most: () => most };
};

/** SES in memory whose day's quota other mail spends: it sends `cap` destinations, then refuses each at the quota. */
const cappedSes = (account: { maxSendRate: number; left24Hours: number }, cap: number) => {
  const day = { sent: 0, cap };
  const ses = memorySes(account, () => (day.sent < day.cap ? (day.sent++, 'SUCCESS') : 'ACCOUNT_DAILY_QUOTA_EXCEEDED: Daily message quota exceeded.'));
  /** A new day (SES's window rolled on), with room for `room` sends. */
  const nextDay = (room = Number.POSITIVE_INFINITY) => Object.assign(day, { sent: 0, cap: room });
  return { ...ses, nextDay };
};

/** The admin who sends the campaigns (their audit line names them). */
const ADMIN = { id: 'admin-1', email: 'admin@example.com' };

const world = async (audience: { email: string; disabled: boolean }[], ses: ReturnType<typeof memorySes>) => {
  const { repo, campaigns } = memoryCampaigns(audience);
  const time = fakeTime();
  const { campaignId } = await queueCampaign(
    { campaigns: repo, clock: time.clock, ids: { newId: () => 'camp1' }, sender: { start: async () => undefined } },
    { subject: 'News', content: 'Hello', recipient: 'learners', template: 'custom' },
    undefined,
    ADMIN,
  );
  const deps = (remainingMs: () => number = () => 25_000): SenderDeps => ({ campaigns: repo, mailer: ses.mailer, cipher, clock: time.clock, sleep: time.sleep, appOrigin: 'https://app.example.com', remainingMs });
  const run = (remainingMs: () => number = () => 25_000) => sendPendingCampaigns(deps(remainingMs));
  /** The job's work as functions/jobs/campaign-sender.ts builds it, on this world (`repo` in place of the store, if given). */
  const work = (over: Partial<SenderDeps> = {}) => (remainingMs: () => number) => campaignSenderWork({ ...deps(remainingMs), ...over });
  return { campaigns, campaignId, time, run, work, repo };
};

describe('a campaign at the account’s SES rate', () => {
  it('has as many calls of 50 in flight as the rate takes in a second, 1 to MAX_IN_FLIGHT', () => {
    expect(callsInFlight(1)).toBe(1);
    expect(callsInFlight(50)).toBe(1);
    expect(callsInFlight(500)).toBe(8);
    expect(callsInFlight(100_000)).toBe(MAX_IN_FLIGHT);
  });

  it(`sends waves of calls at once, paced under ${SEND_RATE_SHARE * 100}% of the rate, each recipient once`, async () => {
    const ses = memorySes({ maxSendRate: 500, left24Hours: 1_000_000 });
    const audience = people(2_000, 'wave');
    const { campaigns, campaignId, time, run } = await world(audience, ses);
    const started = time.now();
    expect(await run()).toMatchObject({ sent: 1 });
    expect(ses.most(), '8 calls in flight at once').toBe(8);
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 2_000, failed: 0, batch: 5 });
    expect([...ses.sends.values()].every((n) => n === 1) && ses.sends.size === 2_000).toBe(true);
    // 5 waves of 400 at 400 a second: a second each, none after the last.
    expect(time.sleeps).toHaveLength(4);
    expect(1_600 / (time.elapsedFrom(started) / 1000)).toBeLessThanOrEqual(500 * SEND_RATE_SHARE);
  });

  it("stops at SES's daily quota with the campaign paused, stays paused while none is left, and resumes where it stopped", async () => {
    const account = { maxSendRate: 50, left24Hours: 120 };
    const ses = memorySes(account);
    const { campaigns, campaignId, run } = await world(people(300, 'quota'), ses);
    expect(await run()).toMatchObject({ quota: 1, sent: 0 });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'paused', sent: 120, leaseUntil: null });
    expect(ses.sends.size).toBe(120);

    account.left24Hours = 0; // the next minutes: SES's window has not rolled on yet
    expect(await run()).toMatchObject({ quota: 1, sent: 0 });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'paused', sent: 120 });

    account.left24Hours = 10_000; // the next day
    expect(await run()).toMatchObject({ sent: 1 });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 300 });
    expect(ses.sends.size).toBe(300);
    expect([...ses.sends.values()].every((n) => n === 1)).toBe(true);
  });

  it('keeps the recipients SES refuses at its daily quota mid-wave (other mail spent it): paused, sent first the next day, each once', async () => {
    // GetAccount says plenty is left, but other platform mail spends the day's quota while the campaign sends: SES sends
    // 600 of the campaign's (the first wave of 400 and half the second), then refuses every destination at the quota.
    const account = { maxSendRate: 500, left24Hours: 1_000_000 };
    const ses = cappedSes(account, 600);
    const { campaigns, campaignId, run } = await world(people(2_000, 'day'), ses);
    expect(await run()).toMatchObject({ quota: 1, sent: 0 });
    const paused = campaigns.get(campaignId)!;
    expect(paused).toMatchObject({ status: 'paused', sent: 600, failed: 0, batch: 2, leaseUntil: null });
    // The 200 refused are owed, not failed; the audience cursor is past them (the third wave starts at the 801st).
    expect(paused.owed).toHaveLength(200);
    expect(ses.sends.size).toBe(600);

    // The same day: GetAccount says the quota is spent; the campaign stays paused, nothing is sent.
    account.left24Hours = 0;
    expect(await run()).toMatchObject({ quota: 1, sent: 0 });
    expect(ses.sends.size).toBe(600);

    // The next day: the owed go first (one wave of their own), then the rest; everyone once, nobody failed.
    account.left24Hours = 1_000_000;
    ses.nextDay();
    expect(await run()).toMatchObject({ sent: 1 });
    const sent = campaigns.get(campaignId)!;
    expect(sent).toMatchObject({ status: 'sent', sent: 2_000, failed: 0 });
    expect(sent.owed).toBeUndefined();
    expect(ses.sends.size).toBe(2_000);
    expect([...ses.sends.values()].every((n) => n === 1)).toBe(true);
  });

  it('sends the owed as far as the quota goes and keeps the rest owed; an owed wave SES took but the run did not record is not sent again', async () => {
    const account = { maxSendRate: 100, left24Hours: 1_000_000 };
    const ses = cappedSes(account, 110);
    const { campaigns, campaignId, run, repo, time } = await world(people(300, 'owe'), ses);
    // Waves of 50 (one call at 100 a second): the third has 10 sent and 40 refused at the quota.
    expect(await run()).toMatchObject({ quota: 1 });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'paused', sent: 110, failed: 0, batch: 3 });
    expect(campaigns.get(campaignId)!.owed).toEqual(people(150, 'owe').slice(110).map((p) => p.email));

    // The next day has room for 30 only (GetAccount): 30 of the owed go, 10 stay owed, nothing of the audience.
    account.left24Hours = 30;
    ses.nextDay(30);
    expect(await run()).toMatchObject({ quota: 1 });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'paused', sent: 140, failed: 0, batch: 4 });
    expect(campaigns.get(campaignId)!.owed).toEqual(['owe-140@example.com', 'owe-141@example.com', 'owe-142@example.com', 'owe-143@example.com', 'owe-144@example.com', 'owe-145@example.com', 'owe-146@example.com', 'owe-147@example.com', 'owe-148@example.com', 'owe-149@example.com']);

    // Then a run dies after SES took the owed wave (those 10) and before it was recorded; the next run records it as
    // sent without sending it again, and goes on with the audience.
    account.left24Hours = 1_000_000;
    ses.nextDay();
    const cutOff = { ...repo, recordBatch: () => Promise.reject(new Error('cut off')) };
    const deps = { campaigns: cutOff, mailer: ses.mailer, cipher, clock: time.clock, sleep: time.sleep, appOrigin: 'https://app.example.com', remainingMs: () => 25_000 };
    await expect(sendPendingCampaigns(deps)).rejects.toThrow('cut off');
    expect(campaigns.get(campaignId)).toMatchObject({ batch: 4, handedOff: { batch: 4, count: 10, owedTaken: 10 } });
    expect(ses.sends.size).toBe(150);
    expect(await run()).toMatchObject({ sent: 1 });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 300, failed: 0 });
    expect(campaigns.get(campaignId)!.owed).toBeUndefined();
    expect(ses.sends.size).toBe(300);
    expect([...ses.sends.values()].every((n) => n === 1)).toBe(true);
  });

  it('frees a campaign it stopped for time, so the next run (started at once) goes on straight away, nobody twice', async () => {
    const ses = memorySes({ maxSendRate: 50, left24Hours: 1_000_000 });
    const { campaigns, campaignId, run } = await world(people(160, 'slice'), ses);
    let runs = 0;
    for (; campaigns.get(campaignId)?.status !== 'sent' && runs < 10; runs++) {
      // Each run has time for one wave only.
      let checks = 0;
      const outcome = await run(() => (checks++ === 0 ? 25_000 : 0));
      if (campaigns.get(campaignId)?.status !== 'sent') expect(outcome).toMatchObject({ paused: 1, held: 0 });
    }
    expect(runs).toBe(4);
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 160 });
    expect([...ses.sends.values()].every((n) => n === 1) && ses.sends.size === 160).toBe(true);
  });

  it('sends throttled recipients again alone with a growing pause, never one SES sent, and counts as failed one throttled every time', async () => {
    // Every third recipient is throttled twice; one is throttled every time.
    const ses = memorySes({ maxSendRate: 50, left24Hours: 1_000_000 }, (to, tries) => {
      if (to === 'thr-7@example.com') return 'ACCOUNT_THROTTLED';
      return Number(to.split('-')[1]!.split('@')[0]) % 3 === 0 && tries <= 2 ? 'TRANSIENT_FAILURE' : 'SUCCESS';
    });
    const { campaigns, campaignId, time, run } = await world(people(100, 'thr'), ses);
    await run();
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 99, failed: 1 });
    expect(ses.sends.size).toBe(99);
    expect([...ses.sends.values()].every((n) => n === 1)).toBe(true);
    expect(time.sleeps.slice(0, THROTTLED_TRIES - 1)).toEqual([250, 500, 1_000, 2_000]);
  });
});

describe('the campaign sender on the job engine (decision 0033)', () => {
  const once = (sends: Map<string, number>, n: number) => sends.size === n && [...sends.values()].every((c) => c === 1);

  it(`sends in slices of a few waves each, each wave's calls at once at the account's rate, every recipient once`, async () => {
    const ses = memorySes({ maxSendRate: 500, left24Hours: 1_000_000 });
    const { campaigns, campaignId, time, work } = await world(people(4_000, 'sliced'), ses);
    const started = time.now();
    // Two waves a slice (the engine's clock asked before each wave but a slice's first).
    const run = await runSliced('campaign-sender', work(), { itemsPerSlice: 2 });
    expect(run.slices).toBe(5);
    expect(run.counts).toMatchObject({ sent: 1, stopped: 4, held: 0 });
    expect(ses.most(), '8 calls of 50 in flight at once').toBe(8);
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 4_000, batch: 10 });
    expect(once(ses.sends, 4_000)).toBe(true);
    // 10 waves of 400 at 400 a second, the pace kept across slices: nothing faster than SEND_RATE_SHARE of the rate.
    expect(3_600 / (time.elapsedFrom(started) / 1000)).toBeLessThanOrEqual(500 * SEND_RATE_SHARE);
  });

  it('stops its run at the daily quota with the campaign paused; the next runs leave it paused until the quota is back, then finish it', async () => {
    const account = { maxSendRate: 100, left24Hours: 130 };
    const ses = memorySes(account);
    const { campaigns, campaignId, work } = await world(people(400, 'day'), ses);
    const first = await runToEnd('campaign-sender', work());
    expect(first.counts).toMatchObject({ quota: 1, sent: 0 });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'paused', sent: 130, leaseUntil: null });
    expect(ses.sends.size).toBe(130);

    // The schedule's runs in the same day: one slice each, nothing sent, still paused.
    account.left24Hours = 0;
    const later = await runToEnd('campaign-sender', work(), { run: 'campaign-sender@2026-11-24T10:05:00Z' });
    expect(later).toEqual({ counts: { sent: 0, stopped: 0, held: 0, quota: 1 }, slices: 1 });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'paused', sent: 130 });

    // The next day: the schedule's run finds quota again and finishes it, nobody twice.
    account.left24Hours = 50_000;
    const next = await runToEnd('campaign-sender', work(), { run: 'campaign-sender@2026-11-25T10:00:00Z' });
    expect(next.counts).toMatchObject({ sent: 1, quota: 0 });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 400 });
    expect(once(ses.sends, 400)).toBe(true);
  });

  it('retries throttled recipients across slices and counts as failed only one throttled every time', async () => {
    const ses = memorySes({ maxSendRate: 100, left24Hours: 1_000_000 }, (to, tries) => {
      if (to === 'thr-17@example.com') return 'ACCOUNT_THROTTLED';
      return Number(to.split('-')[1]!.split('@')[0]) % 4 === 0 && tries === 1 ? 'ACCOUNT_THROTTLED' : 'SUCCESS';
    });
    const { campaigns, campaignId, work } = await world(people(300, 'thr'), ses);
    const run = await runSliced('campaign-sender', work(), { itemsPerSlice: 1 });
    expect(run.slices).toBe(6);
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 299, failed: 1 });
    expect(ses.sends.size).toBe(299);
    expect([...ses.sends.values()].every((n) => n === 1)).toBe(true);
  });

  it('loses and doubles nobody when a slice is killed between its waves', async () => {
    const ses = memorySes({ maxSendRate: 100, left24Hours: 1_000_000 });
    const { campaigns, campaignId, work } = await world(people(500, 'kill'), ses);
    const run = await runSliced('campaign-sender', work(), { itemsPerSlice: 3, kill: { seq: 1, afterChecks: 2 } });
    expect(run.kills).toBe(1);
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 500 });
    expect(once(ses.sends, 500)).toBe(true);
  });

  it('loses and doubles nobody when a slice dies after SES took a wave and before it was recorded, and its own run takes the campaign back at once', async () => {
    const ses = memorySes({ maxSendRate: 100, left24Hours: 1_000_000 });
    const { campaigns, campaignId, time, work, repo } = await world(people(500, 'died'), ses);
    // The second slice's first wave: sent by SES, then the function dies (the record and the release never reach the table).
    let dead = false;
    let records = 0;
    const dying: CampaignRepository = {
      ...repo,
      recordBatch: async (...args) => {
        if (++records === 3) {
          dead = true;
          throw new Error('the function died');
        }
        return repo.recordBatch(...args);
      },
      release: async (...args) => (dead ? Promise.reject(new Error('the function died')) : repo.release(...args)),
      lease: async (...args) => {
        dead = false; // a new delivery
        return repo.lease(...args);
      },
    };
    const started = time.now();
    // (Dead, it waits for nothing either: no pause before a retry of the release.)
    const sleep = async (ms: number) => (dead ? Promise.reject(new Error('the function died')) : time.sleep(ms));
    const run = await runSliced('campaign-sender', work({ campaigns: dying, sleep }), { itemsPerSlice: 2, redeliver: 1 });
    expect(records).toBeGreaterThan(3);
    // Taken back by the same run's next delivery, not after the lease ran out.
    expect(time.elapsedFrom(started)).toBeLessThan(LEASE_MS);
    expect(run.counts).toMatchObject({ sent: 1 });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 500 });
    expect(once(ses.sends, 500)).toBe(true);
  });

  it('goes on in its next slice to a campaign it did not reach, oldest first', async () => {
    const ses = memorySes({ maxSendRate: 100, left24Hours: 1_000_000 });
    const { campaigns, campaignId, time, work, repo } = await world(people(100, 'two'), ses);
    const second = await queueCampaign(
      { campaigns: repo, clock: time.clock, ids: { newId: () => 'camp2' }, sender: { start: async () => undefined } },
      { subject: 'More', content: 'Again', recipient: 'learners', template: 'custom' },
      undefined,
      ADMIN,
    );
    // Two waves a slice: the first campaign's two, then the second campaign's in the next slice.
    const run = await runSliced('campaign-sender', work(), { itemsPerSlice: 2 });
    expect(run.slices).toBe(2);
    expect(run.counts).toMatchObject({ sent: 2, stopped: 0 });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 100 });
    expect(campaigns.get(second.campaignId)).toMatchObject({ status: 'sent', sent: 100 });
    expect([...ses.sends.values()].every((n) => n === 2)).toBe(true);
  });

  it("starts a queued campaign's run named by the campaign, so a retried start is one run", () => {
    expect(campaignRunSlice('c1')).toEqual({ job: 'campaign-sender', run: 'campaign-sender@c1', lane: 'main', seq: 0 });
  });

  it('leaves a campaign another run holds: the run ends at once, the holder goes on', async () => {
    const ses = memorySes({ maxSendRate: 100, left24Hours: 1_000_000 });
    const { campaigns, campaignId, time, work, repo } = await world(people(200, 'held'), ses);
    await repo.lease(campaignId, time.clock.now().toISOString(), new Date(time.now() + LEASE_MS).toISOString(), 'campaign-sender@other');
    expect(await runToEnd('campaign-sender', work())).toEqual({ counts: { sent: 0, stopped: 0, held: 1, quota: 0 }, slices: 1 });
    expect(ses.sends.size).toBe(0);
    expect(await runToEnd('campaign-sender', work(), { run: 'campaign-sender@other' })).toMatchObject({ counts: { sent: 1 } });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 200 });
  });
});
