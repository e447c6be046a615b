import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { DELETED_USER_NAME } from '#contracts/account-deletion.ts';
import { membershipOfSource } from '#core/access/access.ts';
import { ACCOUNT_DELETION_STEPS, type AccountDeletion, type AccountDeletionRequests, type AccountDeletionStep, type AccountDeletionStore, type DeletedBuyerOrder, type DeletedLearnerEnrolment, type DeletedSubmissionUpload } from '#core/accounts/delete-account.ts';
import { adminStatsKeys } from '#data/admin-stats.ts';
import { affiliateKeys } from '#data/affiliates.ts';
import { auditPut } from '#data/audit.ts';
import { erasedDeltas } from '#core/billing/subscription-state.ts';
import { billingKeys, readSubscription } from '#data/billing.ts';
import { campaignKeys } from '#data/campaigns.ts';
import { certificateKeys } from '#data/certificates.ts';
import { commentKeys } from '#data/comments.ts';
import { countersUpdate } from '#data/counters.ts';
import { courseKeys } from '#data/courses.ts';
import { crmKeys } from '#data/crm.ts';
import { dripKeys } from '#data/drip.ts';
import { dynamoEnrollments, enrollmentKeys } from '#data/enrollments.ts';
import { licenseKeys } from '#data/licenses.ts';
import { sessionKeys } from '#data/live-sessions.ts';
import { membershipKeys } from '#data/memberships.ts';
import { couponKeys } from '#data/coupons.ts';
import { listOrdersByBuyer, orderKeys } from '#data/orders.ts';
import { sequenceKeys } from '#data/sequences.ts';
import { sessionMailKeys } from '#data/session-mail.ts';
import { dynamoCourseSubmissionRemoval, submissionKeys } from '#data/submissions.ts';
import { batchWrite, documentClient, queryAll, tableName, transact, writeIf } from '#data/table.ts';
import { supportKeys } from '#data/support.ts';
import { userKeys } from '#data/users.ts';

/**
 * Account deletion (issue 37 point 2; docs/privacy.md). The deletion item lives outside the person's partition (which
 * the run empties) and carries the run's step:
 *   pk ACCOUNTDELETION#<userId>  sk DELETION  {userId, email (until done), role, requestedAt, queuedAt?, step, doneAt?}
 * Everything is reached by key or through an index partition of the person's (their courses and the courses they
 * left, gsi2: what a course keeps about someone outlives their enrolment's removal; their submissions
 * in a course, gsi2; the orders they bought, gsi2 `BUYER#<email>`; a leader's licences, gsi2; the affiliate claims of
 * their email, gsi2) or of one of their creators (comments: gsi2 of `CREATOR#<id>`, kept to the person's own), never
 * by a table scan.
 */
export const deletionKeys = {
  deletion: (userId: string) => ({ pk: `ACCOUNTDELETION#${userId}`, sk: 'DELETION' }),
};

const deletionItem = z.object({
  userId: z.string(),
  email: z.string().optional(),
  role: z.enum(['admin', 'creator', 'leader', 'learner']),
  requestedAt: z.string(),
  queuedAt: z.string().optional(),
  step: z.enum(ACCOUNT_DELETION_STEPS),
});

/** Enrolments read per page while looking for an active one (the first page almost always has it). */
const ACTIVE_ENROLMENT_PAGE = 10;

const keyOf = (item: Record<string, unknown>) => ({ pk: String(item['pk']), sk: String(item['sk']) });

