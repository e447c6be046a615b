import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { campaignRecipient, campaignStatuses, campaignTemplate, recipientLabels } from '#contracts/campaigns.ts';
import { isoDate } from '#contracts/common.ts';
import type { CampaignRepository, SealedSecret, StoredCampaign } from '#core/ports.ts';
import { activityPut } from '#data/admin-stats.ts';
import { auditPut } from '#data/audit.ts';
import { countersUpdate, readPlatformCounters } from '#data/counters.ts';
import { claimOutbox, readOutbox, returnToOutbox } from '#data/outbox.ts';
import { batchGet, documentClient, failedAt, tableName, transact, writeIf } from '#data/table.ts';
import { userKeys } from '#data/users.ts';

/**
 * Email campaigns (access patterns 16 and 17; docs/data-model.md "Email campaigns").
 * Campaign:     pk CAMPAIGN#<id>        sk CAMPAIGN      gsi1 CAMPAIGNS / <createdAt>#<id> (newest first);
 *               gsi2 CAMPAIGNS_PENDING / <createdAt>#<id> while queued, sending or paused (removed when sent);
 *               leaseUntil, leaseOwner: the sender's run holding it (decision 0033), its cursor batch/segment/position,
 *               handedOff (the wave with SES, not recorded yet), owed (addresses SES refused at its daily quota, sent
 *               first when the campaign resumes; absent when none: at most a wave's, 500)
 * Request key:  pk CAMPAIGNREQ#<key>    sk CAMPAIGNREQ   campaignId (TTL 1 day): a retried POST finds its campaign
 * Suppression:  pk SUPPRESS#<email>     sk SUPPRESSION   reason, at
 * Settings:     pk EMAILSETTINGS        sk TEMPLATE#<id> | AUTOMATION#<id> | UNSUBSCRIBE_KEY (one Query reads them)
 * The automations' outbox is data/outbox.ts.
 * Platform totals move on the platform counters (data/counters.ts, sharded) in the same writes: emails_campaigns, emails_sent, emails_failed,
 * emails_unsubscribed, emails_suppressed.
 */
export const campaignKeys = {
  campaign: (id: string) => ({ pk: `CAMPAIGN#${id}`, sk: 'CAMPAIGN' }),
  request: (key: string) => ({ pk: `CAMPAIGNREQ#${key}`, sk: 'CAMPAIGNREQ' }),
  suppression: (email: string) => ({ pk: `SUPPRESS#${email.toLowerCase()}`, sk: 'SUPPRESSION' }),
  settings: (sk: string) => ({ pk: 'EMAILSETTINGS', sk }),
};

const REQUEST_TTL_SECONDS = 24 * 60 * 60;

const count = z.number().int().min(0);
const campaignItem = z.object({
  id: z.string(),
  subject: z.string(),
  content: z.string(),
  recipient: campaignRecipient,
  template: campaignTemplate,
  status: z.enum(campaignStatuses),
  recipientCount: count,
  sent: count,
  failed: count,
  skipped: count,
  createdAt: isoDate,
  completedAt: isoDate.nullable(),
  batch: count,
  segment: count,
  position: z.string().nullable(),
  leaseUntil: isoDate.nullable(),
  handedOff: z
    .object({ batch: count, count, segment: count.optional(), position: z.string().nullable().optional(), skipped: count.optional(), owedTaken: count.optional() })
    .nullable()
    .default(null),
  owed: z.array(z.string()).optional(),
});
const toCampaign = (item: unknown): StoredCampaign => campaignItem.parse(item);

const sealed = z.object({ ciphertext: z.base64(), iv: z.base64(), tag: z.base64(), encryptedDataKey: z.base64() });
const profile = z.object({ email: z.string(), disabled: z.boolean().optional() });

