import { GetAccountCommand, SendBulkEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sesBulkMailer } from '#adapters/ses-mailer.ts';
import { SEND_RATE_SHARE, type CampaignRecipient } from '#contracts/campaigns.ts';
import {
  callsInFlight,
  listAutomations,
  listTemplates,
  queueCampaign,
  sendAutomationEmails,
  sendPendingCampaigns,
  RELEASE_RETRY_MS,
  STOP_MARGIN_MS,
  unsubscribe,
  unsubscribeTarget,
  type SenderDeps,
} from '#core/campaigns/campaigns.ts';
import { schoolList, unsubscribeToken } from '#core/campaigns/email-content.ts';
import type { JobStarter } from '#core/campaigns/ports.ts';
import { MailRefusedError, ValidationError } from '#core/errors.ts';
import { memoryLeaderSettings } from '#test/functions/fakes/leader-settings.ts';
import type { AudiencePage, BulkMailer, CampaignRepository, OutboxEmail, SealedSecret, SecretCipher, StoredCampaign, SuppressionReason } from '#core/ports.ts';
import { resetConfig } from '#functions/config.ts';

/** An in-memory campaign store: segments of people, a suppression list, campaigns recorded batch by batch. */
const memoryCampaigns = (segments: Record<string, { email: string; disabled: boolean }[]>) => {
  const campaigns = new Map<string, StoredCampaign>();
  const suppressions = new Map<string, SuppressionReason>();
  let key: SealedSecret | undefined;
  const outbox: OutboxEmail[] = [];
  const automationSent = new Map<string, number>();
  const repo: CampaignRepository = {
    audienceSize: async (names) => names.reduce((n, s) => n + (segments[s]?.length ?? 0), 0),
    create: async (c) => {
      campaigns.set(c.id, { ...c });
      return c;
    },
    get: async (id) => (campaigns.has(id) ? { ...campaigns.get(id)! } : undefined),
    list: async () => ({ items: [...campaigns.values()], totals: { campaigns: campaigns.size, sent: 0, failed: 0, unsubscribed: 0, suppressed: 0 } }),
    pending: async () => [...campaigns.values()].filter((c) => c.status !== 'sent').map((c) => c.id),
    lease: async (id, now, until) => {
      const c = campaigns.get(id)!;
      if (c.leaseUntil && c.leaseUntil >= now) return false;
      campaigns.set(id, { ...c, leaseUntil: until, status: 'sending' });
      return true;
    },
    audiencePage: async (segment, position, limit): Promise<AudiencePage> => {
      const all = segments[segment] ?? [];
      const from = Number(position ?? 0);
      return { people: all.slice(from, from + limit), next: from + limit < all.length ? String(from + limit) : undefined };
    },
    suppressed: async (emails) => new Set(emails.filter((e) => suppressions.has(e))),
    handOff: async (id, batch, count, wave) => {
      const c = campaigns.get(id)!;
      if (c.batch !== batch) return false;
      campaigns.set(id, { ...c, handedOff: { batch, count, ...wave } });
      return true;
    },
    pauseForQuota: async (id) => {
      const c = campaigns.get(id)!;
      if (c.status !== 'sent') campaigns.set(id, { ...c, status: 'paused', leaseUntil: null });
    },
    takeBack: async (id, batch) => {
      const c = campaigns.get(id)!;
      if (c.handedOff?.batch === batch) campaigns.set(id, { ...c, handedOff: null });
    },
    release: async (id, batch) => {
      const c = campaigns.get(id)!;
      if (c.batch === batch && c.status === 'sending') campaigns.set(id, { ...c, leaseUntil: null });
    },
    recordBatch: async (id, batch, o) => {
      const c = campaigns.get(id)!;
      if (c.batch !== batch) return false;
      const { owed: _owed, ...rest } = c;
      campaigns.set(id, {
        ...rest,
        ...(o.owed?.length ? { owed: o.owed } : {}),
        batch: batch + 1,
        segment: o.segment,
        position: o.position,
        sent: c.sent + o.sent,
        failed: c.failed + o.failed,
        skipped: c.skipped + o.skipped,
        status: o.done ? 'sent' : 'sending',
        completedAt: o.done ? o.at : null,
        leaseUntil: o.done ? null : o.leaseUntil,
        handedOff: null,
      });
      return true;
    },
    suppress: async (email, reason) => {
      if (suppressions.has(email)) return false;
      suppressions.set(email, reason);
      return true;
    },
    templateOverrides: async () => new Map(),
    saveTemplate: async () => undefined,
    automationSettings: async () => new Map([['welcome', { enabled: false, sent: 4 }]]),
    saveAutomation: async () => undefined,
    countAutomationSent: async (id, n) => void automationSent.set(id, (automationSent.get(id) ?? 0) + n),
    outbox: async (limit, upTo) => outbox.filter((m) => upTo === undefined || m.at <= upTo).slice(0, limit),
    claimOutbox: async (message) => {
      const i = outbox.indexOf(message);
      if (i < 0) return false;
      outbox.splice(i, 1);
      return true;
    },
    returnToOutbox: async (messages) => void outbox.push(...messages),
    unsubscribeKey: async (create) => (key ??= await create()),
  };
  return { repo, campaigns, suppressions, outbox, automationSent };
};

