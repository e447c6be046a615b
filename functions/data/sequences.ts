import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { sequenceStep, sequenceTriggerKinds } from '#contracts/sequences.ts';
import type { EntryRef, SchoolUnsubscribes, SequenceCounts, SequenceEntry, SequenceEntryRepository, SequenceRepository, StoredSequence } from '#core/sequences/ports.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { batchGet, documentClient, dueIndexPage, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * Email sequences (issue 33 part 2).
 * Sequence:    pk CREATOR#<creatorId>   sk SEQUENCE#<sequenceId>   name, trigger, steps, active, createdAt, updatedAt: the
 *                                                                  creator's list (one Query), and what a stream batch
 *                                                                  reads once per creator to find the sequences an
 *                                                                  enrolment change enters
 * Counts:      pk CREATOR#<creatorId>   sk SEQSTATS#<sequenceId>   entered, sent<i> (one number per step index: ADD
 *                                                                  needs no map to exist), unsubscribed; apart from the
 *                                                                  settings, so a PATCH never overwrites a count
 * Held:        pk CREATOR#<creatorId>   sk SEQUENCES               held: how many sequences the creator has (the cap)
 * Entry:       pk SEQUENCE#<sequenceId> sk ENTRY#<courseId>#<learnerId>#<event>   creatorId, email, eventAt, step,
 *                                                                  dueAt, entered, leftFor, leftAt: one learner in the
 *                                                                  sequence for one trigger event (written with
 *                                                                  attribute_not_exists: an event enters once)
 *              gsi3pk SEQUENCES#DUE  gsi3sk <dueAt>#<sequenceId>#<courseId>#<learnerId>   while a step is due (sparse):
 *                                                                  what the 'sequence-sender' job reads
 * Unsubscribe: pk SCHOOLUNSUB#<creatorId>  sk <email, lower-case>  at: the address refused the creator's emails
 */
export const sequenceKeys = {
  sequence: (creatorId: string, sequenceId: string) => ({ pk: `CREATOR#${creatorId}`, sk: `SEQUENCE#${sequenceId}` }),
  counts: (creatorId: string, sequenceId: string) => ({ pk: `CREATOR#${creatorId}`, sk: `SEQSTATS#${sequenceId}` }),
  held: (creatorId: string) => ({ pk: `CREATOR#${creatorId}`, sk: 'SEQUENCES' }),
  entry: (e: EntryRef) => ({ pk: `SEQUENCE#${e.sequenceId}`, sk: `ENTRY#${e.courseId}#${e.learnerId}#${e.event}` }),
  due: (e: Pick<SequenceEntry, 'sequenceId' | 'courseId' | 'learnerId'>, dueAt: string) => ({ gsi3pk: DUE, gsi3sk: `${dueAt}#${e.sequenceId}#${e.courseId}#${e.learnerId}` }),
  unsubscribe: (creatorId: string, email: string) => ({ pk: `SCHOOLUNSUB#${creatorId}`, sk: email.toLowerCase() }),
};
const DUE = 'SEQUENCES#DUE';

