import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import { lessonRelease } from '#contracts/courses.ts';
import { nextNoticeAt } from '#core/enrollments/drip.ts';
import type { DripPlan, DripRules } from '#core/enrollments/drip-notices.ts';
import { documentClient, tableName, writeIf } from '#data/table.ts';

/**
 * Drip release (issue 33 part 1; docs/data-model.md "Drip plans", docs/decisions/0057-drip-release.md).
 * Drip plan:  pk COURSE#<courseId>  sk DRIP#<learnerId>  type 'DripPlan', courseId, learnerId, noticed (lesson ids whose
 *             "ready" email was queued, in the same transaction as the email), dueAt? (the next opening not noticed)
 *             gsi3pk DRIP#DUE  gsi3sk <dueAt>#<courseId>#<learnerId>   while an opening is due (sparse): the
 *                                                                       'drip-due' job reads `<= now`
 *             One per enrolment of a course with drip lessons (none otherwise); in the course's partition, so a deleted
 *             course's run removes them with the rest (removeDeletedCourseBatch).
 * Drip rules: pk COURSE#<courseId>  sk DRIP  rev, lessons [{id, release}] (the non-immediate lessons), rebuilt with the
 *             outline (data/courses.ts rebuildOutline, under the same rev); absent for a course without drip lessons:
 *             what a new enrolment reads (one small GetItem) to plan its first notice.
 */
export const dripKeys = {
  plan: (courseId: string, learnerId: string) => ({ pk: `COURSE#${courseId}`, sk: `DRIP#${learnerId}` }),
  rules: (courseId: string) => ({ pk: `COURSE#${courseId}`, sk: 'DRIP' }),
  due: (courseId: string, learnerId: string, dueAt: string) => ({ gsi3pk: DUE, gsi3sk: `${dueAt}#${courseId}#${learnerId}` }),
};

export const DRIP_DUE = 'DRIP#DUE';
const DUE = DRIP_DUE;

const planItem = z.object({ courseId: z.string(), learnerId: z.string(), noticed: z.array(z.string()).default([]), dueAt: isoDate.optional() });
export const toPlan = (item: Record<string, unknown>): DripPlan => {
  const { dueAt, ...plan } = planItem.parse(item);
  return { ...plan, ...(dueAt !== undefined ? { dueAt } : {}) };
};

/** The course's drip rules (eventually consistent; [] for a course without drip lessons). */
export const readDripRules = async (courseId: string): Promise<DripRules> => {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: dripKeys.rules(courseId) }));
  return Item ? z.array(z.object({ id: z.string(), release: lessonRelease })).parse(Item['lessons']) : [];
};

/** The SET / REMOVE of a plan's due time and index keys. */
export const dueParts = (courseId: string, learnerId: string, dueAt: string | undefined) =>
  dueAt === undefined
    ? { set: '', remove: ' REMOVE dueAt, gsi3pk, gsi3sk', values: {} }
    : { set: ', dueAt = :dueAt, gsi3pk = :duePk, gsi3sk = :dueSk', remove: '', values: { ':dueAt': dueAt, ':duePk': DUE, ':dueSk': dripKeys.due(courseId, learnerId, dueAt).gsi3sk } };

/** `noticed` still what `before` read (its length: it only grows). */
const noticedAsRead = (before: DripPlan | undefined) =>
  before === undefined
    ? { condition: 'attribute_not_exists(pk)', values: {} }
    : { condition: 'attribute_exists(pk) AND size(noticed) = :seen', values: { ':seen': before.noticed.length } };

/** A plan's due time set (made with nothing noticed when there is none): the one write a new enrolment adds. */
export const scheduleDrip = async (courseId: string, learnerId: string, dueAt: string | undefined, before?: DripPlan): Promise<'saved' | 'changed'> => {
  const due = dueParts(courseId, learnerId, dueAt);
  const guard = before === undefined ? undefined : noticedAsRead(before);
  const saved = await writeIf(() =>
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: dripKeys.plan(courseId, learnerId),
        UpdateExpression: `SET #type = :type, courseId = :course, learnerId = :learner, noticed = if_not_exists(noticed, :none)${due.set}${due.remove}`,
        ...(guard ? { ConditionExpression: guard.condition } : {}),
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': 'DripPlan', ':course': courseId, ':learner': learnerId, ':none': [], ...due.values, ...guard?.values },
      }),
    ),
  );
  return saved ? 'saved' : 'changed';
};

/**
 * A new or restored enrolment's plan, written BEFORE the enrolment (data/enrollments.ts enroll): its first notice due
 * under the course's drip rules (nothing written for a course without drip lessons). A plan whose enrolment never came
 * (the write failed, the course went) is dropped by the first sweep that finds no active enrolment: no notice is lost
 * to a crash between the two writes, and none goes to someone not enrolled.
 */
export const planEnrollmentDrip = async (courseId: string, learnerId: string, enrolledAt: string): Promise<void> => {
  const dueAt = nextNoticeAt(await readDripRules(courseId), enrolledAt, []);
  if (dueAt !== undefined) await scheduleDrip(courseId, learnerId, dueAt);
};