/** A cipher that keeps the key readable: these tests are about campaigns, not about sealing (envelope-cipher.test.ts). */
const plainCipher: SecretCipher = {
  encrypt: async (plaintext, context) => ({ ciphertext: Buffer.from(plaintext).toString('base64'), iv: '', tag: '', encryptedDataKey: Buffer.from(context).toString('base64') }),
  decrypt: async (sealed, context) => {
    if (Buffer.from(sealed.encryptedDataKey, 'base64').toString() !== context) throw new Error('wrong context');
    return Buffer.from(sealed.ciphertext, 'base64').toString();
  },
};

const people = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ email: `${tag}-${i}@example.com`, disabled: false }));

/** A clock the sender's sleeps move forward, so pacing is measured without waiting. */
const fakeTime = () => {
  let now = Date.parse('2026-11-24T10:00:00.000Z');
  const sleeps: number[] = [];
  return {
    clock: { now: () => new Date(now) },
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    advance: (ms: number) => (now += ms),
    sleeps,
  };
};

/** The admin who sends the campaigns (their audit line names them). */
const ADMIN = { id: 'admin-1', email: 'admin@example.com' };

const startedSender: JobStarter = { start: async () => undefined };
const queue = async (repo: CampaignRepository, recipient: CampaignRecipient, clock = { now: () => new Date() }, sender = startedSender) =>
  queueCampaign(
    { campaigns: repo, clock, ids: { newId: () => `c-${Math.random().toString(36).slice(2)}` }, sender },
    { subject: 'News', content: 'Hello', recipient, template: 'custom' },
    undefined,
    ADMIN,
  );

const ses = mockClient(SESv2Client);
beforeAll(() => {
  Object.assign(process.env, { MAIL_FROM: 'Course Platform <no-reply@example.com>', AWS_REGION: 'eu-west-2' });
  resetConfig();
});
afterEach(() => ses.reset());
afterAll(() => {
  delete process.env['MAIL_FROM'];
  resetConfig();
  ses.restore();
});

const senderDeps = (repo: CampaignRepository, mailer: BulkMailer, time = fakeTime(), remainingMs = () => 60_000): SenderDeps => ({
  campaigns: repo,
  mailer,
  cipher: plainCipher,
  clock: time.clock,
  sleep: time.sleep,
  appOrigin: 'https://app.example.com',
  remainingMs,
});

