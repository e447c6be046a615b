import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { LicenseRepository, StoredLicense } from '#core/ports.ts';
import { documentClient, failedAt, indexPage, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * Team licences and their seats (access pattern 24; docs/data-model.md "Team licences").
 * Licence:  pk LICENSE#<licenseId>  sk LICENSE        course, leader, seatsTotal, seatsUsed (moved only with a seat, in
 *                                                     its transaction, under seatsUsed < seatsTotal), expiresAt, status
 *           gsi1pk COURSE#<courseId>#LICENSES  gsi1sk <createdAt>#<licenseId>   (a course's licences: the creator's
 *                                                                                list, newest first, a page at a time)
 *           gsi2pk LEADER#<leaderId>#LICENSES  gsi2sk <createdAt>#<licenseId>   (a leader's licences: their list, paged
 *                                                                                the same way)
 *           gsi3pk LICENSES#ENDING             gsi3sk <expiresAt>#<licenseId>   (while active with an end date: the expiry job,
 *                                                                                paged after a licence's place)
 *           courseTitle: a copy, carried by the 'course-changed' run of each rename (courseTitleAt: that rename's version)
 * Seat:     pk LICENSE#<licenseId>  sk SEAT#<email>   learnerId, status active|revoked, assignedAt, revokedAt
 */
export const licenseKeys = {
  license: (licenseId: string) => ({ pk: `LICENSE#${licenseId}`, sk: 'LICENSE' }),
  seat: (licenseId: string, email: string) => ({ pk: `LICENSE#${licenseId}`, sk: `SEAT#${email.toLowerCase()}` }),
  byCourse: (l: Pick<StoredLicense, 'courseId' | 'createdAt' | 'id'>) => ({ gsi1pk: `COURSE#${l.courseId}#LICENSES`, gsi1sk: `${l.createdAt}#${l.id}` }),
  byLeader: (l: Pick<StoredLicense, 'leaderId' | 'createdAt' | 'id'>) => ({ gsi2pk: `LEADER#${l.leaderId}#LICENSES`, gsi2sk: `${l.createdAt}#${l.id}` }),
  ending: (l: Pick<StoredLicense, 'expiresAt' | 'id'>) => (l.expiresAt ? { gsi3pk: 'LICENSES#ENDING', gsi3sk: `${l.expiresAt}#${l.id}` } : {}),
};

const licenseItem = z.object({
  id: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  creatorId: z.string(),
  leaderId: z.string(),
  leaderEmail: z.string(),
  seatsTotal: z.number().int(),
  seatsUsed: z.number().int(),
  expiresAt: z.string().nullable(),
  status: z.enum(['active', 'ended']),
  source: z.enum(['granted', 'purchased']),
  orderId: z.string().nullable(),
  createdAt: z.string(),
});
/** A cursor of a licence list stops on a licence item (the index key beside its own). */
const licenseCursor = { fixed: { sk: 'LICENSE' }, sortPrefix: { name: 'pk', prefix: 'LICENSE#' } };

const seatItem = z.object({
  licenseId: z.string(),
  email: z.string(),
  learnerId: z.string(),
  status: z.enum(['active', 'revoked']),
  assignedAt: z.string(),
});

/** One licence by id: on its own, so the learner's routes (which check a seat's licence on access) bundle nothing more. */
export const readLicense = async (licenseId: string): Promise<StoredLicense | undefined> => {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: licenseKeys.license(licenseId), ConsistentRead: true }));
  return Item ? licenseItem.parse(Item) : undefined;
};

/** One page of a course's licences' title copies (the 'course-changed' job), on gsi1; the cursor is the page's last key. */
export const licenseTitlePage = async (courseId: string, cursor: string | undefined) => {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `COURSE#${courseId}#LICENSES` },
      ProjectionExpression: 'id, courseTitleAt',
      Limit: 200,
      ...(cursor ? { ExclusiveStartKey: JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown> } : {}),
    }),
  );
  const copy = z.object({ id: z.string(), courseTitleAt: z.string().optional() });
  return {
    items: (page.Items ?? []).map((item) => copy.parse(item)),
    nextCursor: page.LastEvaluatedKey ? Buffer.from(JSON.stringify(page.LastEvaluatedKey)).toString('base64url') : null,
  };
};

/** The course's new title on one licence, only if its copy is older than this rename (core/courses/changes.ts). */
export const retitleLicense = (licenseId: string, title: string, version: string): Promise<boolean> =>
  writeIf(() =>
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: licenseKeys.license(licenseId),
        UpdateExpression: 'SET courseTitle = :title, courseTitleAt = :version',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(courseTitleAt) OR courseTitleAt < :version)',
        ExpressionAttributeValues: { ':title': title, ':version': version },
      }),
    ),
  );

const newestFirst = (a: StoredLicense, b: StoredLicense) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);

