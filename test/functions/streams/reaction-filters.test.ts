import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { eventHandlers } from '#functions/routes.ts';
import { reactions } from '#functions/streams/reactions.ts';
import { receiptOwed } from '#core/sales/order-receipts.ts';
import { eventsOf } from '#core/webhooks/events.ts';
import { enrolmentActivated } from '#functions/streams/reactions/session-invitations.ts';
import { changeOf } from '#functions/streams/reactions/webhook-events.ts';
import { enrolmentOf } from '#functions/streams/reactions/sequence-entries.ts';
import { triggerEventsOf } from '#core/sequences/rules.ts';
import { newImage, oldImage } from '#functions/streams/reactions/reaction.ts';

/**
 * In AWS the reactions' consumer only receives the records its event source's filters let through
 * (`eventHandlers.reactions.filters` in functions/routes.ts); the local poller hands over every record, so a reaction
 * whose records the filters drop works locally and never runs in the cloud. This ties the two together: each reaction
 * in functions/streams/reactions.ts names here the records it acts on (checked against its own test of a record), and
 * each of them must pass the filters as Lambda's event filtering matches them.
 */

/** Lambda's event filter matching (the subset a DynamoDB stream filter uses); an operator it does not know fails the test. */
const matchesLeaf = (rules: readonly unknown[], value: unknown): boolean =>
  rules.some((rule) => {
    if (rule === null || typeof rule !== 'object') return value === rule;
    const [[operator, operand]] = Object.entries(rule) as [[string, unknown]];
    if (operator === 'prefix') return typeof value === 'string' && value.startsWith(operand as string);
    if (operator === 'exists') return (value !== undefined) === operand;
    if (operator === 'anything-but') return value !== undefined && !(Array.isArray(operand) ? operand : [operand]).includes(value);
    throw new Error(`filter operator ${operator} is not known to this test: add it to matchesLeaf`);
  });

const matches = (pattern: Record<string, unknown>, event: unknown): boolean =>
  Object.entries(pattern).every(([key, rule]) => {
    const value = event !== null && typeof event === 'object' ? (event as Record<string, unknown>)[key] : undefined;
    return Array.isArray(rule) ? matchesLeaf(rule, value) : matches(rule as Record<string, unknown>, value);
  });

const filters = eventHandlers.reactions.filters as readonly Record<string, unknown>[];
/** Lambda ORs the patterns of one event source. */
const passesFilters = (record: DynamoDBRecord): boolean => filters.some((pattern) => matches(pattern, record));