describe('campaign sending', () => {
  it("starts the sender's run for the campaign as soon as it is queued, and still queues it when the run cannot be started", async () => {
    const { repo, campaigns } = memoryCampaigns({ 'role:creator': people(3, 'creator') });
    const starts: string[] = [];
    const first = await queue(repo, 'creators', undefined, { start: async (id) => void starts.push(id) });
    expect(starts).toEqual([first.campaignId]);
    const { campaignId } = await queue(repo, 'creators', undefined, {
      start: () => Promise.reject(new Error('SQS is unavailable')),
    });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'queued', recipientCount: 3 });
  });

  it('sends 1,234 recipients in exactly 25 SES calls of at most 50, each destination with its own one-click unsubscribe headers', async () => {
    const { repo, campaigns } = memoryCampaigns({ 'role:creator': people(1_234, 'creator') });
    ses.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 200, Max24HourSend: 1e6, SentLast24Hours: 0 } });
    ses.on(SendBulkEmailCommand).callsFake((input: { BulkEmailEntries: unknown[] }) => ({ BulkEmailEntryResults: input.BulkEmailEntries.map(() => ({ Status: 'SUCCESS' })) }));
    const { campaignId, recipientCount } = await queue(repo, 'creators');
    expect(recipientCount).toBe(1_234);

    await sendPendingCampaigns(senderDeps(repo, sesBulkMailer()));

    const calls = ses.commandCalls(SendBulkEmailCommand);
    expect(calls).toHaveLength(25);
    const sizes = calls.map((c) => c.args[0].input.BulkEmailEntries!.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(50);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1_234);
    const addresses = calls.flatMap((c) => c.args[0].input.BulkEmailEntries!.map((e) => e.Destination!.ToAddresses![0]));
    expect(new Set(addresses).size).toBe(1_234);
    const entry = calls[0]!.args[0].input.BulkEmailEntries![0]!;
    expect(entry.ReplacementHeaders).toEqual([
      { Name: 'List-Unsubscribe', Value: expect.stringMatching(/^<https:\/\/app\.example\.com\/api\/unsubscribe\?token=[\w%.-]+>$/) },
      { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
    ]);
    expect(JSON.parse(entry.ReplacementEmailContent!.ReplacementTemplate!.ReplacementTemplateData!)).toEqual({ unsubscribeUrl: expect.stringContaining('/api/unsubscribe?token=') });
    // 200 a second: 3 calls of 50 in flight per wave (160 a second at SEND_RATE_SHARE), so 9 waves for 25 calls.
    expect(callsInFlight(200)).toBe(3);
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 1_234, failed: 0, skipped: 0, batch: 9 });
  });

  it('skips the unsubscribed, the suppressed and disabled accounts, and counts SES refusals as failed', async () => {
    const crowd = people(6, 'learner');
    crowd[5] = { ...crowd[5]!, disabled: true };
    const { repo, campaigns, suppressions } = memoryCampaigns({ 'role:learner': crowd });
    suppressions.set(crowd[0]!.email, 'unsubscribed');
    suppressions.set(crowd[1]!.email, 'bounce');
    const sent: string[][] = [];
    const mailer: BulkMailer = {
      maxSendRate: async () => 10,
      sendBulk: async ({ entries }) => {
        sent.push(entries.map((e) => e.to));
        return entries.map((e, i) => ({ to: e.to, ok: i > 0 }));
      },
    };
    const { campaignId } = await queue(repo, 'learners');
    await sendPendingCampaigns(senderDeps(repo, mailer));
    expect(sent).toEqual([[crowd[2]!.email, crowd[3]!.email, crowd[4]!.email]]);
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 2, failed: 1, skipped: 3 });
  });

  it('reads every segment of a group in turn: subscribed creators are those on trial and those paid up', async () => {
    const { repo, campaigns } = memoryCampaigns({ 'subscription:trialing': people(3, 'trial'), 'subscription:active': people(2, 'paid'), 'role:creator': people(9, 'c') });
    const sent: string[] = [];
    const mailer: BulkMailer = { maxSendRate: async () => 10, sendBulk: async ({ entries }) => entries.map((e) => (sent.push(e.to), { to: e.to, ok: true })) };
    const { campaignId, recipientCount } = await queue(repo, 'subscribed');
    expect(recipientCount).toBe(5);
    await sendPendingCampaigns(senderDeps(repo, mailer));
    expect(sent.sort()).toEqual([...people(2, 'paid'), ...people(3, 'trial')].map((p) => p.email).sort());
    expect(campaigns.get(campaignId)?.status).toBe('sent');
  });

  it(`keeps the pace under ${SEND_RATE_SHARE * 100}% of SES's send rate between batches`, async () => {
    const { repo } = memoryCampaigns({ 'role:creator': people(200, 'pace') });
    const time = fakeTime();
    const mailer: BulkMailer = { maxSendRate: async () => 25, sendBulk: async ({ entries }) => entries.map((e) => ({ to: e.to, ok: true })) };
    await queue(repo, 'creators', time.clock);
    const started = time.clock.now().getTime();
    await sendPendingCampaigns(senderDeps(repo, mailer, time));
    // 4 batches of 50 at 20 a second: 2.5 s after each of the first three (none after the last).
    expect(time.sleeps).toEqual([2_500, 2_500, 2_500]);
    const seconds = (time.clock.now().getTime() - started) / 1000;
    expect(150 / seconds).toBeLessThanOrEqual(25 * SEND_RATE_SHARE);
  });

  it('stops before the run times out and the next run continues where the last recorded batch ended, sending nobody twice', async () => {
    const { repo, campaigns } = memoryCampaigns({ 'role:learner': people(120, 'resume') });
    const time = fakeTime();
    const sent: string[] = [];
    const mailer: BulkMailer = { maxSendRate: async () => 50, sendBulk: async ({ entries }) => entries.map((e) => (sent.push(e.to), { to: e.to, ok: true })) };
    const { campaignId } = await queue(repo, 'learners', time.clock);
    let calls = 0;
    // Enough time for one batch, then the margin is reached.
    const first = await sendPendingCampaigns(senderDeps(repo, mailer, time, () => (calls++ === 0 ? 60_000 : STOP_MARGIN_MS - 1)));
    expect(first).toMatchObject({ paused: 1 });
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sending', batch: 1, sent: 50 });

    time.advance(60_000); // the next minute's run: the lease has run out
    await sendPendingCampaigns(senderDeps(repo, mailer, time));
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 120, batch: 3 });
    expect(sent).toHaveLength(120);
    expect(new Set(sent).size).toBe(120);
  });

  it('retries a batch SES refuses outright, never one whose send timed out, and records a batch handed off by a run that died', async () => {
    const { repo, campaigns } = memoryCampaigns({ 'role:learner': people(120, 'fault') });
    const time = fakeTime();
    const delivered: string[] = [];
    let call = 0;
    const mailer: BulkMailer = {
      maxSendRate: async () => 50,
      sendBulk: async ({ entries }) => {
        call += 1;
        // Call 1: refused (nothing sent). Call 2: delivered, but the answer is lost (a timeout). Then normal.
        if (call === 1) throw new MailRefusedError('Throttling');
        delivered.push(...entries.map((e) => e.to));
        if (call === 2) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
        return entries.map((e) => ({ to: e.to, ok: true }));
      },
    };
    const { campaignId } = await queue(repo, 'learners', time.clock);
    // A run that handed batch 0 to SES and stopped before recording it (its send went through).
    const deliversAll: BulkMailer = { ...mailer, sendBulk: async ({ entries }) => entries.map((e) => (delivered.push(e.to), { to: e.to, ok: true })) };
    const cutOff = { ...senderDeps(repo, deliversAll, time), campaigns: { ...repo, recordBatch: () => Promise.reject(new Error('cut off')) } };
    await expect(sendPendingCampaigns(cutOff)).rejects.toThrow('cut off');
    expect(campaigns.get(campaignId)).toMatchObject({ batch: 0, handedOff: { batch: 0, count: 50 } });

    time.advance(60_000);
    await sendPendingCampaigns(senderDeps(repo, mailer, time));
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 120, failed: 0, handedOff: null });
    expect(delivered).toHaveLength(120);
    expect(new Set(delivered).size).toBe(120);
    expect(time.sleeps).toContain(250);
  });

  it("tells a batch SES refused (nothing sent) from one whose answer was lost (it may have gone)", async () => {
    const entries = [{ to: 'a@example.com', headers: [], data: {} }];
    const message = { subject: 's', text: 't', html: 'h', entries };
    const lost = Object.assign(new Error('request timed out'), { name: 'TimeoutError', $metadata: { attempts: 1 } });
    ses
      .on(SendBulkEmailCommand)
      .rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException', $metadata: { httpStatusCode: 429 } }))
      .rejectsOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
      .rejectsOnce(lost);
    await expect(sesBulkMailer().sendBulk(message)).rejects.toBeInstanceOf(MailRefusedError);
    await expect(sesBulkMailer().sendBulk(message)).rejects.toBeInstanceOf(MailRefusedError);
    await expect(sesBulkMailer().sendBulk(message)).rejects.toBe(lost);
  });

  it('gives a batch SES keeps refusing back, and the campaign to the next run at once, which sends it once', async () => {
    const { repo, campaigns } = memoryCampaigns({ 'role:learner': people(10, 'down') });
    const time = fakeTime();
    const down: BulkMailer = { maxSendRate: async () => 1_000, sendBulk: async () => Promise.reject(new MailRefusedError('Service unavailable')) };
    const { campaignId } = await queue(repo, 'learners', time.clock);
    await expect(sendPendingCampaigns(senderDeps(repo, down, time))).rejects.toBeInstanceOf(MailRefusedError);
    // Not held until its lease would have ended: the job's retry takes it straight away.
    expect(campaigns.get(campaignId)).toMatchObject({ batch: 0, sent: 0, handedOff: null, leaseUntil: null });
    const sent: string[] = [];
    await sendPendingCampaigns(senderDeps(repo, { ...down, sendBulk: async ({ entries }) => entries.map((e) => (sent.push(e.to), { to: e.to, ok: true })) }, time));
    expect(campaigns.get(campaignId)).toMatchObject({ status: 'sent', sent: 10 });
    expect(sent).toHaveLength(10);
  });

  it('frees a failed campaign as soon as the database is back, trying each second while the run has time', async () => {
    const { repo, campaigns } = memoryCampaigns({ 'role:learner': people(4, 'back') });
    const time = fakeTime();
    const { campaignId } = await queue(repo, 'learners', time.clock);
    // The database answers again on the fourth try to free it (three seconds after the run failed).
    let tries = 0;
    const release = repo.release.bind(repo);
    const flaky: CampaignRepository = Object.assign(Object.create(repo) as CampaignRepository, {
      release: async (id: string, batch: number) => {
        if (++tries <= 3) throw new Error('connect ECONNREFUSED');
        return release(id, batch);
      },
    });
    const down: BulkMailer = { maxSendRate: async () => 1_000, sendBulk: async () => Promise.reject(new MailRefusedError('Service unavailable')) };
    const sleptBefore = time.sleeps.length;
    await expect(sendPendingCampaigns(senderDeps(flaky, down, time))).rejects.toBeInstanceOf(MailRefusedError);
    expect(campaigns.get(campaignId)?.leaseUntil, 'freed once the database answered').toBeNull();
    expect(tries).toBe(4);
    expect(time.sleeps.slice(sleptBefore).slice(-3)).toEqual([RELEASE_RETRY_MS, RELEASE_RETRY_MS, RELEASE_RETRY_MS]);

    // Out of time, the run gives up freeing it: the lease ends by itself.
    const other = memoryCampaigns({ 'role:learner': people(2, 'late') });
    const late = await queue(other.repo, 'learners', time.clock);
    const neverBack = Object.assign(Object.create(other.repo) as CampaignRepository, { release: async () => Promise.reject(new Error('down')) });
    await expect(sendPendingCampaigns(senderDeps(neverBack, down, time, () => STOP_MARGIN_MS + 1))).rejects.toBeInstanceOf(MailRefusedError);
    expect(other.campaigns.get(late.campaignId)?.leaseUntil).not.toBeNull();
  });

  it('leaves a campaign another run holds to that run', async () => {
    const { repo, campaigns } = memoryCampaigns({ 'role:admin': people(3, 'admin') });
    const time = fakeTime();
    const mailer: BulkMailer = { maxSendRate: async () => 10, sendBulk: async () => [] };
    const { campaignId } = await queue(repo, 'all', time.clock);
    await repo.lease(campaignId, time.clock.now().toISOString(), new Date(time.clock.now().getTime() + 30_000).toISOString());
    expect(await sendPendingCampaigns(senderDeps(repo, mailer, time))).toEqual({ sent: 0, paused: 0, held: 1, quota: 0, more: false });
    expect(campaigns.get(campaignId)?.sent).toBe(0);
  });
});

