import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DripPlanStore } from '#core/enrollments/drip-notices.ts';
import { dripKeys, DRIP_DUE, dueParts, scheduleDrip, toPlan } from '#data/drip.ts';
import { enrollmentDripPage } from '#data/enrollments.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { documentClient, dueIndexPage, tableName, transact } from '#data/table.ts';

/**
 * The drip plans as the 'drip-due' job and the 'drip-changed' runs use them (data/drip.ts keeps the items' shape): the
 * due index a page at a time, a plan read consistently, its due time moved, and its notices queued exactly once.
 */
export const dynamoDripPlans = (): DripPlanStore => ({
  async due(now, limit, after) {
    const page = await dueIndexPage(DRIP_DUE, now, limit, after ? { cursor: after, pkPrefix: 'COURSE#' } : undefined);
    return { items: page.items.map(toPlan), nextCursor: page.nextCursor };
  },

  async get(courseId, learnerId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: dripKeys.plan(courseId, learnerId), ConsistentRead: true }));
    return Item ? toPlan(Item) : undefined;
  },

  schedule: scheduleDrip,

  async notice(plan, lessonIds, dueAt, mails) {
    const due = dueParts(plan.courseId, plan.learnerId, dueAt);
    const fresh = lessonIds.map((_, i) => `NOT contains(noticed, :l${i})`).join(' AND ');
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: dripKeys.plan(plan.courseId, plan.learnerId),
          UpdateExpression: `SET noticed = list_append(noticed, :new)${due.set}${due.remove}`,
          // Exactly once: none of these lessons noticed yet (by a run before, or at the same moment).
          ConditionExpression: `attribute_exists(pk) AND ${fresh}`,
          ExpressionAttributeValues: { ':new': [...lessonIds], ...Object.fromEntries(lessonIds.map((id, i) => [`:l${i}`, id])), ...due.values },
        },
      },
      ...mails.map(mailQueuePut),
    ]);
    return cancelled ? 'changed' : 'saved';
  },

  enrollments: enrollmentDripPage,
});