/** A DynamoDB position as an opaque string, and back. */
const encodePosition = (key: Record<string, unknown> | undefined) => (key ? Buffer.from(JSON.stringify(key)).toString('base64url') : undefined);
const decodePosition = (position: string | null) => (position ? (JSON.parse(Buffer.from(position, 'base64url').toString('utf8')) as Record<string, unknown>) : undefined);

/** Counter of each audience segment on the platform item (counters.ts, billing.ts). */
const segmentCounter = (segment: string): string => {
  const [kind, value] = segment.split(':');
  return kind === 'role' ? `users_${value}` : `subs_${value}`;
};

const settingsQuery = async () => {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'EMAILSETTINGS' }, ConsistentRead: true }),
  );
  return Items;
};

/**
 * The platform's unsubscribe key, sealed (made by `create` and stored by the first sender that needs it): the weekly
 * report reads it alone, without the campaigns' repository.
 */
export const readUnsubscribeKey = async (create: () => Promise<SealedSecret>): Promise<SealedSecret> => {
  const key = campaignKeys.settings('UNSUBSCRIBE_KEY');
  const read = async () => (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
  const stored = await read();
  if (stored) return sealed.parse(stored['sealed']);
  const made = await create();
  // The first writer wins; a sender that lost the race uses the winner's key.
  await writeIf(() =>
    documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { ...key, type: 'UnsubscribeKey', sealed: made }, ConditionExpression: 'attribute_not_exists(pk)' }),
    ),
  );
  return sealed.parse((await read())?.['sealed']);
};