describe('automation emails', () => {
  it("send each waiting welcome once with the welcome template, and none while the automation is off or the address suppressed", async () => {
    const { repo, outbox, suppressions, automationSent } = memoryCampaigns({});
    const at = '2026-11-24T10:00:00.000Z';
    outbox.push({ automation: 'welcome', userId: 'u1', email: 'new@example.com', at }, { automation: 'welcome', userId: 'u2', email: 'gone@example.com', at });
    suppressions.set('gone@example.com', 'complaint');
    const sent: { subject: string; to: string[]; headers: string[] }[] = [];
    const mailer: BulkMailer = {
      maxSendRate: async () => 10,
      sendBulk: async ({ subject, entries }) => {
        sent.push({ subject, to: entries.map((e) => e.to), headers: entries.flatMap((e) => e.headers.map((h) => h.name)) });
        return entries.map((e) => ({ to: e.to, ok: true }));
      },
    };
    // The welcome automation is off in this store (automationSettings): switched on for this test.
    repo.automationSettings = async () => new Map([['welcome', { enabled: true, sent: 0 }]]);
    expect(await sendAutomationEmails(senderDeps(repo, mailer))).toEqual({ sent: 1, dropped: 1 });
    expect(sent).toEqual([{ subject: 'Welcome to Course Platform: your first course starts here', to: ['new@example.com'], headers: ['List-Unsubscribe', 'List-Unsubscribe-Post'] }]);
    expect(outbox).toHaveLength(0);
    expect(automationSent.get('welcome')).toBe(1);
    expect(await sendAutomationEmails(senderDeps(repo, mailer))).toEqual({ sent: 0, dropped: 0 });

    repo.automationSettings = async () => new Map([['welcome', { enabled: false, sent: 1 }]]);
    outbox.push({ automation: 'welcome', userId: 'u3', email: 'later@example.com', at });
    expect(await sendAutomationEmails(senderDeps(repo, mailer))).toEqual({ sent: 0, dropped: 1 });
    expect(sent).toHaveLength(1);
    expect(outbox).toHaveLength(0);
  });

  it('put emails SES keeps refusing back in the outbox, and count those whose answer was lost as sent', async () => {
    const { repo, outbox, automationSent } = memoryCampaigns({});
    repo.automationSettings = async () => new Map([['welcome', { enabled: true, sent: 0 }]]);
    const at = '2026-11-24T10:00:00.000Z';
    outbox.push({ automation: 'welcome', userId: 'u1', email: 'one@example.com', at }, { automation: 'welcome', userId: 'u2', email: 'two@example.com', at });
    const delivered: string[] = [];
    let refuse = true;
    const mailer: BulkMailer = {
      maxSendRate: async () => 10,
      sendBulk: async ({ entries }) => {
        if (refuse) throw new MailRefusedError('Throttling');
        delivered.push(...entries.map((e) => e.to));
        throw Object.assign(new Error('request timed out'), { name: 'TimeoutError' });
      },
    };
    const time = fakeTime();
    await expect(sendAutomationEmails(senderDeps(repo, mailer, time))).rejects.toBeInstanceOf(MailRefusedError);
    expect(outbox.map((m) => m.email).sort(), 'back for the next run').toEqual(['one@example.com', 'two@example.com']);
    refuse = false;
    expect(await sendAutomationEmails(senderDeps(repo, mailer, time))).toEqual({ sent: 2, dropped: 0 });
    expect(await sendAutomationEmails(senderDeps(repo, mailer, time))).toEqual({ sent: 0, dropped: 0 });
    expect(delivered.sort(), 'each once').toEqual(['one@example.com', 'two@example.com']);
    expect(outbox).toEqual([]);
    expect(automationSent.get('welcome')).toBe(2);
  });
});

