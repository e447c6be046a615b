import { describe, expect, it } from 'vitest';
import { SEND_RATE_SHARE } from '#contracts/campaigns.ts';
import { callsInFlight, MAX_IN_FLIGHT, queueCampaign, sendPendingCampaigns, THROTTLED_TRIES } from '#core/campaigns/campaigns.ts';
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
  let key: SealedSecret | undefined;
  const repo = {
    audienceSize: async () => audience.length,
    create: async (c: StoredCampaign) => (campaigns.set(c.id, { ...c }), c),
    get: async (id: string) => (campaigns.has(id) ? { ...campaigns.get(id)! } : undefined),
    pending: async () => [...campaigns.values()].filter((c) => c.status !== 'sent').map((c) => c.id),
    lease: async (id: string, now: string, until: string) => {
      const c = campaigns.get(id)!;
      if (c.leaseUntil && c.leaseUntil >= now) return false;
      campaigns.set(id, { ...c, leaseUntil: until, status: 'sending' });
      return true;
    },
    audiencePage: async (_segment: string, position: string | null, limit: number): Promise<AudiencePage> => {
      const from = Number(position ?? 0);
      return { people: audience.slice(from, from + limit), next: from + limit < audience.length ? String(from + limit) : undefined };
    },
    suppressed: async () => new Set<string>(),
    handOff: async (id: string, batch: number, count: number, wave?: { segment: number; position: string | null; skipped: number }) => {
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
      campaigns.set(id, { ...c, batch: batch + 1, segment: o.segment, position: o.position, sent: c.sent + o.sent, failed: c.failed + o.failed, skipped: c.skipped + o.skipped, status, leaseUntil: o.done ? null : o.leaseUntil, handedOff: null });
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

const world = async (audience: { email: string; disabled: boolean }[], ses: ReturnType<typeof memorySes>) => {
  const { repo, campaigns } = memoryCampaigns(audience);
  const time = fakeTime();
  const { campaignId } = await queueCampaign(
    { campaigns: repo, clock: time.clock, ids: { newId: () => 'camp1' }, sender: { start: async () => undefined } },
    { subject: 'News', content: 'Hello', recipient: 'learners', template: 'custom' },
    undefined,
  );
  const run = (remainingMs: () => number = () => 25_000) =>
    sendPendingCampaigns({ campaigns: repo, mailer: ses.mailer, cipher, clock: time.clock, sleep: time.sleep, appOrigin: 'https://app.example.com', remainingMs });
  return { campaigns, campaignId, time, run };
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
