import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { readCommission } from '#data/affiliates.ts';
import { dynamoCredits } from '#data/credits.ts';
import { dynamoEnrollments } from '#data/enrollments.ts';
import { dynamoLicenses } from '#data/licenses.ts';
import { dynamoUsers } from '#data/users.ts';
import { capturePuts } from '#test/bench/scale/capture.ts';
import { commissionItems, courseItems, creditAccountItems, enrolmentItems, learnerEmail, learnerId, licenceItems, userItems } from '#test/bench/scale/seed.ts';
import { billedUnits, itemSize, type RecordedWrite, summarizeWrites, writesByShape, writtenKeys } from '#test/bench/scale/writes.ts';

/**
 * The scale bench's seed builders (test/bench/scale/seed.ts) give the items the data modules write: each is read back
 * through the module's own read (its schema parses it) from a client that answers with the seeded item.
 */
const key = (item: Record<string, unknown>) => `${String(item['pk'])}|${String(item['sk'])}`;

/** The data modules' reads answered from `items` (GetItem by key; nothing else is asked). */
const serve = (items: Record<string, unknown>[]) => {
  const byKey = new Map(items.map((item) => [key(item), item]));
  const dynamo = mockClient(DynamoDBDocumentClient);
  dynamo.on(GetCommand).callsFake((input: { Key: Record<string, unknown> }) => ({ Item: byKey.get(key(input.Key)) }));
  dynamo.on(QueryCommand).resolves({ Items: [] });
  return dynamo;
};

let mocked: ReturnType<typeof serve> | undefined;
afterEach(() => {
  mocked?.restore();
  mocked = undefined;
});

describe('scale seed builders', () => {
  it('capture the Puts a data module sends, sending nothing', async () => {
    const items = await capturePuts(() => dynamoUsers().createUser({ id: 'u1', email: 'a@example.com', role: 'learner', createdAt: '2026-01-01T00:00:00.000Z' }));
    expect(items.map((i) => i['type'])).toEqual(expect.arrayContaining(['User', 'UserEmail']));
  });

  it('make learners the users module reads back, by id and by email', async () => {
    const items = await userItems('t', 3, { createdAt: '2026-01-01T00:00:00.000Z' });
    expect(items).toHaveLength(6);
    mocked = serve(items);
    expect(await dynamoUsers().getUser(learnerId('t', 2))).toEqual({ id: 't-u2', email: 't-u2@scale.example.com', role: 'learner', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(await dynamoUsers().getUserIdByEmail(learnerEmail('t', 1))).toBe('t-u1');
  });

  it('make enrolments the enrolments module reads back, active, indexed for the CRM and the learner, newest last', async () => {
    const course = { id: 'c1', title: 'Course', creatorId: 'cr1' };
    const items = await enrolmentItems('t', course, 5, 2, { now: Date.parse('2026-06-01T00:00:00Z'), licenseId: (n) => (n === 6 ? 'lic1' : undefined) });
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ gsi1pk: 'CREATOR#cr1#LEARNERS', gsi2pk: 'LEARNER#t-u5#COURSES', gsi2sk: 'c1' });
    expect(String(items[0]!['enrolledAt']) < String(items[1]!['enrolledAt'])).toBe(true);
    mocked = serve(items);
    expect(await dynamoEnrollments().get('c1', 't-u6')).toMatchObject({ courseId: 'c1', learnerId: 't-u6', status: 'active', progress: 0, licenseId: 'lic1' });
  });

  it('make licences, seats, leaders and members the modules read back, due for expiry when they end', async () => {
    const course = { id: 'c1', title: 'Team course', creatorId: 'cr1' };
    const { items, licenceIds } = await licenceItems({ tag: 't', course, count: 2, seats: 3, expiresAt: '2026-01-01T00:00:00.000Z', createdAt: '2025-01-01T00:00:00.000Z' });
    expect(licenceIds).toEqual(['lic_t_0', 'lic_t_1']);
    const licence = items.find((i) => i['type'] === 'License' && i['id'] === 'lic_t_1');
    expect(licence).toMatchObject({ gsi3pk: 'LICENSES#ENDING', gsi2pk: 'LEADER#t-l1#LICENSES' });
    mocked = serve(items);
    expect(await dynamoLicenses().get('lic_t_1')).toMatchObject({ seatsTotal: 3, seatsUsed: 3, status: 'active', leaderId: 't-l1' });
    // Licence 1's seats are members 3..5.
    expect(await dynamoLicenses().seat('lic_t_1', learnerEmail('t', 4))).toMatchObject({ learnerId: 't-u4', status: 'active' });
    expect(await dynamoEnrollments().get('c1', 't-u4')).toMatchObject({ licenseId: 'lic_t_1', status: 'active' });
    expect(await dynamoUsers().getUser('t-l0')).toMatchObject({ role: 'leader' });
    expect(await dynamoUsers().getUser('t-u5')).toMatchObject({ role: 'learner' });
  });

  it('make credit accounts due for reset and pending commissions due for approval', async () => {
    const accounts = creditAccountItems('t', 2, '2026-01-01T00:00:00.000Z');
    expect(accounts[1]).toMatchObject({ gsi1pk: 'CREDITRESET', gsi1sk: '2026-01-01T00:00:00.000Z#t-u1' });
    const commissions = commissionItems({ creatorId: 'cr1', affiliateId: 'a1', tag: 't', count: 2, approveAt: '2026-01-01T00:00:00.000Z', at: '2025-12-01T00:00:00.000Z', amount: 300 });
    expect(commissions[0]).toMatchObject({ gsi1pk: 'COMMISSIONS#DUE' });
    const course = await courseItems({ id: 'c1', title: 'Course', creatorId: 'cr1' });
    expect(course).toHaveLength(1);
    expect(course[0]).toMatchObject({ pk: 'COURSE#c1', type: 'Course', creatorId: 'cr1' });
    // The learners are counted on the course's enrolled shards (decision 0035), not on the item.
    expect(course[0]).not.toHaveProperty('enrolledCount');
    mocked = serve([...accounts, ...commissions]);
    expect(await dynamoCredits().getAccount('t-u0')).toMatchObject({ billingPeriodEnd: '2026-01-01T00:00:00.000Z', monthlyAllocation: 200 });
    expect(await readCommission('a1', 't-o1')).toMatchObject({ status: 'pending', amount: 300, approveAt: '2026-01-01T00:00:00.000Z' });
  });
});