/** The unsubscribe's world: the campaigns' records, a leader (lead@example.com) and their settings, the schools' unsubscribes. */
const unsubscribeWorld = (repo: CampaignRepository) => {
  const leaderSettings = memoryLeaderSettings();
  const schoolUnsubscribes = new Set<string>();
  const commentDigests = new Map<string, boolean>();
  return {
    campaigns: repo,
    cipher: plainCipher,
    clock: { now: () => new Date('2026-11-23T08:00:00.000Z') },
    users: { getUserIdByEmail: async (email: string) => (email === 'lead@example.com' ? 'leader-1' : undefined) },
    leaderSettings,
    commentDigest: async (userId: string, on: boolean) => void commentDigests.set(userId, on),
    schools: { unsubscribe: async (creatorId: string, email: string) => void schoolUnsubscribes.add(`${creatorId}:${email}`) },
    schoolUnsubscribes,
    commentDigests,
  };
};

describe('unsubscribe', () => {
  it('refuses any token before an email ever went out, and makes no key doing so', async () => {
    const { repo } = memoryCampaigns({});
    const deps = unsubscribeWorld(repo);
    const token = unsubscribeToken(Buffer.alloc(32, 3), 'ann@example.com');
    await expect(unsubscribeTarget(deps, token)).rejects.toBeInstanceOf(ValidationError);
    await expect(unsubscribe(deps, token)).rejects.toBeInstanceOf(ValidationError);
    let made = false;
    await repo.unsubscribeKey(async () => ((made = true), plainCipher.encrypt('k', 'platform:unsubscribe')));
    expect(made).toBe(true);
  });

  it('confirms the masked address of a valid token and suppresses it once on POST; a changed token is refused', async () => {
    const { repo, suppressions } = memoryCampaigns({});
    const deps = unsubscribeWorld(repo);
    const key = Buffer.from((await repo.unsubscribeKey(async () => plainCipher.encrypt(Buffer.alloc(32, 7).toString('base64'), 'platform:unsubscribe'))).ciphertext, 'base64').toString();
    const token = unsubscribeToken(Buffer.from(key, 'base64'), 'Ann@Example.com');
    expect(await unsubscribeTarget(deps, token)).toEqual({ masked: 'a•••@example.com', list: 'campaigns' });
    expect(suppressions.size).toBe(0);
    expect(await unsubscribe(deps, token)).toBe('campaigns');
    expect(await unsubscribe(deps, token)).toBe('campaigns');
    expect([...suppressions]).toEqual([['ann@example.com', 'unsubscribed']]);

    const [address, signature] = token.split('.') as [string, string];
    const otherAddress = Buffer.from('bob@example.com').toString('base64url');
    for (const bad of [`${otherAddress}.${signature}`, `${address}.${signature.slice(0, -2)}`, address, `${token}.x`, '']) {
      await expect(unsubscribe(deps, bad)).rejects.toBeInstanceOf(ValidationError);
    }
  });
});

