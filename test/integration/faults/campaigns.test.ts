import { afterEach, describe, expect, it } from 'vitest';
import { dynamoCampaigns } from '#data/campaigns.ts';
import { work as campaignSenderWork } from '#functions/jobs/campaign-sender.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { accountWithRole, outputs, seedLeaders, useLocalCloudEnv } from '../support.ts';
import { faults, injectedSince, post, report, sleep, untilSettled } from './support.ts';

/**
 * Issue 16: a campaign to 120 leaders while SES refuses every call of the first run, then 30% of its calls and answers
 * 10% too late (after sending), and the database fails calls and is killed mid-run. The sender job runs again and
 * again (as its schedule would) and resumes where it stopped. After recovery: every recipient got exactly one message.
 */
afterEach(() => faults.recover());

const RECIPIENTS = 120;


interface StoredMail {
  subject: string;
  destination: { to: string[] };
}

describe('a campaign while SES and the database fail', () => {
  it('reaches every recipient exactly once, resuming where it stopped', async () => {
    const admin = await accountWithRole('admin', 'fault-campaign-admin');
    useLocalCloudEnv();
    const tag = `fault-campaign-${Date.now()}`;
    const emails = await seedLeaders(tag, RECIPIENTS);
    const subject = `Storm notice ${tag}`;

    const before = await faults.state();
    // The first run meets SES refusing every call (so it surely fails on the way); later runs 30% refused, 10% late.
    await faults.set('ses', { down: true });
    await faults.set('dynamodb', { error: 0.1 });
    const queued = await untilSettled(
      post('/api/admin/emails', { recipient: 'leaders', template: 'custom', subject, content: 'Sending goes on whatever fails.' }, { authorization: `Bearer ${admin.token}`, 'idempotency-key': `${tag}-send` }),
    );
    expect(queued.status).toBe(202);
    const campaignId = (queued.body as { campaignId: string }).campaignId;

    // The sender, run as its schedule runs it, until the campaign is sent; the database dies once, during a run.
    const deadline = Date.now() + 150_000;
    let runs = 0;
    let killed = false;
    let returnedAt = 0;
    let batchesAtReturn = -1;
    let recovered: number | null = null;
    for (;;) {
      runs += 1;
      // A run of the job's slices (25 s each) until it ends or a slice fails (SQS would deliver that one again).
      const run = runToEnd('campaign-sender', campaignSenderWork, { sliceMs: 20_000 }).catch(() => undefined);
      if (!killed && runs >= 2) {
        // Mid-run: the second run is between (or inside) its batches when the database dies.
        killed = true;
        await sleep(400);
        returnedAt = await faults.outage('kill', 300);
        batchesAtReturn = (await dynamoCampaigns().get(campaignId).catch(() => undefined))?.batch ?? 0;
      }
      await run;
      if (runs === 1) await faults.set('ses', { error: 0.3, slow: 0.1, slowMs: 5_000 });
      const campaign = await dynamoCampaigns()
        .get(campaignId)
        .catch(() => undefined);
      // Recovered: the first batch recorded after the database came back (or the campaign done).
      if (returnedAt && recovered === null && campaign && (campaign.batch > batchesAtReturn || campaign.status === 'sent')) recovered = Date.now() - returnedAt;
      if (campaign?.status === 'sent' || Date.now() > deadline) break;
      await sleep(200);
    }
    const injected = await injectedSince(before);
    await faults.clear();
    const campaign = await dynamoCampaigns().get(campaignId);
    expect(campaign?.status, `sent within the time (${runs} runs)`).toBe('sent');

    const { emails: stored } = (await (await fetch(`${outputs().SesEndpoint}/store`)).json()) as { emails: StoredMail[] };
    const received = new Map<string, number>();
    for (const mail of stored.filter((m) => m.subject === subject)) for (const to of mail.destination.to) received.set(to, (received.get(to) ?? 0) + 1);
    const counts = emails.map((email) => received.get(email) ?? 0);
    report({
      path: `campaign (${RECIPIENTS} recipients)`,
      injected,
      database: 'killed and restarted',
      lost: counts.filter((n) => n === 0).length,
      doubled: counts.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
      recoveryMs: recovered,
    });
    expect(counts.filter((n) => n === 0).length, 'nobody missed').toBe(0);
    expect(counts.filter((n) => n > 1).length, 'nobody got it twice').toBe(0);
    expect(injected['ses']!.error + injected['ses']!.slow, 'SES really failed on the way').toBeGreaterThan(0);
  }, 240_000);
});