const sequenceItem = z.object({
  creatorId: z.string(),
  id: z.string(),
  name: z.string(),
  trigger: z.object({ kind: z.enum(sequenceTriggerKinds), courseId: z.string().nullable(), days: z.number().int().optional() }),
  steps: z.array(sequenceStep),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const toSequence = (item: unknown): StoredSequence => {
  const { trigger, ...rest } = sequenceItem.parse(item);
  return { ...rest, trigger: { kind: trigger.kind, courseId: trigger.courseId, ...(trigger.days !== undefined ? { days: trigger.days } : {}) } };
};

const entryItem = z.object({
  sequenceId: z.string(),
  creatorId: z.string(),
  courseId: z.string(),
  learnerId: z.string(),
  email: z.string(),
  event: z.string(),
  eventAt: z.string(),
  step: z.number().int().min(0),
  dueAt: z.string().nullable(),
  entered: z.boolean(),
});
const toEntry = (item: unknown): SequenceEntry => entryItem.parse(item);

const entryAsStored = (entry: SequenceEntry) => {
  const { sequenceId, creatorId, courseId, learnerId, email, event, eventAt, step, dueAt, entered } = entry;
  return { sequenceId, creatorId, courseId, learnerId, email, event, eventAt, step, dueAt, entered };
};

/** The entry exactly as read: at its step and due time (a run that moved it first wins). */
const asRead = (entry: SequenceEntry) => ({
  ConditionExpression: '#step = :step AND dueAt = :due',
  names: { '#step': 'step' },
  values: { ':step': entry.step, ':due': entry.dueAt },
});

export const dynamoSequences = (): SequenceRepository => ({
  async list(creatorId) {
    const items = await queryAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :seq)', ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}`, ':seq': 'SEQUENCE#' } });
    return items.map(toSequence);
  },

  async get(creatorId, sequenceId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: sequenceKeys.sequence(creatorId, sequenceId) }));
    return Item ? toSequence(Item) : undefined;
  },

  async create(sequence, max) {
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: sequenceKeys.held(sequence.creatorId),
          UpdateExpression: 'SET #type = :type ADD held :one',
          ConditionExpression: 'attribute_not_exists(held) OR held < :max',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': 'SequencesHeld', ':one': 1, ':max': max },
        },
      },
      { Put: { TableName: tableName(), Item: { ...sequenceKeys.sequence(sequence.creatorId, sequence.id), type: 'Sequence', ...sequence }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: tableName(), Item: { ...sequenceKeys.counts(sequence.creatorId, sequence.id), type: 'SequenceCounts', entered: 0, unsubscribed: 0 } } },
    ]);
    if (!cancelled) return 'created';
    if (cancelled.codes[0] === 'ConditionalCheckFailed') return 'limit';
    throw new Error(`Sequence ${sequence.id} collided with an existing one`);
  },

  save: (sequence) =>
    writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...sequenceKeys.sequence(sequence.creatorId, sequence.id), type: 'Sequence', ...sequence },
          ConditionExpression: 'attribute_exists(pk)',
        }),
      ),
    ),

  async remove(creatorId, sequenceId) {
    const cancelled = await transact([
      { Delete: { TableName: tableName(), Key: sequenceKeys.sequence(creatorId, sequenceId), ConditionExpression: 'attribute_exists(pk)' } },
      { Delete: { TableName: tableName(), Key: sequenceKeys.counts(creatorId, sequenceId) } },
      { Update: { TableName: tableName(), Key: sequenceKeys.held(creatorId), UpdateExpression: 'ADD held :minus', ConditionExpression: 'held > :zero', ExpressionAttributeValues: { ':minus': -1, ':zero': 0 } } },
    ]);
    return !cancelled;
  },

  async stats(creatorId, sequenceId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: sequenceKeys.counts(creatorId, sequenceId) }));
    const sent: SequenceCounts['sent'] = {};
    for (const [name, value] of Object.entries(Item ?? {})) {
      const step = /^sent(\d+)$/.exec(name)?.[1];
      if (step !== undefined && typeof value === 'number') sent[step] = value;
    }
    return { entered: Number(Item?.['entered'] ?? 0), sent, unsubscribed: Number(Item?.['unsubscribed'] ?? 0) };
  },
});