describe('unsubscribing from the weekly team report', () => {
  it("turns off only that leader's weekly email: the address stays off the suppression list; the token names its list", async () => {
    const { repo, suppressions } = memoryCampaigns({});
    const deps = unsubscribeWorld(repo);
    const key = Buffer.from((await repo.unsubscribeKey(async () => plainCipher.encrypt(Buffer.alloc(32, 7).toString('base64'), 'platform:unsubscribe'))).ciphertext, 'base64').toString();
    const token = unsubscribeToken(Buffer.from(key, 'base64'), 'Lead@Example.com', 'weekly-report');
    expect(await unsubscribeTarget(deps, token)).toEqual({ masked: 'l•••@example.com', list: 'weekly-report' });
    expect(await unsubscribe(deps, token)).toBe('weekly-report');
    expect(deps.leaderSettings.stored.get('leader-1')).toMatchObject({ weeklyReport: false });
    expect(suppressions.size).toBe(0);
    // The list is under the HMAC: a weekly-report token with its list cut off (or another list) is not a campaigns token.
    const [address, signature] = token.split('.') as [string, string];
    for (const bad of [`${address}.${signature}`, `${address}.${signature}.campaigns`, `${address}.${signature}.other`]) {
      await expect(unsubscribe(deps, bad)).rejects.toBeInstanceOf(ValidationError);
    }
  });
});

