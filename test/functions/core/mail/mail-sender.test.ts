import { describe, expect, it } from 'vitest';
import type { SenderDeps as CampaignSenderDeps } from '#core/campaigns/campaigns.ts';
import { heldMail, MAIL_HOLD_MS } from '#core/mail/mail-queue.ts';
import { sendPlatformMail } from '#core/mail/mail-sender.ts';
import type { CampaignRepository } from '#core/ports.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { memoryMailer, memoryMailQueue, sendsInFlight } from '#test/functions/fakes/enrollments.ts';
import { runSliced } from '#test/functions/fakes/sliced-run.ts';

/** The mail queue with `n` emails due (their writers died), an empty outbox, and SES at `rate` a second. */
const world = async (n: number, rate = 1_000) => {
  const clock = testClock();
  const mailQueue = memoryMailQueue();
  const ids = sequentialIds('mail');
  for (let i = 0; i < n; i++) {
    const mail = heldMail({ ids, clock }, { to: `m${i}@example.com`, subject: 'Your purchase', text: 'Thanks', html: '<p>Thanks</p>' });
    await mailQueue.write({ ...mail, dueAt: clock.now().toISOString() });
  }
  clock.advance(1_000);
  const mailer = memoryMailer();
  const slept: number[] = [];
  const outbox = { outbox: async () => [] } as unknown as CampaignRepository;
  const deps = {
    mailer,
    mailQueue,
    clock,
    automations: { campaigns: outbox } as CampaignSenderDeps,
    sendRate: async () => rate,
    sleep: async (ms: number) => void slept.push(ms),
    log: () => undefined,
    logError: () => undefined,
    work: async () => undefined,
  };
  const sentTo = () => mailer.sent.map((m) => m.to);
  return { deps, mailer, mailQueue, clock, slept, sentTo };
};

describe('the mail sender job in slices (issue 28)', () => {
  it('sends 200 queued emails exactly once over many slices, several at once, a slice killed mid-way included', async () => {
    const w = await world(200);
    const most = sendsInFlight(w.mailer, 0);
    const run = await runSliced('mail-sender', () => sendPlatformMail(w.deps), { itemsPerSlice: 30, kill: { seq: 2, afterChecks: 9 } });
    expect(run.kills).toBe(1);
    expect(run.slices).toBeGreaterThan(6);
    expect(new Set(w.sentTo()).size).toBe(200);
    expect(w.sentTo()).toHaveLength(200);
    expect(w.mailQueue.queued).toEqual([]);
    expect(most()).toBeGreaterThan(1);
  });

  it('tries a failing email once per run: due again for the next run, with one more try counted', async () => {
    const w = await world(3);
    w.mailer.before('send', (call) => {
      if (call === 2) throw new Error('SES throttled');
    });
    const first = await runSliced('mail-sender', () => sendPlatformMail(w.deps));
    expect(first.counts).toMatchObject({ sent: 2, failed: 1 });
    expect(w.mailQueue.queued).toHaveLength(1);
    expect(w.mailQueue.queued[0]).toMatchObject({ tries: 2 });
    w.clock.advance(1_000);
    const second = await runSliced('mail-sender', () => sendPlatformMail(w.deps));
    expect(second.counts).toMatchObject({ sent: 1, failed: 0 });
    expect(w.sentTo()).toHaveLength(3);
  });

  it('leaves an email another sender holds to it, and paces its sends at the platform share of SES rate', async () => {
    const w = await world(10, 5);
    const [held] = w.mailQueue.queued;
    await w.mailQueue.move(held!, { ...held!, dueAt: new Date(w.clock.now().getTime() + MAIL_HOLD_MS).toISOString(), tries: 2 });
    const run = await runSliced('mail-sender', () => sendPlatformMail(w.deps));
    expect(run.counts).toMatchObject({ sent: 9 });
    expect(w.mailQueue.queued).toHaveLength(1);
    // 5 a second, 20% of it the platform's share: at least 1 a second, so 8 waits of a second between 9 sends.
    expect(w.slept.length).toBeGreaterThanOrEqual(8);
  });
});

describe("the platform's mail pace", () => {
  it("goes on at SES's sandbox rate when the account's rate cannot be read", async () => {
    const w = await world(3);
    w.deps.sendRate = async () => {
      throw new Error('AccessDenied: ses:GetAccount');
    };
    const run = await runSliced('mail-sender', () => sendPlatformMail(w.deps));
    expect(run.counts).toMatchObject({ sent: 3 });
    // One a second: two waits of about a second between three sends.
    expect(w.slept.filter((ms) => ms > 500)).toHaveLength(2);
  });
});
