import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { batchSessionMailDeps, enrolmentActivated } from '#functions/streams/reactions/session-invitations.ts';
import type { SessionMailDeps } from '#core/live-sessions/invitations.ts';
import { runReactions } from '#functions/streams/reactions.ts';
import type { Reaction } from '#functions/streams/reactions/reaction.ts';
import type { ScopedLog } from '#middleware/logger.ts';

const enrolment = (status: 'active' | 'removed', over: Record<string, unknown> = {}) => ({
  pk: 'COURSE#course-1',
  sk: 'ENROLL#l1',
  courseId: 'course-1',
  learnerId: 'l1',
  learnerEmail: 'l1@example.com',
  status,
  progress: 0,
  ...over,
});

const image = (item: Record<string, unknown>) => marshall(item) as Record<string, AttributeValue>;
const record = (before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): DynamoDBRecord =>
  ({ eventName: before ? (after ? 'MODIFY' : 'REMOVE') : 'INSERT', dynamodb: { ...(before ? { OldImage: image(before) } : {}), ...(after ? { NewImage: image(after) } : {}) } }) as DynamoDBRecord;

describe("the stream's late enrolees (issue 30)", () => {
  it('sees an enrolment made active, or restored, as a learner to invite', () => {
    const learner = { courseId: 'course-1', learnerId: 'l1', email: 'l1@example.com' };
    expect(enrolmentActivated(record(undefined, enrolment('active')))).toEqual(learner);
    expect(enrolmentActivated(record(enrolment('removed'), enrolment('active')))).toEqual(learner);
  });

  it('ignores progress on an active enrolment, a removal, and every other item', () => {
    expect(enrolmentActivated(record(enrolment('active'), enrolment('active', { progress: 50 })))).toBeUndefined();
    expect(enrolmentActivated(record(enrolment('active'), enrolment('removed')))).toBeUndefined();
    expect(enrolmentActivated(record(enrolment('active'), undefined))).toBeUndefined();
    expect(enrolmentActivated(record(undefined, { pk: 'SESSION#s1', sk: 'MAIL#l1', status: 'active', courseId: 'c', learnerId: 'l1', learnerEmail: 'x' }))).toBeUndefined();
  });
});

describe("the stream's reactions (decision 0050)", () => {
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as ScopedLog;
  const numbered = (n: number) => ({ eventName: 'INSERT', dynamodb: { SequenceNumber: String(n) } }) as DynamoDBRecord;
  const recorder = (name: string, seen: string[], failOn?: string): Reaction<{ count: number }> => ({
    name,
    startBatch: () => ({ count: 0 }),
    onRecord: async (batch, record) => {
      if (record.dynamodb?.SequenceNumber === failOn) throw new Error('down');
      batch.count += 1;
      seen.push(`${name}:${record.dynamodb?.SequenceNumber}`);
    },
    endBatch: async (batch) => {
      seen.push(`${name}:end:${batch.count}`);
    },
  });

  it('gives every record to every reaction in order, then ends each batch once', async () => {
    const seen: string[] = [];
    const answer = await runReactions([recorder('a', seen), recorder('b', seen)], { Records: [numbered(1), numbered(2)] }, log);
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(seen).toEqual(['a:1', 'b:1', 'a:2', 'b:2', 'a:end:2', 'b:end:2']);
  });

  it('shows a reaction the whole batch ahead of its records (to start their work side by side)', async () => {
    const seen: string[] = [];
    const ahead: Reaction<{ count: number }> = { ...recorder('a', seen), ahead: (_batch, records) => void seen.push(`a:ahead:${records.length}`) };
    await runReactions([ahead, recorder('b', seen)], { Records: [numbered(1), numbered(2)] }, log);
    expect(seen).toEqual(['a:ahead:2', 'a:1', 'b:1', 'a:2', 'b:2', 'a:end:2', 'b:end:2']);
  });

  it('reports the first failing record, leaves the later ones for the retry, and still ends what went through', async () => {
    const seen: string[] = [];
    const answer = await runReactions([recorder('a', seen), recorder('b', seen, '2')], { Records: [numbered(1), numbered(2), numbered(3)] }, log);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
    expect(seen).toEqual(['a:1', 'b:1', 'a:2', 'a:end:2', 'b:end:1']);
  });
});

describe('the late enrolees of one batch (issue 30, decision 0050)', () => {
  it("read a course's upcoming sessions and title once per batch, however many of its learners enrolled", async () => {
    const reads: string[] = [];
    const deps = {
      store: {
        upcoming: async (courseId: string) => (reads.push(`upcoming:${courseId}`), []),
        courseTitle: async (courseId: string) => (reads.push(`title:${courseId}`), 'Bread'),
      },
      clock: { now: () => new Date('2026-11-28T06:00:00Z') },
    } as unknown as SessionMailDeps;
    const batch = batchSessionMailDeps(deps);
    await Promise.all(['c1', 'c1', 'c2', 'c1'].map((courseId) => batch.store.upcoming(courseId, 'ignored')));
    await batch.store.courseTitle('c1');
    await batch.store.courseTitle('c1');
    expect(reads).toEqual(['upcoming:c1', 'upcoming:c2', 'title:c1']);
  });

  it('reads again after a failed read (the retry of the record must not see the failure)', async () => {
    let calls = 0;
    const deps = {
      store: { upcoming: async () => (++calls === 1 ? Promise.reject(new Error('throttled')) : []), courseTitle: async () => 'Bread' },
      clock: { now: () => new Date('2026-11-28T06:00:00Z') },
    } as unknown as SessionMailDeps;
    const batch = batchSessionMailDeps(deps);
    await expect(batch.store.upcoming('c1', 'x')).rejects.toThrow('throttled');
    await expect(batch.store.upcoming('c1', 'x')).resolves.toEqual([]);
    expect(calls).toBe(2);
  });
});
