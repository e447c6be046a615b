import { beforeAll, describe, expect, it } from 'vitest';
import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import type { StoredCampaign } from '#core/ports.ts';
import { campaignKeys, dynamoCampaigns } from '#data/campaigns.ts';
import { claimOutbox, outboxPut, readOutbox } from '#data/outbox.ts';
import { transact } from '#data/table.ts';
import { userKeys } from '#data/users.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const campaign = (id: string, createdAt: string): StoredCampaign => ({
  id,
  subject: 'Data test',
  content: 'Hello',
  recipient: 'leaders',
  template: 'custom',
  status: 'queued',
  recipientCount: 2,
  sent: 0,
  failed: 0,
  skipped: 0,
  createdAt,
  completedAt: null,
  batch: 0,
  segment: 0,
  position: null,
  leaseUntil: null,
  handedOff: null,
});

describe('the campaigns (DynamoDB Local)', () => {
  it('creates a campaign once per request key, lists it newest first and as pending until its last batch', async () => {
    const repo = dynamoCampaigns();
    const id = unique('campaign');
    const key = unique('request');
    const createdAt = new Date().toISOString();
    expect(await repo.create(campaign(id, createdAt), key)).toMatchObject({ id });
    expect(await repo.create(campaign(unique('campaign-retry'), createdAt), key)).toMatchObject({ id });
    expect(await repo.get(id)).toEqual(campaign(id, createdAt));
    expect((await repo.list(50)).items.map((c) => c.id)).toContain(id);
    expect(await repo.pending()).toContain(id);

    // One sender at a time; a batch is recorded once, on its number.
    const now = new Date().toISOString();
    const until = new Date(Date.now() + 45_000).toISOString();
    expect(await repo.lease(id, now, until)).toBe(true);
    expect(await repo.lease(id, now, until)).toBe(false);
    const outcome = { sent: 2, failed: 0, skipped: 1, segment: 1, position: null, done: true, at: now, leaseUntil: until };
    // A batch handed to SES is noted on its number only; a refused one is taken back; recording clears the note.
    expect(await repo.handOff(id, 1, 2)).toBe(false);
    expect(await repo.handOff(id, 0, 2)).toBe(true);
    expect(await repo.get(id)).toMatchObject({ handedOff: { batch: 0, count: 2 } });
    await repo.takeBack(id, 1);
    expect(await repo.get(id)).toMatchObject({ handedOff: { batch: 0, count: 2 } });
    await repo.takeBack(id, 0);
    expect(await repo.get(id)).toMatchObject({ handedOff: null });
    // A run that failed frees the campaign, only while the batch it was on is still the next one.
    await repo.release(id, 1);
    expect(await repo.get(id)).toMatchObject({ leaseUntil: until });
    await repo.release(id, 0);
    expect(await repo.get(id)).toMatchObject({ leaseUntil: null, status: 'sending' });
    expect(await repo.lease(id, now, until)).toBe(true);
    expect(await repo.handOff(id, 0, 2)).toBe(true);
    expect(await repo.recordBatch(id, 0, outcome)).toBe(true);
    expect(await repo.recordBatch(id, 0, outcome)).toBe(false);
    expect(await repo.get(id)).toMatchObject({ status: 'sent', sent: 2, skipped: 1, batch: 1, completedAt: now, leaseUntil: null, handedOff: null });
    expect(await repo.pending()).not.toContain(id);
    expect((await rawItem(campaignKeys.campaign(id)))?.['gsi2pk']).toBeUndefined();
  });

  it('keeps the recipients refused at the quota as owed with the batch that met them, and removes them with the batch that sends the last', async () => {
    const repo = dynamoCampaigns();
    const id = unique('campaign-owed');
    const now = new Date().toISOString();
    const until = new Date(Date.now() + 45_000).toISOString();
    await repo.create(campaign(id, now), undefined);
    const wave = { sent: 1, failed: 0, skipped: 0, segment: 1, position: null, at: now, leaseUntil: until };
    expect(await repo.recordBatch(id, 0, { ...wave, owed: ['a@example.com', 'b@example.com'], done: false })).toBe(true);
    expect(await repo.get(id)).toMatchObject({ status: 'sending', batch: 1, sent: 1, owed: ['a@example.com', 'b@example.com'] });
    expect(await repo.pending()).toContain(id);
    expect(await repo.handOff(id, 1, 2, { segment: 1, position: null, skipped: 0, owedTaken: 2 })).toBe(true);
    expect(await repo.get(id)).toMatchObject({ handedOff: { batch: 1, count: 2, owedTaken: 2 } });
    expect(await repo.recordBatch(id, 1, { ...wave, sent: 2, done: true })).toBe(true);
    const sent = await repo.get(id);
    expect(sent).toMatchObject({ status: 'sent', batch: 2, sent: 3, handedOff: null });
    expect(sent?.owed).toBeUndefined();
    expect(await repo.pending()).not.toContain(id);
  });

  it('pages a role and a subscription state, with the addresses and the disabled flag of their profiles', async () => {
    const repo = dynamoCampaigns();
    const role = unique('role');
    const state = unique('state');
    const ids = [unique('u1'), unique('u2'), unique('u3')];
    for (const [i, id] of ids.entries()) {
      const createdAt = `2026-11-2${i}T10:00:00.000Z`;
      await putRaw({ ...userKeys.profile(id), gsi1pk: `ROLE#${role}`, gsi1sk: `${createdAt}#${id}`, type: 'User', id, email: `${id}@example.com`, role: 'creator', createdAt, ...(i === 2 ? { disabled: true } : {}) });
      await putRaw({ pk: `USER#${id}`, sk: 'SUBSCRIPTION', gsi1pk: `SUBSTATE#${state}`, gsi1sk: `${createdAt}#${id}`, type: 'Subscription' });
    }
    const first = await repo.audiencePage(`role:${role}`, null, 2);
    expect(first.people).toHaveLength(2);
    expect(first.next).toBeDefined();
    const second = await repo.audiencePage(`role:${role}`, first.next!, 2);
    expect(second.people).toHaveLength(1);
    const everyone = [...first.people, ...second.people];
    expect(everyone.map((p) => p.email).sort()).toEqual(ids.map((id) => `${id}@example.com`).sort());
    expect(everyone.filter((p) => p.disabled).map((p) => p.email)).toEqual([`${ids[2]}@example.com`]);

    const subscribed = await repo.audiencePage(`subscription:${state}`, null, 50);
    expect(subscribed.people.map((p) => p.email).sort()).toEqual(ids.map((id) => `${id}@example.com`).sort());
    expect(subscribed.next).toBeUndefined();
    expect(await repo.audienceSize(['role:creator', 'subscription:trialing'])).toBeGreaterThanOrEqual(0);
  });

  it('suppresses an address once and finds it among others, whatever its case', async () => {
    const repo = dynamoCampaigns();
    const email = `${unique('bounce')}@Example.com`;
    const before = (await repo.list(1)).totals;
    expect(await repo.suppress(email, 'bounce', new Date().toISOString())).toBe(true);
    expect(await repo.suppress(email.toLowerCase(), 'bounce', new Date().toISOString())).toBe(false);
    expect(await repo.suppressed([email.toLowerCase(), 'nobody@example.com'])).toEqual(new Set([email.toLowerCase()]));
    expect(await repo.suppressed([])).toEqual(new Set());
    expect((await repo.list(1)).totals.suppressed).toBeGreaterThanOrEqual(before.suppressed + 1);
  });

  it('keeps template edits, automation switches and counts, and one unsubscribe key whoever asks first', async () => {
    const repo = dynamoCampaigns();
    const updatedAt = new Date().toISOString();
    await repo.saveTemplate('announcement', { subject: 'Data subject', content: 'Data content', updatedAt });
    expect((await repo.templateOverrides()).get('announcement')).toEqual({ subject: 'Data subject', content: 'Data content', updatedAt });
    // An id of this test's own: the real automations are switched by other tests and sent by the scheduler meanwhile.
    const automation = unique('automation');
    await repo.saveAutomation(automation, false);
    await repo.countAutomationSent(automation, 2);
    expect((await repo.automationSettings()).get(automation)).toEqual({ enabled: false, sent: 2 });

    const cipher = envelopeCipher();
    const [a, b] = await Promise.all([
      repo.unsubscribeKey(() => cipher.encrypt('key-a', 'platform:unsubscribe')),
      repo.unsubscribeKey(() => cipher.encrypt('key-b', 'platform:unsubscribe')),
    ]);
    expect(a).toEqual(b);
    expect(await repo.unsubscribeKey(() => Promise.reject(new Error('not asked again')))).toEqual(a);
  });

  it('queues an automation email once and lets exactly one sender take it off', async () => {
    const message = { automation: 'welcome' as const, userId: unique('outbox-user'), email: `${unique('outbox')}@example.com`, at: new Date().toISOString() };
    expect(await transact([outboxPut(message)])).toBeUndefined();
    expect(await transact([outboxPut(message)])).toBeDefined();
    expect(await readOutbox(50)).toContainEqual(message);
    const claims = await Promise.all([claimOutbox(message), claimOutbox(message)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await readOutbox(50)).not.toContainEqual(message);

    // Put back (SES refused it): waiting again as it was, to be taken off once more. More than a batch write's 25.
    // Owed an hour from now, so the local cloud's mail sender (every minute, emails owed by its time) leaves them to this test.
    const later = { ...message, at: new Date(Date.now() + 3_600_000).toISOString() };
    const more = Array.from({ length: 30 }, (_, i) => ({ ...later, userId: `${message.userId}-${i}` }));
    await dynamoCampaigns().returnToOutbox([later, ...more]);
    const waiting = await readOutbox(1000);
    for (const m of [later, ...more]) expect(waiting).toContainEqual(m);
    expect(await readOutbox(1000, new Date().toISOString())).not.toContainEqual(later);
    expect(await claimOutbox(later)).toBe(true);
    for (const m of more) await claimOutbox(m);
  });
});