describe('unsubscribing from the daily digest of comments', () => {
  it("turns off only that creator's digest: the address stays off the suppression list, the weekly report stays on", async () => {
    const { repo, suppressions } = memoryCampaigns({});
    const deps = unsubscribeWorld(repo);
    const key = Buffer.from((await repo.unsubscribeKey(async () => plainCipher.encrypt(Buffer.alloc(32, 7).toString('base64'), 'platform:unsubscribe'))).ciphertext, 'base64').toString();
    const token = unsubscribeToken(Buffer.from(key, 'base64'), 'Lead@Example.com', 'comment-digest');
    expect(await unsubscribeTarget(deps, token)).toEqual({ masked: 'l•••@example.com', list: 'comment-digest' });
    expect(await unsubscribe(deps, token)).toBe('comment-digest');
    expect(await unsubscribe(deps, token)).toBe('comment-digest');
    expect([...deps.commentDigests]).toEqual([['leader-1', false]]);
    expect(suppressions.size).toBe(0);
    expect(deps.leaderSettings.stored.get('leader-1')).toBeUndefined();
    const [address, signature] = token.split('.') as [string, string];
    for (const bad of [`${address}.${signature}`, `${address}.${signature}.weekly-report`]) {
      await expect(unsubscribe(deps, bad)).rejects.toBeInstanceOf(ValidationError);
    }
  });
});