const image = (item: Record<string, unknown>) => marshall(item) as Record<string, AttributeValue>;
/** A stream record as DynamoDB Streams writes it (NEW_AND_OLD_IMAGES): the keys, and the images there are. */
const streamRecord = (before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): DynamoDBRecord => {
  const item = (after ?? before)!;
  return {
    eventName: before ? (after ? 'MODIFY' : 'REMOVE') : 'INSERT',
    dynamodb: {
      Keys: image({ pk: item['pk'], sk: item['sk'] }),
      ...(before ? { OldImage: image(before) } : {}),
      ...(after ? { NewImage: image(after) } : {}),
      SequenceNumber: '1',
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  } as DynamoDBRecord;
};

const enrolment = (status: 'active' | 'removed') => ({
  pk: 'COURSE#course-1',
  sk: 'ENROLL#l1',
  courseId: 'course-1',
  learnerId: 'l1',
  learnerEmail: 'l1@example.com',
  status,
  progress: 0,
});

const order = (status: 'pending' | 'paid' | 'refunded' | 'disputed') => ({
  pk: 'ORDER#o1',
  sk: 'ORDER',
  id: 'o1',
  creatorId: 'c1',
  courseId: 'course-1',
  courseTitle: 'Knots',
  learnerId: 'l1',
  buyerEmail: 'l1@example.com',
  amount: 2000,
  currency: 'gbp',
  seats: null,
  status,
  paidAt: status === 'pending' ? null : '2026-11-28T09:00:00.000Z',
});
const enrolledBy = (extra: Record<string, unknown> = {}) => ({
  ...enrolment('active'),
  creatorId: 'c1',
  courseTitle: 'Knots',
  enrolledAt: '2026-11-28T09:00:00.000Z',
  lastActivity: '2026-11-28T09:00:00.000Z',
  completedLessonIds: [],
  completedAt: null,
  ...extra,
});

/** Per reaction: its own test of a record it acts on, and the records it acts on. A new reaction adds its row. */
const wanted: Record<string, { wants: (record: DynamoDBRecord) => boolean; records: DynamoDBRecord[] }> = {
  'session-invitations': {
    wants: (record) => enrolmentActivated(record) !== undefined,
    records: [streamRecord(undefined, enrolment('active')), streamRecord(enrolment('removed'), enrolment('active'))],
  },
  'order-receipts': {
    wants: (record) => receiptOwed(oldImage(record), newImage(record)) !== undefined,
    records: [streamRecord(order('pending'), order('paid'))],
  },
  'sequence-entries': {
    wants: (record) => triggerEventsOf(enrolmentOf(oldImage(record)), enrolmentOf(newImage(record))).length > 0,
    records: [
      streamRecord(undefined, enrolledBy()),
      streamRecord(enrolledBy(), enrolledBy({ lastActivity: '2026-11-28T10:00:00.000Z' })),
      streamRecord(enrolledBy(), enrolledBy({ completedLessonIds: ['lesson-1'], progress: 100, lastActivity: '2026-11-28T10:00:00.000Z', completedAt: '2026-11-28T10:00:00.000Z' })),
    ],
  },
  'webhook-events': {
    wants: (record) => eventsOf(changeOf({ ...record, eventID: 'e1', dynamodb: { ...record.dynamodb, ApproximateCreationDateTime: 1 } })).length > 0,
    records: [
      streamRecord(undefined, enrolledBy()),
      streamRecord(enrolledBy(), enrolledBy({ completedLessonIds: ['lesson-1'], progress: 100, lastActivity: '2026-11-28T10:00:00.000Z', completedAt: '2026-11-28T10:00:00.000Z' })),
      streamRecord(order('pending'), order('paid')),
      streamRecord(order('paid'), order('refunded')),
      streamRecord(order('paid'), order('disputed')),
      streamRecord(undefined, { pk: 'CERT#cert-1', sk: 'CERT', id: 'cert-1', creatorId: 'c1', courseId: 'course-1', courseTitle: 'Knots', learnerId: 'l1', learnerEmail: 'l1@example.com', issuedAt: '2026-11-28T10:01:00.000Z' }),
      streamRecord(undefined, { pk: 'SESSION#s1', sk: 'SESSION', id: 's1', creatorId: 'c1', courseId: 'course-1', title: 'Q&A', startsAt: '2026-12-01T18:00:00.000Z', durationMinutes: 60, timeZone: 'Europe/London', status: 'scheduled' }),
    ],
  },
};

describe("the reactions consumer's event filters (decision 0050)", () => {
  it('are at most 5 patterns, as Lambda allows on one event source', () => {
    expect(filters.length).toBeGreaterThan(0);
    expect(filters.length).toBeLessThanOrEqual(5);
  });

  it('name the records of every reaction in the list', () => {
    expect(reactions.map((reaction) => reaction.name).sort()).toEqual(Object.keys(wanted).sort());
  });

  for (const [name, { wants, records }] of Object.entries(wanted)) {
    it(`let through every record ${name} acts on`, () => {
      expect(records.length).toBeGreaterThan(0);
      for (const record of records) {
        expect(wants(record), `${name} acts on ${JSON.stringify(record)}`).toBe(true);
        expect(passesFilters(record), `the filters let ${JSON.stringify(record)} through to ${name}`).toBe(true);
      }
    });
  }

  it('drop a record no reaction acts on: an item of another kind, a deletion', () => {
    const course = { pk: 'COURSE#course-1', sk: 'META', title: 'Knots', status: 'active' };
    const others = [streamRecord(undefined, course), streamRecord(enrolment('active'), undefined)];
    for (const record of others) {
      expect(Object.values(wanted).some(({ wants }) => wants(record))).toBe(false);
      expect(passesFilters(record), JSON.stringify(record)).toBe(false);
    }
  });
});
