import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { enrolmentActivated } from '#functions/streams/session-invitations.ts';

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
