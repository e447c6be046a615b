import type { SNSEvent } from 'aws-lambda';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { CampaignList, CampaignQueued, EmailAutomation, EmailTemplate } from '#contracts/campaigns.ts';
import { handler as sesFeedback } from '#functions/events/ses-feedback.ts';
import { campaignKeys } from '#data/campaigns.ts';
import { work as campaignSenderWork } from '#functions/jobs/campaign-sender.ts';
import { work as mailSenderWork } from '#functions/jobs/mail-sender.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { accountWithRole, api, dynamo, eventually, outputs, signUp, uniqueEmail, useLocalCloudEnv } from './support.ts';

/**
 * Email campaigns end to end: the gateway, the handlers, the campaign sender job (its work run here directly, slice after
 * slice, as a scheduled run goes on its queue), DynamoDB Local and SES local's store.
 */
interface StoredMail {
  subject: string;
  destination: { to: string[] };
  headers?: { name: string; value: string }[];
  body: { text?: string; html?: string };
}

const mails = async (subject: string): Promise<StoredMail[]> => {
  const { emails } = (await (await fetch(`${outputs().SesEndpoint}/store`)).json()) as { emails: StoredMail[] };
  return emails.filter((m) => m.subject === subject);
};

const header = (mail: StoredMail, name: string) => mail.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;

/**
 * Runs the sender until the campaign is sent, for up to a minute. The run the request started, or the background
 * scheduler's, may hold the campaign (its lease) and send some or all of its batches: a run here then finds nothing to
 * do, and the next one looks again a moment later.
 */
const sendUntilDone = async (token: string, campaignId: string) => {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    useLocalCloudEnv();
    await runToEnd('campaign-sender', campaignSenderWork, { sliceMs: 20_000 });
    const list = (await api('GET', '/api/admin/emails', { token })).body as CampaignList;
    const campaign = list.items.find((c) => c.id === campaignId);
    if (campaign?.status === 'sent') return { campaign, totals: list.totals };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`campaign ${campaignId} was not sent within a minute`);
};