export const dynamoLicenses = (): LicenseRepository => ({
  create: (license) =>
    writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...licenseKeys.license(license.id),
            type: 'License',
            ...license,
            ...licenseKeys.byCourse(license),
            ...licenseKeys.byLeader(license),
            ...(license.status === 'active' ? licenseKeys.ending(license) : {}),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    ),

  get: readLicense,

  async listByCourse(courseId) {
    const items = await queryAll({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `COURSE#${courseId}#LICENSES` } });
    return items.map((item) => licenseItem.parse(item)).sort(newestFirst);
  },

  async pageByCourse(courseId, { cursor, limit }) {
    const page = await indexPage({ index: 'gsi1', partition: `COURSE#${courseId}#LICENSES`, cursor, limit, cursorKey: licenseCursor });
    return { items: page.items.map((item) => licenseItem.parse(item)), nextCursor: page.nextCursor };
  },

  async listByLeader(leaderId) {
    const items = await queryAll({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': `LEADER#${leaderId}#LICENSES` } });
    return items.map((item) => licenseItem.parse(item)).sort(newestFirst);
  },

  async pageByLeader(leaderId, { cursor, limit }) {
    const page = await indexPage({ index: 'gsi2', partition: `LEADER#${leaderId}#LICENSES`, cursor, limit, cursorKey: licenseCursor });
    return { items: page.items.map((item) => licenseItem.parse(item)), nextCursor: page.nextCursor };
  },

  async seats(licenseId) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :seat)',
      ExpressionAttributeValues: { ':pk': `LICENSE#${licenseId}`, ':seat': 'SEAT#' },
      ConsistentRead: true,
    });
    return items.map((item) => seatItem.parse(item));
  },

  async seatsAfter(licenseId, { after, limit, status, q }) {
    const filters: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':pk': `LICENSE#${licenseId}`, ':seat': 'SEAT#' };
    if (status) {
      filters.push('#status = :status');
      names['#status'] = 'status';
      values[':status'] = status;
    }
    if (q) {
      filters.push('contains(email, :q)');
      values[':q'] = q.toLowerCase();
    }
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :seat)',
        ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
        ...(status ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ...(after ? { ExclusiveStartKey: licenseKeys.seat(licenseId, after) } : {}),
        Limit: limit,
        ConsistentRead: true,
      }),
    );
    const last = page.LastEvaluatedKey?.['sk'];
    return {
      seats: (page.Items ?? []).map((item) => seatItem.parse(item)),
      more: page.LastEvaluatedKey !== undefined,
      last: typeof last === 'string' ? last.slice('SEAT#'.length) : undefined,
    };
  },

  async seat(licenseId, email) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: licenseKeys.seat(licenseId, email), ConsistentRead: true }));
    return Item ? seatItem.parse(Item) : undefined;
  },

  async assign(seat) {
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: licenseKeys.license(seat.licenseId),
          UpdateExpression: 'ADD seatsUsed :one',
          ConditionExpression: 'attribute_exists(pk) AND #status = :active AND seatsUsed < seatsTotal',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':one': 1, ':active': 'active' },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: { ...licenseKeys.seat(seat.licenseId, seat.email), type: 'Seat', ...seat, email: seat.email.toLowerCase() },
          ConditionExpression: 'attribute_not_exists(pk) OR #status = :revoked',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':revoked': 'revoked' },
        },
      },
    ]);
    if (!cancelled) return 'assigned';
    if (failedAt(cancelled, 1)) return 'already';
    const license = await this.get(seat.licenseId);
    return license?.status === 'active' ? 'full' : 'ended';
  },

  async update(licenseId, changes) {
    const sets: string[] = [];
    const values: Record<string, unknown> = { ':active': 'active' };
    if (changes.seatsTotal !== undefined) {
      sets.push('seatsTotal = :total');
      values[':total'] = changes.seatsTotal;
    }
    let remove = '';
    if (changes.expiresAt !== undefined) {
      sets.push('expiresAt = :expires');
      values[':expires'] = changes.expiresAt;
      const ending = licenseKeys.ending({ expiresAt: changes.expiresAt, id: licenseId });
      if ('gsi3pk' in ending) {
        sets.push('gsi3pk = :g3pk', 'gsi3sk = :g3sk');
        Object.assign(values, { ':g3pk': ending.gsi3pk, ':g3sk': ending.gsi3sk });
      } else remove = ' REMOVE gsi3pk, gsi3sk';
    }
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: licenseKeys.license(licenseId),
          UpdateExpression: `SET ${sets.join(', ')}${remove}`,
          ConditionExpression: `#status = :active${changes.seatsTotal === undefined ? '' : ' AND seatsUsed <= :total'}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return licenseItem.parse(Attributes);
    } catch (error) {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
      const old = (error as { Item?: Record<string, { S?: string }> }).Item;
      return old?.['status']?.S === 'active' ? 'too-few' : undefined;
    }
  },

  async endingBy(now, limit, after) {
    const { Items = [], LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk <= :now',
        ExpressionAttributeValues: { ':pk': 'LICENSES#ENDING', ':now': `${now}#~` },
        Limit: limit,
        ...(after ? { ExclusiveStartKey: { ...licenseKeys.license(after.id), ...licenseKeys.ending(after) } } : {}),
      }),
    );
    const read = Items.map((item) => licenseItem.parse(item));
    const last = read.at(-1);
    return { items: read.filter((l) => l.status === 'active'), ...(LastEvaluatedKey && last ? { next: { expiresAt: last.expiresAt!, id: last.id } } : {}) };
  },

  end: (licenseId, at) =>
    writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: licenseKeys.license(licenseId),
          UpdateExpression: 'SET #status = :ended, endedAt = :at REMOVE gsi3pk, gsi3sk',
          ConditionExpression: '#status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':ended': 'ended', ':active': 'active', ':at': at },
        }),
      ),
    ),

  async revoke(licenseId, email, at) {
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: licenseKeys.seat(licenseId, email),
          UpdateExpression: 'SET #status = :revoked, revokedAt = :at',
          ConditionExpression: '#status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':revoked': 'revoked', ':active': 'active', ':at': at },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: licenseKeys.license(licenseId),
          UpdateExpression: 'ADD seatsUsed :minus',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ]);
    return !cancelled;
  },
});
