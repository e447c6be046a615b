import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import type { CampaignList, CampaignQueued } from '#contracts/campaigns.ts';
import { dynamoCampaigns } from '#data/campaigns.ts';
import { userKeys } from '#data/users.ts';
import { work as campaignSenderWork } from '#functions/jobs/campaign-sender.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { accountWithRole, api, dynamo, outputs, useLocalCloudEnv } from './support.ts';

/**
 * Issue 28 point 4: a campaign to 2,000 learners at SES's rate, against the local SES stand-in with a send rate of
 * 500 a second, a daily quota of 1,200 and 10% of destinations throttled once. The sender goes on over many slices
 * (the run the request started on the local cloud's queue, and the test's runs of the job's work, with ~2 s of sending
 * a slice), stops at the quota with the campaign `paused` for the admin, resumes once the quota is back (the next day),
 * retries the throttled, and each learner gets the campaign once.
 */
const LEARNERS = 2_000;
const QUOTA = 1_200;

interface StoredMail {
  subject: string;
  destination: { to: string[] };
}

const ses = (path: string, method: string, body?: unknown) =>
  fetch(`${outputs().SesEndpoint}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) }).then((r) => r.json() as Promise<{ throttled: number }>);

afterAll(() => ses('/_stand-in', 'DELETE'));

/** The learners, written as the users module writes their profiles (the audience reads them by role). */
const seedLearners = async (tag: string) => {
  const emails = Array.from({ length: LEARNERS }, (_, i) => `${tag}-${i}@example.com`);
  const at = new Date().toISOString();
  for (let i = 0; i < emails.length; i += 25) {
    const items = emails.slice(i, i + 25).map((email, j) => {
      const id = `${tag}-${i + j}`;
      return { PutRequest: { Item: { ...userKeys.profile(id), ...userKeys.byRole('learner', at, id), type: 'User', id, email, role: 'learner', createdAt: at } } };
    });
    await dynamo().send(new BatchWriteCommand({ RequestItems: { [outputs().TableName]: items } }));
  }
  return emails;
};

const campaignOf = async (token: string, id: string) => ((await api('GET', '/api/admin/emails', { token })).body as CampaignList).items.find((c) => c.id === id);

/**
 * Runs of the job (as its schedule starts them), each a chain of short slices, until `done` or `ms`: how many slices
 * sent (a run finding the campaign held by the cloud's run ends at once, and the next looks again).
 */
const runUntil = async (token: string, id: string, done: (status: string | undefined) => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  let slices = 0;
  for (;;) {
    const status = (await campaignOf(token, id))?.status;
    if (done(status) || Date.now() > deadline) return { status, slices };
    useLocalCloudEnv();
    // 10 s a slice, 8 s kept back: about 2 s of sending per slice.
    const run = await runToEnd('campaign-sender', campaignSenderWork, { sliceMs: 5_000 });
    if ((run.counts['sent'] ?? 0) + (run.counts['stopped'] ?? 0) > 0) slices += run.slices;
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

describe('a campaign at SES’s rate and quota', () => {
  it('sends 2,000 learners in many runs, pauses at the daily quota, resumes, retries the throttled, each once', async () => {
    const admin = await accountWithRole('admin', 'scale-admin');
    const tag = `scale${Date.now()}`;
    const emails = await seedLearners(tag);
    await ses('/_stand-in/account', 'PUT', { MaxSendRate: 500, Max24HourSend: QUOTA, SentLast24Hours: 0 });
    await ses('/_stand-in/throttle', 'PUT', { share: 0.1, times: 1 });

    const subject = `Scale ${tag}`;
    const queued = await api('POST', '/api/admin/emails', { token: admin.token, body: { subject, content: 'Hello, all of you.', recipient: 'learners', template: 'custom' } });
    expect(queued.status).toBe(202);
    const { campaignId } = queued.body as CampaignQueued;

    // Up to the quota: the campaign stops there, paused, and says so to the admin.
    const first = await runUntil(admin.token, campaignId, (s) => s === 'paused', 120_000);
    expect(first.status).toBe('paused');
    const paused = (await campaignOf(admin.token, campaignId))!;
    process.stderr.write(`[campaign scale] paused at the quota: ${JSON.stringify({ sent: paused.sent, failed: paused.failed })}\n`);
    expect(paused.sent + paused.failed).toBeLessThanOrEqual(QUOTA);
    expect(paused.sent).toBeGreaterThan(QUOTA - 100);
    // Still paused while the quota is spent.
    useLocalCloudEnv();
    expect((await runToEnd('campaign-sender', campaignSenderWork, { sliceMs: 5_000 })).slices).toBe(1);
    expect((await campaignOf(admin.token, campaignId))?.status).toBe('paused');

    // The next day: SES's window has rolled on.
    await ses('/_stand-in/account', 'PUT', { Max24HourSend: 1_000_000, SentLast24Hours: 0 });
    const second = await runUntil(admin.token, campaignId, (s) => s === 'sent', 120_000);
    expect(second.status).toBe('sent');

    const { emails: stored } = (await (await fetch(`${outputs().SesEndpoint}/store`)).json()) as { emails: StoredMail[] };
    const got = new Map<string, number>();
    for (const mail of stored.filter((m) => m.subject === subject)) for (const to of mail.destination.to) got.set(to, (got.get(to) ?? 0) + 1);
    const per = emails.map((e) => got.get(e) ?? 0);
    expect(per.filter((n) => n === 0).length, 'lost').toBe(0);
    expect(per.filter((n) => n > 1).length, 'doubled').toBe(0);
    const { throttled } = await ses('/_stand-in/throttle', 'PUT', { share: 0, times: 0 });
    expect(throttled, 'SES throttled some, each sent again').toBeGreaterThan(50);
    const sent = (await campaignOf(admin.token, campaignId))!;
    expect(sent).toMatchObject({ status: 'sent', failed: 0 });
    // Many waves of at most 400 (8 calls of 50 at 500 a second), by the test's slices and those of the cloud's run the
    // request started (each slice of that one has a heavy function's 30 s; which run sends what is the leases' affair).
    const { batch } = (await dynamoCampaigns().get(campaignId))!;
    process.stderr.write(`[campaign scale] waves ${batch}; slices that sent, by the test: ${first.slices} + ${second.slices}; throttled: ${throttled}\n`);
    expect(batch).toBeGreaterThanOrEqual(LEARNERS / 400);
  }, 300_000);
});