/** The request's writes: the profile's mark and the deletion item. */
export const dynamoAccountDeletionRequests = (): AccountDeletionRequests => ({
  async mark(user, at) {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: userKeys.profile(user.id),
        UpdateExpression: 'SET deletingAt = if_not_exists(deletingAt, :at)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: deletionKeys.deletion(user.id),
        UpdateExpression:
          'SET #type = :type, userId = :id, email = if_not_exists(email, :email), #role = if_not_exists(#role, :role), requestedAt = if_not_exists(requestedAt, :at), step = if_not_exists(step, :step)',
        ExpressionAttributeNames: { '#type': 'type', '#role': 'role' },
        ExpressionAttributeValues: { ':type': 'AccountDeletion', ':id': user.id, ':email': user.email, ':role': user.role, ':at': at, ':step': 'sign-in' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { requestedAt: String(Attributes?.['requestedAt'] ?? at), queued: Attributes?.['queuedAt'] !== undefined };
  },

  async requestedAt(userId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: deletionKeys.deletion(userId), ProjectionExpression: 'requestedAt' }));
    return typeof Item?.['requestedAt'] === 'string' ? Item['requestedAt'] : undefined;
  },

  async hasActiveEnrolment(courseId) {
    // Removed enrolments stay in the partition (their progress kept): pages of a few, filtered, until the first active.
    let start: Record<string, unknown> | undefined;
    do {
      const page = await documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          FilterExpression: '#status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':pk': courseKeys.course(courseId).pk, ':prefix': courseKeys.enrollmentPrefix, ':active': 'active' },
          ProjectionExpression: 'pk',
          ConsistentRead: true,
          Limit: ACTIVE_ENROLMENT_PAGE,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      if ((page.Items ?? []).length > 0) return true;
      start = page.LastEvaluatedKey;
    } while (start);
    return false;
  },

  async markQueued(userId) {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: deletionKeys.deletion(userId),
        UpdateExpression: 'SET queuedAt = if_not_exists(queuedAt, :at)',
        ExpressionAttributeValues: { ':at': new Date().toISOString() },
      }),
    );
  },
});

/** Deletes the items of one partition whose sort key begins with `prefix` (one Query, then batches of 25). */
const deletePrefix = async (pk: string, prefix: string): Promise<void> => {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
    ProjectionExpression: 'pk, sk',
  });
  await batchWrite(items.map((item) => ({ DeleteRequest: { Key: keyOf(item) } })));
};

/** An index partition's items that are the person's (the filter keeps the read to one partition; it never scans). */
const indexItemsOf = (index: string, partition: string, attribute: string, value: string): Promise<Record<string, unknown>[]> =>
  queryAll({
    IndexName: index,
    KeyConditionExpression: `${index}pk = :pk`,
    FilterExpression: '#a = :v',
    ExpressionAttributeNames: { '#a': attribute },
    ExpressionAttributeValues: { ':pk': partition, ':v': value },
  });

const update = (input: { Key: Record<string, string>; UpdateExpression: string; values?: Record<string, unknown>; names?: Record<string, string> }) =>
  writeIf(() =>
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: input.Key,
        UpdateExpression: input.UpdateExpression,
        ConditionExpression: 'attribute_exists(pk)',
        ...(input.names ? { ExpressionAttributeNames: input.names } : {}),
        ...(input.values ? { ExpressionAttributeValues: input.values } : {}),
      }),
    ),
  );