describe('email campaigns', () => {
  it('reach every creator once with one-click unsubscribe headers, skip the unsubscribed and the suppressed, and count it all', async () => {
    const admin = await accountWithRole('admin', 'campaign-admin');
    const [ann, bob, cat] = [await accountWithRole('creator', 'camp-ann'), await accountWithRole('creator', 'camp-bob'), await accountWithRole('creator', 'camp-cat')];
    const learner = await accountWithRole('learner', 'camp-learner');
    useLocalCloudEnv();
    // SES reports Cat's address as a hard bounce (SNS delivers it twice): it goes on the suppression list once.
    const bounced = JSON.stringify({ eventType: 'Bounce', bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: cat.email }] }, mail: {} });
    const sns = { Records: [{ Sns: { Message: bounced } }, { Sns: { Message: bounced } }] } as unknown as SNSEvent;
    expect(await sesFeedback(sns)).toEqual({ suppressed: 1 });

    const subject = `Creators update ${Date.now()}`;
    const started = performance.now();
    const queued = await api('POST', '/api/admin/emails', {
      token: admin.token,
      body: { subject, content: 'Hello creators,\n\nNew tools are live: https://example.com/news\n\n{{not a placeholder}}', recipient: 'creators', template: 'custom' },
    });
    expect(queued.status).toBe(202);
    expect(performance.now() - started).toBeLessThan(5_000);
    const { campaignId, recipientCount } = queued.body as CampaignQueued;
    expect(recipientCount).toBeGreaterThanOrEqual(3);

    const { campaign } = await sendUntilDone(admin.token, campaignId);
    expect(campaign.recipientCount).toBe(recipientCount);
    expect(campaign.failed).toBe(0);
    expect(campaign.skipped).toBeGreaterThanOrEqual(1);

    const first = await mails(subject);
    const to = (email: string) => first.filter((m) => m.destination.to.includes(email));
    expect(to(ann.email)).toHaveLength(1);
    expect(to(bob.email)).toHaveLength(1);
    expect(to(cat.email)).toHaveLength(0);
    expect(to(learner.email)).toHaveLength(0);
    const toBob = to(bob.email)[0]!;
    expect(header(toBob, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const link = /^<(https?:\/\/[^>]+\/api\/unsubscribe\?token=[^>]+)>$/.exec(header(toBob, 'List-Unsubscribe') ?? '')?.[1];
    expect(link).toBeDefined();
    expect(toBob.body.text).toContain('{\u200b{not a placeholder}\u200b}');
    expect(toBob.body.text).toContain(link!);
    expect(toBob.body.html).toContain('<a href="https://example.com/news">');

    // Bob opens the link: a page asks to confirm, and nothing changes; the one-click POST (no session) unsubscribes.
    const path = new URL(link!).pathname + new URL(link!).search;
    const page = await api('GET', path);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Unsubscribe from Course Platform emails?');
    expect(page.body).toContain('<form method="post">');
    const tampered = path.replace(/token=(.)/, (_, c: string) => `token=${c === 'a' ? 'b' : 'a'}`);
    expect((await api('GET', tampered)).status).toBe(400);
    const refused = await fetch(`${outputs().ApiUrl}${tampered}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');

    // The second campaign still reaches Bob: only the POST unsubscribes.
    const second = `Second update ${Date.now()}`;
    const again = await api('POST', '/api/admin/emails', { token: admin.token, body: { subject: second, content: 'Still here.', recipient: 'creators', template: 'custom' } });
    await sendUntilDone(admin.token, (again.body as CampaignQueued).campaignId);
    expect((await mails(second)).filter((m) => m.destination.to.includes(bob.email))).toHaveLength(1);

    const oneClick = await fetch(`${outputs().ApiUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.json()).toEqual({ unsubscribed: true });
    const repeated = await fetch(`${outputs().ApiUrl}${path}`, { method: 'POST', headers: { accept: 'text/html' } });
    expect(repeated.status).toBe(200);
    expect(await repeated.text()).toContain("You're unsubscribed");

    const third = `Third update ${Date.now()}`;
    const last = await api('POST', '/api/admin/emails', { token: admin.token, body: { subject: third, content: 'Bye Bob.', recipient: 'creators', template: 'newsletter' } });
    const { totals } = await sendUntilDone(admin.token, (last.body as CampaignQueued).campaignId);
    const thirdMails = await mails(third);
    expect(thirdMails.filter((m) => m.destination.to.includes(bob.email))).toHaveLength(0);
    expect(thirdMails.filter((m) => m.destination.to.includes(ann.email))).toHaveLength(1);
    expect(totals.unsubscribed).toBeGreaterThanOrEqual(1);
    expect(totals.suppressed).toBeGreaterThanOrEqual(1);
    expect(totals.campaigns).toBeGreaterThanOrEqual(3);
  }, 200_000);

  it('starts sending at once: the queued campaign is sent within seconds by the run its request started, with no job run by the test', async () => {
    const admin = await accountWithRole('admin', 'campaign-at-once');
    await accountWithRole('leader', 'campaign-at-once-leader');
    const subject = `At once ${Date.now()}`;
    const queued = await api('POST', '/api/admin/emails', { token: admin.token, body: { subject, content: 'Now.', recipient: 'leaders', template: 'custom' } });
    const { campaignId } = queued.body as CampaignQueued;
    const statusNow = async () => ((await api('GET', '/api/admin/emails', { token: admin.token })).body as CampaignList).items.find((c) => c.id === campaignId)?.status;
    // Started within seconds (its first wave out) by the run the request started: no job run by the test. How long the
    // whole audience takes depends on how many leaders the shared cloud holds by now (the SES rate paces it).
    const started = await eventually(statusNow, (status) => status === 'sending' || status === 'sent', 10_000);
    expect(['sending', 'sent']).toContain(started);
    expect(await eventually(statusNow, (status) => status === 'sent', 90_000)).toBe('sent');
    expect((await mails(subject)).length).toBeGreaterThanOrEqual(1);
    // Sent by the run the request started on the sender's queue (named by the campaign), not by a scheduled run.
    const { Item } = await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: campaignKeys.campaign(campaignId), ConsistentRead: true }));
    expect(Item?.['leaseOwner']).toBe(`campaign-sender@${campaignId}`);
  }, 120_000);

  it('queues one campaign per Idempotency-Key, however often the request is retried', async () => {
    const admin = await accountWithRole('admin', 'campaign-retry');
    const body = { subject: `Retried ${Date.now()}`, content: 'Once.', recipient: 'leaders', template: 'custom' };
    const headers = { 'idempotency-key': `campaign-${Date.now()}-retry` };
    const [a, b] = await Promise.all([api('POST', '/api/admin/emails', { token: admin.token, body, headers }), api('POST', '/api/admin/emails', { token: admin.token, body, headers })]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect((a.body as CampaignQueued).campaignId).toBe((b.body as CampaignQueued).campaignId);
    const list = (await api('GET', '/api/admin/emails', { token: admin.token })).body as CampaignList;
    expect(list.items.filter((c) => c.subject === body.subject)).toHaveLength(1);
  });

  it('refuses a campaign without subject or content, or to an unknown group, with the fields named', async () => {
    const admin = await accountWithRole('admin', 'campaign-bad');
    const res = await api('POST', '/api/admin/emails', { token: admin.token, body: { subject: ' ', content: '', recipient: 'everyone', template: 'custom' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/subject/);
    expect(JSON.stringify(res.body)).toMatch(/recipient/);
  });

  it('keeps an edited template and an automation switched off, and answers 404 for unknown ones', async () => {
    const admin = await accountWithRole('admin', 'campaign-templates');
    const templates = (await api('GET', '/api/admin/email-templates', { token: admin.token })).body as { items: EmailTemplate[] };
    expect(templates.items.map((t) => t.id)).toEqual(['welcome', 'newsletter', 'announcement', 'trial-ending']);
    const saved = await api('PUT', '/api/admin/email-templates/newsletter', { token: admin.token, body: { subject: 'December news', content: 'All the news.' } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ id: 'newsletter', subject: 'December news', content: 'All the news.' });
    const again = (await api('GET', '/api/admin/email-templates', { token: admin.token })).body as { items: EmailTemplate[] };
    expect(again.items.find((t) => t.id === 'newsletter')?.subject).toBe('December news');
    expect((await api('PUT', '/api/admin/email-templates/nope', { token: admin.token, body: { subject: 'x', content: 'y' } })).status).toBe(404);

    const off = await api('PUT', '/api/admin/email-automations/trial-ending', { token: admin.token, body: { enabled: false } });
    expect(off.body).toMatchObject({ id: 'trial-ending', enabled: false });
    const automations = (await api('GET', '/api/admin/email-automations', { token: admin.token })).body as { items: EmailAutomation[] };
    expect(automations.items.find((a) => a.id === 'trial-ending')?.enabled).toBe(false);
    await api('PUT', '/api/admin/email-automations/trial-ending', { token: admin.token, body: { enabled: true } });
    expect((await api('PUT', '/api/admin/email-automations/nope', { token: admin.token, body: { enabled: true } })).status).toBe(404);
  });

  it('welcomes a creator who signs up with one email from the welcome template, but not an account made by invitation', async () => {
    const email = uniqueEmail('welcome');
    await signUp(email, 'Sup3rSecret', { role: 'creator' });
    const invited = await accountWithRole('creator', 'welcome-invited');
    const subject = 'Welcome to Course Platform: your first course starts here';
    for (let run = 0; run < 10 && (await mails(subject)).every((m) => !m.destination.to.includes(email)); run++) {
      useLocalCloudEnv();
      await runToEnd('mail-sender', mailSenderWork);
    }
    await runToEnd('mail-sender', mailSenderWork);
    const welcome = (await mails(subject)).filter((m) => m.destination.to.includes(email));
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.body.text).toContain('Your creator account is ready');
    expect(header(welcome[0]!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect((await mails(subject)).filter((m) => m.destination.to.includes(invited.email))).toHaveLength(0);
  });

  it('is for admins only', async () => {
    const creator = await accountWithRole('creator', 'campaign-creator');
    expect((await api('GET', '/api/admin/emails', { token: creator.token })).status).toBe(403);
    expect((await api('POST', '/api/admin/emails', { token: creator.token, body: { subject: 's', content: 'c', recipient: 'all', template: 'custom' } })).status).toBe(403);
  });
});