describe('scale write recording', () => {
  it('names the items each kind of write touches (a condition check writes none)', () => {
    expect(writtenKeys('put', { Item: { pk: 'A', sk: '1', x: 1 } })).toEqual(['A / 1']);
    expect(writtenKeys('update', { Key: { pk: 'B', sk: '2' } })).toEqual(['B / 2']);
    expect(
      writtenKeys('transact', {
        TransactItems: [{ Put: { Item: { pk: 'A', sk: '1' } } }, { Update: { Key: { pk: 'C', sk: 'C' } } }, { ConditionCheck: { Key: { pk: 'D', sk: 'D' } } }, { Delete: { Key: { pk: 'E', sk: 'E' } } }],
      }),
    ).toEqual(['A / 1', 'C / C', 'E / E']);
    expect(writtenKeys('batch', { RequestItems: { t: [{ PutRequest: { Item: { pk: 'A', sk: '1' } } }, { DeleteRequest: { Key: { pk: 'F', sk: 'F' } } }] } })).toEqual(['A / 1', 'F / F']);
  });

  it('sums the units and finds the items written most', () => {
    const summary = summarizeWrites(
      [
        { keys: ['COUNTERS / PLATFORM', 'ORDER#1 / ORDER'], units: 4 },
        { keys: ['COUNTERS / PLATFORM', 'ORDER#2 / ORDER'], units: 4 },
        { keys: [], units: undefined },
        { keys: ['COUNTERS / PLATFORM'], units: 1.5 },
      ],
      2,
    );
    expect(summary).toEqual({ writeCalls: 4, units: 9.5, itemWrites: 5, hottest: [{ key: 'COUNTERS / PLATFORM', writes: 3 }, { key: 'ORDER#1 / ORDER', writes: 1 }] });
    expect(summarizeWrites([{ keys: ['A / 1'], units: undefined }]).units).toBeUndefined();
  });

  it('bills as DynamoDB does, not as DynamoDB Local reports: per item and KB, twice in a transaction, again per index', () => {
    expect(itemSize({ pk: { S: 'ORDER#1' }, n: { N: '12345' } })).toBe(2 + 7 + 1 + 4);
    const small = { pk: { S: 'A' }, sk: { S: '1' }, gsi1pk: { S: 'G' } };
    const sizes = new Map([['C / C', { bytes: 1500, indexes: 0 }]]);
    const writes: RecordedWrite[] = [
      // A transaction: a small Put in one index (1 KB x 2, and its index's), an Update of a 1.5 KB item (2 KB x 2), a Delete of a gone item (1 KB x 2).
      { keys: ['A / 1', 'C / C', 'E / E'], units: 4, transactional: true, puts: { 'A / 1': small } },
      // Outside a transaction: 3,000 bytes, 3 units.
      { keys: ['B / 1'], units: 3, transactional: false, puts: { 'B / 1': { pk: { S: 'B' }, sk: { S: '1' }, body: { S: 'x'.repeat(2990) } } } },
      // Refused: not counted.
      { keys: [], units: undefined },
    ];
    expect(billedUnits(writes, sizes)).toBe(4 + 4 + 2 + 3);
    // An item gone by the end (B deleted): billed at its size when last put.
    expect(billedUnits([...writes, { keys: ['B / 1'], units: 3, transactional: false }], sizes)).toBe(4 + 4 + 2 + 3 + 3);
    expect(writesByShape(writes, sizes)).toEqual([
      { shape: '[A / …, C / C, E / E]', calls: 1, items: 3, units: 4, billed: 10 },
      { shape: 'B / …', calls: 1, items: 1, units: 3, billed: 3 },
    ]);
  });
});
