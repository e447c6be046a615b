import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { resetJobQueues, sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { campaignSenderWork, CAMPAIGN_SENDER_JOB, campaignRunSlice } from '#core/campaigns/campaigns.ts';
import type { SliceWork } from '#core/jobs/slices.ts';
import type { CampaignRepository, StoredCampaign } from '#core/ports.ts';
import { campaignKeys, dynamoCampaigns } from '#data/campaigns.ts';
import { resetConfig } from '#functions/config.ts';
import { senderDeps } from '#functions/composition/deps-campaigns.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { type Delivery, type JobEventSource, startJobEventSource } from '#lib/local/sqs/event-source.ts';
import { startSqsStandIn, type SqsStandIn } from '#lib/local/sqs/stand-in.ts';
import { dynamo, outputs, seedLeaders, useLocalCloudEnv } from './support.ts';

/**
 * The campaign sender through the job engine's real local wiring (issue 28 points 1 and 4): the SQS stand-in, the event
 * source's poller, the job's handler and the SQS adapter, against DynamoDB Local and the SES stand-in. A campaign to 300
 * leaders, two waves a slice; the run's second slice dies after SES took its second wave and before it was recorded
 * (nothing it does after that reaches the table: the campaign stays leased to the run). Its delivery again takes the
 * campaign back at once (the lease is the run's), records the wave SES took without sending it again, and the run
 * goes on to the end: every leader gets the campaign exactly once.
 */
let standIn: SqsStandIn | undefined;
let source: JobEventSource | undefined;
afterEach(async () => {
  await source?.stop();
  await standIn?.stop();
  source = standIn = undefined;
});

const ses = (path: string, method: string, body?: unknown) =>
  fetch(`${outputs().SesEndpoint}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
afterAll(() => ses('/_stand-in', 'DELETE'));

const LEADERS = 300;


describe('a campaign run killed mid-slice', () => {
  it('sends every recipient the campaign exactly once, finishes, and leaves nothing in the dead-letter queue', async () => {
    useLocalCloudEnv();
    const tag = `camp-kill-${randomUUID().slice(0, 8)}`;
    const emails = await seedLeaders(tag, LEADERS);
    // One call of 50 a wave (callsInFlight), a wave each 0.6 s: many waves, many slices.
    await ses('/_stand-in/account', 'PUT', { MaxSendRate: 100, Max24HourSend: 1_000_000, SentLast24Hours: 0 });
    const campaign: StoredCampaign = {
      id: tag,
      subject: `Kill ${tag}`,
      content: 'Once each, whatever dies.',
      recipient: 'leaders',
      template: 'custom',
      status: 'queued',
      recipientCount: LEADERS,
      sent: 0,
      failed: 0,
      skipped: 0,
      createdAt: new Date().toISOString(),
      completedAt: null,
      batch: 0,
      segment: 0,
      position: null,
      leaseUntil: null,
      handedOff: null,
    };
    await dynamoCampaigns().create(campaign, undefined);
    // Off the pending index: the local cloud's own every-minute runs never see it; this test's run is its only sender.
    await dynamo().send(new UpdateCommand({ TableName: outputs().TableName, Key: campaignKeys.campaign(tag), UpdateExpression: 'REMOVE gsi2pk, gsi2sk' }));

    // The job's own work (functions/jobs/campaign-sender.ts), its pending list this campaign alone, two waves a slice,
    // and one death: the first delivery of the run's second slice, at its second wave's record, SES having sent it.
    let died = false;
    const dying = (remainingMs: () => number): SliceWork<Record<string, number>> => {
      const base = senderDeps(remainingMs);
      return (slice, timeUp) => {
        const kill = slice.seq === 1 && !died;
        let dead = false;
        let records = 0;
        let checks = 0;
        const gone = () => Promise.reject(new Error('the function is gone'));
        const campaigns: CampaignRepository = {
          ...base.campaigns,
          pending: async () => [tag],
          recordBatch: async (...args) => {
            if (kill && ++records === 2) {
              died = dead = true;
              throw new Error('killed mid-slice');
            }
            return base.campaigns.recordBatch(...args);
          },
          release: async (...args) => (dead ? gone() : base.campaigns.release(...args)),
          pauseForQuota: async (...args) => (dead ? gone() : base.campaigns.pauseForQuota(...args)),
        };
        const sleep = (ms: number) => (dead ? gone() : base.sleep(ms));
        return campaignSenderWork({ ...base, campaigns, sleep })(slice, () => ++checks >= 2 || timeUp());
      };
    };
    const handler = slicedJob(CAMPAIGN_SENDER_JOB, dying);

    const deliveries: Delivery[] = [];
    standIn = await startSqsStandIn({ port: 0 });
    source = await startJobEventSource({
      endpoint: standIn.url,
      region: 'eu-west-2',
      jobs: [{ name: CAMPAIGN_SENDER_JOB, handler: 'jobs/campaign-sender', timeoutMs: 25_000 }],
      // Visible again 2 s after a failure: far within the campaign's lease (LEASE_MS), which the killed slice kept.
      visibilityTimeoutSeconds: () => 2,
      log: () => undefined,
      load: () => Promise.resolve(handler as never),
      onDelivery: (delivery) => deliveries.push(delivery),
    });
    // The handler's SQS adapter sends to this stand-in.
    process.env['SQS_ENDPOINT'] = standIn.url;
    process.env['JOB_QUEUE_URLS'] = JSON.stringify(source.queueUrls);
    resetConfig();
    resetJobQueues();

    // The run the request queueing a campaign starts (send-campaign): its first slice, named by the campaign.
    await sqsSliceQueue().send([campaignRunSlice(tag)]);
    const queueUrl = source.queueUrls[CAMPAIGN_SENDER_JOB]!;
    const deadline = Date.now() + 120_000;
    while (deliveries.length === 0 || (await source.pending(queueUrl)) > 0) {
      if (Date.now() > deadline) throw new Error(`the run did not finish: ${JSON.stringify(deliveries.slice(-5))}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    expect(died).toBe(true);
    const killed = deliveries.filter((d) => d.outcome !== 'deleted');
    expect(killed).toEqual([expect.objectContaining({ outcome: 'failed', receiveCount: 1 })]);
    // The killed slice came back 2 s later and went through: the campaign its run still held (for LEASE_MS) was its own
    // to take back (held by another run, it would have ended there, and nothing else sends this campaign).
    expect(deliveries).toContainEqual(expect.objectContaining({ messageId: killed[0]!.messageId, receiveCount: 2, outcome: 'deleted' }));
    expect(deliveries.filter((d) => d.outcome === 'deleted').length).toBeGreaterThanOrEqual(3);
    expect(await source.pending(source.deadLetterQueueUrl)).toBe(0);

    useLocalCloudEnv();
    expect(await dynamoCampaigns().get(tag)).toMatchObject({ status: 'sent', failed: 0, handedOff: null });
    const { emails: stored } = (await (await fetch(`${outputs().SesEndpoint}/store`)).json()) as { emails: { subject: string; destination: { to: string[] } }[] };
    const got = new Map<string, number>();
    for (const mail of stored.filter((m) => m.subject === campaign.subject)) for (const to of mail.destination.to) got.set(to, (got.get(to) ?? 0) + 1);
    const per = emails.map((e) => got.get(e) ?? 0);
    process.stderr.write(`[campaign kill] deliveries ${deliveries.length}, lost ${per.filter((n) => n === 0).length}, doubled ${per.filter((n) => n > 1).length}\n`);
    expect(per.filter((n) => n === 0).length, 'lost').toBe(0);
    expect(per.filter((n) => n > 1).length, 'doubled').toBe(0);
  }, 180_000);
});