describe("unsubscribing from one creator's emails (their sequences, issue 33)", () => {
  it("records that creator's list alone: the address stays off the suppression list and the leader's report stays on", async () => {
    const { repo, suppressions } = memoryCampaigns({});
    const deps = unsubscribeWorld(repo);
    const key = Buffer.from((await repo.unsubscribeKey(async () => plainCipher.encrypt(Buffer.alloc(32, 7).toString('base64'), 'platform:unsubscribe'))).ciphertext, 'base64').toString();
    const token = unsubscribeToken(Buffer.from(key, 'base64'), 'Lead@Example.com', schoolList('creator-9'));
    expect(await unsubscribeTarget(deps, token)).toEqual({ masked: 'l•••@example.com', list: 'school-creator-9' });
    expect(await unsubscribe(deps, token)).toBe('school-creator-9');
    expect([...deps.schoolUnsubscribes]).toEqual(['creator-9:lead@example.com']);
    expect(suppressions.size).toBe(0);
    expect(deps.leaderSettings.stored.get('leader-1')).toBeUndefined();
    // The creator is under the HMAC: the same signature naming another creator is refused.
    const [address, signature] = token.split('.') as [string, string];
    for (const bad of [`${address}.${signature}.school-creator-8`, `${address}.${signature}`, `${address}.${signature}.school-`]) {
      await expect(unsubscribe(deps, bad)).rejects.toBeInstanceOf(ValidationError);
    }
  });
});

describe('templates and automations', () => {
  it('lists the four built-in templates with real content, and each automation on unless switched off', async () => {
    const { repo } = memoryCampaigns({});
    const { items } = await listTemplates({ campaigns: repo });
    expect(items.map((t) => [t.id, t.name])).toEqual([
      ['welcome', 'Welcome Email'],
      ['newsletter', 'Monthly Newsletter'],
      ['announcement', 'Course Announcement'],
      ['trial-ending', 'Trial Ending Reminder'],
    ]);
    for (const t of items) expect(t.content.length).toBeGreaterThan(100);
    expect((await listAutomations({ campaigns: repo })).items).toEqual([
      { id: 'welcome', name: 'Welcome email', trigger: 'When a creator signs up', templateId: 'welcome', enabled: false, sent: 4 },
      { id: 'trial-ending', name: 'Trial ending reminder', trigger: '3 days before a Starter trial ends', templateId: 'trial-ending', enabled: true, sent: 0 },
    ]);
  });
});