export const dynamoCampaigns = (): CampaignRepository => ({
  async audienceSize(segments) {
    const Item = await readPlatformCounters(segments.map(segmentCounter));
    return segments.reduce((sum, s) => sum + Math.max(0, Number(Item[segmentCounter(s)] ?? 0)), 0);
  },

  async create(campaign, requestKey, audit) {
    const { id, createdAt, recipient, subject, recipientCount } = campaign;
    const items = [
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...campaignKeys.campaign(id),
            type: 'Campaign',
            gsi1pk: 'CAMPAIGNS',
            gsi1sk: `${createdAt}#${id}`,
            gsi2pk: 'CAMPAIGNS_PENDING',
            gsi2sk: `${createdAt}#${id}`,
            ...campaign,
          },
        },
      },
      ...countersUpdate({ emails_campaigns: 1 }),
      activityPut({ kind: 'campaign', text: `Campaign '${subject}' queued to ${recipientLabels[recipient].toLowerCase()} (${recipientCount})`, at: createdAt }, id),
      ...(audit ? [auditPut(audit)] : []),
    ];
    if (!requestKey) {
      await transact(items);
      return campaign;
    }
    const guard = {
      Put: {
        TableName: tableName(),
        Item: { ...campaignKeys.request(requestKey), type: 'CampaignRequest', campaignId: id, expiresAt: Math.floor(Date.parse(createdAt) / 1000) + REQUEST_TTL_SECONDS },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    const cancelled = await transact([guard, ...items]);
    if (!cancelled) return campaign;
    if (!failedAt(cancelled, 0)) throw new Error('the campaign was not created');
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: campaignKeys.request(requestKey), ConsistentRead: true }));
    const earlier = await this.get(z.object({ campaignId: z.string() }).parse(Item).campaignId);
    if (!earlier) throw new Error('the campaign of a repeated request is missing');
    return earlier;
  },

  async get(id) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: campaignKeys.campaign(id), ConsistentRead: true }));
    return Item ? toCampaign(Item) : undefined;
  },

  async list(limit) {
    const [{ Items = [] }, counters] = await Promise.all([
      documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': 'CAMPAIGNS' },
          ScanIndexForward: false,
          Limit: limit,
        }),
      ),
      readPlatformCounters(['emails_campaigns', 'emails_sent', 'emails_failed', 'emails_unsubscribed', 'emails_suppressed']),
    ]);
    const total = (name: string) => Math.max(0, Number(counters[name] ?? 0));
    return {
      items: Items.map(toCampaign),
      totals: {
        campaigns: total('emails_campaigns'),
        sent: total('emails_sent'),
        failed: total('emails_failed'),
        unsubscribed: total('emails_unsubscribed'),
        suppressed: total('emails_suppressed'),
      },
    };
  },

  async pending() {
    const { Items = [] } = await documentClient().send(
      new QueryCommand({ TableName: tableName(), IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': 'CAMPAIGNS_PENDING' }, Limit: 25 }),
    );
    return Items.map((item) => z.object({ id: z.string() }).parse(item).id);
  },

  lease(id, now, until, owner) {
    return writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: campaignKeys.campaign(id),
          // The run holding it (leaseOwner) may take it again: a slice of it killed before it freed the campaign.
          UpdateExpression: `SET leaseUntil = :until, #status = :sending, ${owner ? 'leaseOwner = :owner' : 'leaseOwner = :null'}`,
          ConditionExpression:
            'attribute_exists(pk) AND #status <> :sent AND (attribute_not_exists(leaseUntil) OR leaseUntil = :null OR leaseUntil < :now' + (owner ? ' OR leaseOwner = :owner)' : ')'),
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':until': until, ':sending': 'sending', ':sent': 'sent', ':null': null, ':now': now, ...(owner ? { ':owner': owner } : {}) },
        }),
      ),
    );
  },

  async audiencePage(segment, position, limit) {
    const [kind, value] = segment.split(':');
    const { Items = [], LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': kind === 'role' ? `ROLE#${value}` : `SUBSTATE#${value}` },
        ExclusiveStartKey: decodePosition(position),
        Limit: limit,
      }),
    );
    let profiles = Items;
    if (kind !== 'role' && Items.length > 0) {
      // Subscriptions carry the user id in their key, not the address: one BatchGetItem of their profiles.
      const keys = Items.map((item) => userKeys.profile(String(item['pk']).slice('USER#'.length)));
      profiles = await batchGet(keys);
    }
    return {
      people: profiles.map((item) => {
        const p = profile.parse(item);
        return { email: p.email, disabled: p.disabled === true };
      }),
      next: encodePosition(LastEvaluatedKey),
    };
  },

  async suppressed(emails) {
    const unique = [...new Set(emails.map((e) => e.toLowerCase()))];
    if (unique.length === 0) return new Set();
    const found = await batchGet(unique.map(campaignKeys.suppression), { projection: 'pk' });
    return new Set(found.map((item) => String(item['pk']).slice('SUPPRESS#'.length)));
  },

  handOff: (id, batch, count, wave) =>
    writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: campaignKeys.campaign(id),
          UpdateExpression: 'SET handedOff = :handedOff',
          ConditionExpression: '#batch = :batch',
          ExpressionAttributeNames: { '#batch': 'batch' },
          ExpressionAttributeValues: { ':handedOff': { batch, count, ...(wave ?? {}) }, ':batch': batch },
        }),
      ),
    ),

  async pauseForQuota(id) {
    await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: campaignKeys.campaign(id),
          UpdateExpression: 'SET #status = :paused, leaseUntil = :none',
          ConditionExpression: 'attribute_exists(pk) AND #status <> :sent',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':paused': 'paused', ':sent': 'sent', ':none': null },
        }),
      ),
    );
  },

  async takeBack(id, batch) {
    await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: campaignKeys.campaign(id),
          UpdateExpression: 'SET handedOff = :none',
          ConditionExpression: 'handedOff.#batch = :batch',
          ExpressionAttributeNames: { '#batch': 'batch' },
          ExpressionAttributeValues: { ':none': null, ':batch': batch },
        }),
      ),
    );
  },

  async release(id, batch) {
    await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: campaignKeys.campaign(id),
          UpdateExpression: 'SET leaseUntil = :none',
          ConditionExpression: '#batch = :batch AND #status = :sending',
          ExpressionAttributeNames: { '#batch': 'batch', '#status': 'status' },
          ExpressionAttributeValues: { ':none': null, ':batch': batch, ':sending': 'sending' },
        }),
      ),
    );
  },

  async recordBatch(id, batch, outcome) {
    const owed = outcome.owed && outcome.owed.length > 0 ? outcome.owed : undefined;
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: campaignKeys.campaign(id),
          UpdateExpression:
            'SET #batch = :next, #segment = :segment, #position = :position, #status = :status, completedAt = :completedAt, leaseUntil = :lease, handedOff = :none' +
            (owed ? ', owed = :owed' : '') +
            ' ADD sent :sent, failed :failed, skipped :skipped' +
            ` REMOVE ${[...(owed ? [] : ['owed']), ...(outcome.done ? ['gsi2pk', 'gsi2sk'] : [])].join(', ')}`.replace(/ REMOVE $/, ''),
          ConditionExpression: '#batch = :batch',
          ExpressionAttributeNames: { '#batch': 'batch', '#segment': 'segment', '#position': 'position', '#status': 'status' },
          ExpressionAttributeValues: {
            ':batch': batch,
            ':next': batch + 1,
            ':segment': outcome.segment,
            ':position': outcome.position,
            ':status': outcome.done ? 'sent' : 'sending',
            ':completedAt': outcome.done ? outcome.at : null,
            ':lease': outcome.done ? null : outcome.leaseUntil,
            ':none': null,
            ':sent': outcome.sent,
            ':failed': outcome.failed,
            ':skipped': outcome.skipped,
            ...(owed ? { ':owed': owed } : {}),
          },
        },
      },
      ...countersUpdate({ emails_sent: outcome.sent, emails_failed: outcome.failed }),
    ]);
    return !cancelled;
  },

  async suppress(email, reason, at) {
    const cancelled = await transact([
      {
        Put: {
          TableName: tableName(),
          Item: { ...campaignKeys.suppression(email), type: 'Suppression', email: email.toLowerCase(), reason, at },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...countersUpdate(reason === 'unsubscribed' ? { emails_unsubscribed: 1 } : { emails_suppressed: 1 }),
    ]);
    return !cancelled;
  },

  async templateOverrides() {
    const items = await settingsQuery();
    const template = z.object({ sk: z.string(), subject: z.string(), content: z.string(), updatedAt: isoDate });
    return new Map(
      items.filter((i) => String(i['sk']).startsWith('TEMPLATE#')).map((i) => {
        const t = template.parse(i);
        return [t.sk.slice('TEMPLATE#'.length), { subject: t.subject, content: t.content, updatedAt: t.updatedAt }];
      }),
    );
  },

  async saveTemplate(id, template) {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...campaignKeys.settings(`TEMPLATE#${id}`), type: 'EmailTemplate', ...template } }));
  },

  async automationSettings() {
    const items = await settingsQuery();
    const automation = z.object({ sk: z.string(), enabled: z.boolean().optional(), sent: count.optional() });
    return new Map(
      items.filter((i) => String(i['sk']).startsWith('AUTOMATION#')).map((i) => {
        const a = automation.parse(i);
        return [a.sk.slice('AUTOMATION#'.length), { enabled: a.enabled ?? true, sent: a.sent ?? 0 }];
      }),
    );
  },

  async saveAutomation(id, enabled) {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: campaignKeys.settings(`AUTOMATION#${id}`),
        UpdateExpression: 'SET enabled = :enabled, #type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':enabled': enabled, ':type': 'EmailAutomation' },
      }),
    );
  },

  outbox: readOutbox,
  claimOutbox,
  returnToOutbox,

  async countAutomationSent(id, sent) {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: campaignKeys.settings(`AUTOMATION#${id}`),
        UpdateExpression: 'ADD sent :sent SET #type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':sent': sent, ':type': 'EmailAutomation' },
      }),
    );
  },

  unsubscribeKey: readUnsubscribeKey,
});