export const dynamoSequenceEntries = (): SequenceEntryRepository => ({
  enter: (entry) =>
    writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...sequenceKeys.entry(entry), type: 'SequenceEntry', ...entryAsStored(entry), ...(entry.dueAt ? sequenceKeys.due(entry, entry.dueAt) : {}) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    ),

  async dropWaiting(ref) {
    await writeIf(() =>
      documentClient().send(new DeleteCommand({ TableName: tableName(), Key: sequenceKeys.entry(ref), ConditionExpression: 'entered = :no', ExpressionAttributeValues: { ':no': false } })),
    );
  },

  async due(now, limit, cursor) {
    const page = await dueIndexPage(DUE, now, limit, cursor ? { cursor, pkPrefix: 'SEQUENCE#' } : undefined);
    return { items: page.items.map(toEntry), nextCursor: page.nextCursor };
  },

  async get(ref) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: sequenceKeys.entry(ref), ConsistentRead: true }));
    return Item ? toEntry(Item) : undefined;
  },

  async advance(entry, next) {
    const read = asRead(entry);
    const moved = next.nextDueAt
      ? { UpdateExpression: 'SET #step = :next, dueAt = :nextDue, entered = :yes, gsi3pk = :gsi3pk, gsi3sk = :gsi3sk', values: { ':nextDue': next.nextDueAt, ...prefixed(sequenceKeys.due(entry, next.nextDueAt)) } }
      : { UpdateExpression: 'SET #step = :next, dueAt = :none, entered = :yes, leftFor = :done, leftAt = :at REMOVE gsi3pk, gsi3sk', values: { ':none': null, ':done': 'done', ':at': next.mail.queuedAt } };
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: sequenceKeys.entry(entry),
          UpdateExpression: moved.UpdateExpression,
          ConditionExpression: read.ConditionExpression,
          ExpressionAttributeNames: read.names,
          ExpressionAttributeValues: { ...read.values, ':next': entry.step + 1, ':yes': true, ...moved.values },
        },
      },
      mailQueuePut(next.mail),
      {
        Update: {
          TableName: tableName(),
          Key: sequenceKeys.counts(entry.creatorId, entry.sequenceId),
          UpdateExpression: `SET #type = :type ADD #sent :one${next.entered ? ', entered :one' : ''}`,
          ExpressionAttributeNames: { '#type': 'type', '#sent': `sent${entry.step}` },
          ExpressionAttributeValues: { ':type': 'SequenceCounts', ':one': 1 },
        },
      },
    ]);
    return !cancelled;
  },

  async leave(entry, reason, at) {
    const read = asRead(entry);
    const update = {
      Update: {
        TableName: tableName(),
        Key: sequenceKeys.entry(entry),
        UpdateExpression: 'SET dueAt = :none, leftFor = :reason, leftAt = :at REMOVE gsi3pk, gsi3sk',
        ConditionExpression: read.ConditionExpression,
        ExpressionAttributeNames: read.names,
        ExpressionAttributeValues: { ...read.values, ':none': null, ':reason': reason, ':at': at },
      },
    };
    // Counted only for a learner who was in it (an inactivity entry that never fired is nobody's unsubscription).
    const counted = reason === 'unsubscribed' && entry.entered;
    const cancelled = await transact([
      update,
      ...(counted
        ? [
            {
              Update: {
                TableName: tableName(),
                Key: sequenceKeys.counts(entry.creatorId, entry.sequenceId),
                UpdateExpression: 'SET #type = :type ADD unsubscribed :one',
                ExpressionAttributeNames: { '#type': 'type' },
                ExpressionAttributeValues: { ':type': 'SequenceCounts', ':one': 1 },
              },
            },
          ]
        : []),
    ]);
    return !cancelled;
  },
});

/** gsi3pk/gsi3sk as the update's values (`:gsi3pk`, `:gsi3sk`). */
const prefixed = (keys: { gsi3pk: string; gsi3sk: string }) => ({ ':gsi3pk': keys.gsi3pk, ':gsi3sk': keys.gsi3sk });

export const dynamoSchoolUnsubscribes = (): SchoolUnsubscribes => ({
  async unsubscribe(creatorId, email, at) {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...sequenceKeys.unsubscribe(creatorId, email), type: 'SchoolUnsubscribe', at } }));
  },

  async unsubscribed(creatorId, emails) {
    if (emails.length === 0) return new Set();
    const found = await batchGet([...new Set(emails.map((e) => e.toLowerCase()))].map((e) => sequenceKeys.unsubscribe(creatorId, e)));
    return new Set(found.map((item) => String(item['sk'])));
  },
});