export const dynamoAccountDeletions = (): AccountDeletionStore => ({
  async get(userId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: deletionKeys.deletion(userId), ConsistentRead: true }));
    return Item ? (deletionItem.parse(Item) as AccountDeletion) : undefined;
  },

  async advance(userId, from: AccountDeletionStep, to: AccountDeletionStep) {
    await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: deletionKeys.deletion(userId),
          UpdateExpression: 'SET step = :to',
          ConditionExpression: 'step = :from',
          ExpressionAttributeValues: { ':from': from, ':to': to },
        }),
      ),
    );
  },

  async enrolments(userId, limit) {
    // The active ones first, then the courses they left: both partitions of gsi2 the enrolment moves between.
    for (const { gsi2pk } of [enrollmentKeys.byLearner(userId, ''), enrollmentKeys.left(userId, '')]) {
      const { Items = [] } = await documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk',
          ExpressionAttributeValues: { ':pk': gsi2pk },
          ProjectionExpression: 'courseId, creatorId',
          Limit: limit,
        }),
      );
      if (Items.length > 0) return Items.map((item): DeletedLearnerEnrolment => ({ courseId: String(item['courseId']), creatorId: String(item['creatorId']) }));
    }
    return [];
  },

  async submissionUploads(userId, courseId) {
    const uploads = await dynamoCourseSubmissionRemoval().learnerUploads(courseId, userId);
    return uploads.map(({ lessonId, id }): DeletedSubmissionUpload => ({ courseId, lessonId, learnerId: userId, id }));
  },

  async eraseEnrolment({ userId, email }, { courseId, creatorId }, pseudonym) {
    const coursePk = `COURSE#${courseId}`;
    const { Item: enrolment } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: enrollmentKeys.enrollment(courseId, userId), ConsistentRead: true }));
    // Their submissions (every one: gsi2, and the latest pointers for those written before it), then their partition in
    // the course: the pointers, the handed-in files' items (their bytes went first, core) and the pending count.
    const submitterPk = submissionKeys.pending(courseId, userId).pk;
    const submitted = await queryAll({
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :learner)',
      ExpressionAttributeValues: { ':pk': submissionKeys.ofCourse({ courseId, learnerId: userId, submittedAt: '', id: '' }).gsi2pk, ':learner': `${userId}#` },
      ProjectionExpression: 'pk',
    });
    const pointers = await queryAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': submitterPk, ':prefix': 'LESSON#' } });
    const submissionPks = new Set([
      ...submitted.map((item) => String(item['pk'])),
      ...pointers.filter((p) => typeof p['submissionId'] === 'string').map((p) => submissionKeys.submission(String(p['submissionId'])).pk),
    ]);
    await batchWrite([...submissionPks].map((pk) => ({ DeleteRequest: { Key: { pk, sk: 'SUBMISSION' } } })));
    await dynamoCourseSubmissionRemoval().removeLearnerRecords(courseId, userId);
    // The course's records about the person: quiz attempts and drip plan deleted, the certificate kept without the name.
    await deletePrefix(coursePk, `QUIZ#${userId}#`);
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: dripKeys.plan(courseId, userId) }));
    const { Item: guard } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: certificateKeys.guard(courseId, userId) }));
    if (typeof guard?.['certificateId'] === 'string') {
      await update({ Key: certificateKeys.certificate(guard['certificateId']), UpdateExpression: 'SET learnerName = :null, learnerEmail = :p', values: { ':null': null, ':p': pseudonym } });
    }
    // Their live-session invitation claims, one per session of the course (its sessions' listing, gsi2).
    const sessions = await queryAll({
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': sessionKeys.all({ courseId, startsAt: '', id: '' }).gsi2pk },
      ProjectionExpression: 'pk',
    });
    await batchWrite(sessions.map((session) => ({ DeleteRequest: { Key: { pk: String(session['pk']), sk: sessionMailKeys.claim('', userId).sk } } })));
    // Their entries in the creator's email sequences (each sequence's partition, by the course and the person).
    const sequences = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': sequenceKeys.held(creatorId).pk, ':prefix': 'SEQUENCE#' },
      ProjectionExpression: 'sk',
    });
    for (const sequence of sequences) {
      const sequenceId = String(sequence['sk']).slice('SEQUENCE#'.length);
      await deletePrefix(sequenceKeys.entry({ sequenceId, courseId, learnerId: userId, event: '' }).pk, `ENTRY#${courseId}#${userId}#`);
    }
    // The licence seat the enrolment came through: freed as a revoke frees it (seatsUsed -1 with the seat's delete, in
    // one transaction on the seat still active); a seat revoked before, or a licence gone, is deleted alone.
    if (typeof enrolment?.['licenseId'] === 'string') {
      const seat = licenseKeys.seat(enrolment['licenseId'], email);
      const cancelled = await transact([
        { Delete: { TableName: tableName(), Key: seat, ConditionExpression: '#status = :active', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':active': 'active' } } },
        {
          Update: {
            TableName: tableName(),
            Key: licenseKeys.license(enrolment['licenseId']),
            UpdateExpression: 'ADD seatsUsed :minus',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':minus': -1 },
          },
        },
      ]);
      if (cancelled) await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: seat }));
    }
    // The membership subscriptions its sources name, and every row of the creator's memberships (at most
    // MEMBERSHIPS_PER_CREATOR_MAX, their list in gsi1) bound to the person: a removal drops the sources (a membership
    // that ended, the creator's removal), and a source revoked while others remain is no longer named either. Kept
    // (money), the member's email the pseudonym.
    const sources = Array.isArray(enrolment?.['sources']) ? (enrolment['sources'] as unknown[]).filter((x): x is string => typeof x === 'string') : [];
    const members = sources.map(membershipOfSource).flatMap((member) => (member ? [membershipKeys.member(member.membershipId, member.subscriptionId)] : []));
    const memberships = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': membershipKeys.listed({ creatorId, createdAt: '', id: '' }).gsi1pk },
      ProjectionExpression: 'id',
    });
    for (const membership of memberships) {
      const bound = await queryAll({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :member)',
        FilterExpression: 'learnerId = :learner',
        ExpressionAttributeValues: { ':pk': membershipKeys.membership(String(membership['id'])).pk, ':member': 'MEMBER#', ':learner': userId },
        ProjectionExpression: 'pk, sk',
      });
      members.push(...bound.map(keyOf));
    }
    for (const Key of members) await update({ Key, UpdateExpression: 'SET email = :p', values: { ':p': pseudonym } });
    // The creator's CRM about them.
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: crmKeys.note(creatorId, userId) }));
    await deletePrefix(`CREATOR#${creatorId}`, crmKeys.timelinePrefix(userId));
    // Their comments to this creator: "Deleted user", the text kept (a thread's replies still read in order).
    for (const comment of await indexItemsOf('gsi2', commentKeys.byCreator(creatorId, '', '').gsi2pk, 'authorId', userId)) {
      await update({ Key: keyOf(comment), UpdateExpression: 'SET authorName = :name', values: { ':name': DELETED_USER_NAME } });
    }
    // The enrolment last: pseudonymised first (a kill after the removal leaves no email on it), removed through the
    // removal path (the course's and creator's counters; one removed before, a course they left, is left as it is),
    // then deleted: out of both the learner's courses and the courses they left.
    await update({ Key: { pk: coursePk, sk: `ENROLL#${userId}` }, UpdateExpression: 'SET learnerEmail = :p', values: { ':p': pseudonym } });
    await dynamoEnrollments().remove(courseId, userId);
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { pk: coursePk, sk: `ENROLL#${userId}` } }));
  },

  async buyerOrders(email, cursor, limit) {
    const page = await listOrdersByBuyer(email, cursor, limit);
    return {
      orders: page.items.map(
        (item): DeletedBuyerOrder => ({
          orderId: String(item['id']),
          creatorId: String(item['creatorId']),
          couponCode: typeof item['couponCode'] === 'string' && item['couponCode'] !== '' ? item['couponCode'] : null,
          pendingCheckout:
            item['status'] === 'pending' && typeof item['checkoutSessionId'] === 'string' && typeof item['accountId'] === 'string'
              ? { accountId: item['accountId'], sessionId: item['checkoutSessionId'] }
              : null,
        }),
      ),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  },

  async eraseOrder({ orderId, creatorId, couponCode }, email, pseudonym) {
    if (couponCode !== null) await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: couponKeys.use(creatorId, couponCode, email) }));
    await update({ Key: orderKeys.order(orderId), UpdateExpression: 'SET buyerEmail = :p REMOVE gsi2pk, gsi2sk', values: { ':p': pseudonym } });
  },

  async eraseRecords({ userId, email }, pseudonym) {
    // A leader's licences (their listing, gsi2): seats and amounts kept, the leader's email the pseudonym.
    const licences = await queryAll({
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': licenseKeys.byLeader({ leaderId: userId, createdAt: '', id: '' }).gsi2pk },
      ProjectionExpression: 'pk, sk',
    });
    for (const licence of licences) await update({ Key: keyOf(licence), UpdateExpression: 'SET leaderEmail = :p', values: { ':p': pseudonym } });
    // Every creator's affiliate of this email (the claims' gsi2): commissions and payouts stay with the affiliate, who
    // keeps no name and the pseudonym; the claim, keyed by the email, is deleted after (a rerun finds it until then).
    const claims = await queryAll({
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': affiliateKeys.byEmail(email, '').gsi2pk },
    });
    for (const claim of claims) {
      const creatorId = String(claim['creatorId']);
      await update({
        Key: affiliateKeys.affiliate(creatorId, String(claim['affiliateId'])),
        UpdateExpression: 'SET email = :p, #name = :name',
        names: { '#name': 'name' },
        values: { ':p': pseudonym, ':name': DELETED_USER_NAME },
      });
      await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: keyOf(claim) }));
    }
  },

  async eraseOwnItems(userId) {
    const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${userId}` } });
    // The Stripe customer's way back to them (webhooks), deleted before the customer item that names it.
    const customerId = items.find((item) => item['sk'] === billingKeys.customer(userId).sk)?.['customerId'];
    if (typeof customerId === 'string') await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: billingKeys.customerUser(customerId) }));
    // The subscription leaves the stats counters it was counted in, in the transaction that deletes it (no webhook
    // moves them after this: a plan event about a person being deleted writes nothing, handle-stripe-event.ts). On the
    // item as read: a change meanwhile is read again.
    for (let attempt = 0; attempt < 5; attempt++) {
      const subscription = await readSubscription(userId);
      if (!subscription) break;
      const cancelled = await transact([
        {
          Delete: {
            TableName: tableName(),
            Key: billingKeys.subscription(userId),
            ConditionExpression: 'updatedAt = :seen',
            ExpressionAttributeValues: { ':seen': subscription.updatedAt },
          },
        },
        ...countersUpdate(erasedDeltas(subscription)),
      ]);
      if (!cancelled) break;
    }
    // The admin dashboard's sign-up line names the email: keyed by the profile's createdAt and the id (admin-stats.ts).
    const createdAt = items.find((item) => item['sk'] === 'PROFILE')?.['createdAt'];
    if (typeof createdAt === 'string') await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: adminStatsKeys.activity(createdAt, userId) }));
    const slug = items.find((item) => item['sk'] === 'PUBLICPROFILE')?.['slug'];
    if (typeof slug === 'string') await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { pk: `CREATORSLUG#${slug}`, sk: 'CREATORSLUG' } }));
    // Their support requests (a creator's: their email, their messages and the replies to them), found through their
    // own listing of the inbox (gsi1 `CREATOR#<id>#SUPPORT`), deleted whole: a thread about them with them taken out is
    // nothing an admin can act on.
    const requests = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': supportKeys.byCreator(userId, '', '').gsi1pk },
      ProjectionExpression: 'pk, sk',
    });
    await batchWrite(requests.map((item) => ({ DeleteRequest: { Key: keyOf(item) } })));
    // The profile is the last step's (with its audit line); the credit ledger's rows are money records and stay.
    const erased = items.filter((item) => item['sk'] !== 'PROFILE' && !String(item['sk']).startsWith('CREDITTX#'));
    await batchWrite(erased.map((item) => ({ DeleteRequest: { Key: keyOf(item) } })));
  },

  async releaseEmail(email, at) {
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: userKeys.email(email) }));
    // Kept on purpose: they get no marketing again; an earlier reason (unsubscribed, bounced) stays as it was.
    await writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...campaignKeys.suppression(email), email: email.toLowerCase(), reason: 'deleted', at },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  },

  async deleteProfile(userId, role, audit) {
    const cancelled = await transact([
      { Delete: { TableName: tableName(), Key: userKeys.profile(userId), ConditionExpression: 'attribute_exists(pk)' } },
      ...countersUpdate({ usersTotal: -1, [`users_${role}`]: -1 }),
      auditPut(audit),
    ]);
    return cancelled === undefined;
  },

  async finish(userId, at) {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: deletionKeys.deletion(userId),
        UpdateExpression: 'SET step = :done, doneAt = if_not_exists(doneAt, :at) REMOVE email',
        ExpressionAttributeValues: { ':done': 'done', ':at': at },
      }),
    );
  },
});

/**
 * Whether the person asked for their account to be deleted: the deletion item, written at the request and kept after
 * the run (its email dropped). The Stripe webhook asks it before writing a plan's items (handle-stripe-event.ts).
 */
export const accountDeletionRequested = async (userId: string): Promise<boolean> => {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: deletionKeys.deletion(userId), ProjectionExpression: 'pk', ConsistentRead: true }));
  return Item !== undefined;
};
