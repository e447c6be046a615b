import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { CHURN_WINDOW_DAYS, isPayingStatus, memberStatuses, type MemberStatus } from '#contracts/memberships.ts';
import type { MembershipRepository, StoredMember, StoredMembership } from '#core/ports.ts';
import { addUpdate, decodeCursor, documentClient, encodeCursor, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * Creators' memberships and their members' subscriptions (issue 34 point 2; docs/api.md "Memberships").
 * Membership: pk MEMBERSHIP#<membershipId>  sk MEMBERSHIP   read by its id alone (the public page and its checkout)
 *             gsi1pk CREATOR#<creatorId>#MEMBERSHIPS  gsi1sk <createdAt>#<id>   the creator's list, newest first
 * Member:     pk MEMBERSHIP#<membershipId>  sk MEMBER#<subscriptionId>   one subscription: its status and period as
 *             its newest event said (`eventKey`), the buyer's email and account once the checkout said them; the
 *             members list is this partition a page at a time. The access module reads one row by its key (the
 *             learner's enrolment names it in its `sources`), so access is a consistent read.
 * Figures:    pk MEMBERSHIP#<membershipId>  sk FIGURES   `paying`: how many subscriptions pay now;
 *             pk MEMBERSHIP#<membershipId>  sk ENDED#<YYYY-MM-DD>   `ended`: how many ended that day (TTL after the
 *             churn window). Both ADDed in the transaction that moves a member row in or out of paying, or ends it, so
 *             the creator's MRR and churn are two reads (an item and at most 30 days' items), whatever the members.
 */
export const membershipKeys = {
  membership: (membershipId: string) => ({ pk: `MEMBERSHIP#${membershipId}`, sk: 'MEMBERSHIP' }),
  listed: (m: Pick<StoredMembership, 'creatorId' | 'createdAt' | 'id'>) => ({ gsi1pk: `CREATOR#${m.creatorId}#MEMBERSHIPS`, gsi1sk: `${m.createdAt}#${m.id}` }),
  member: (membershipId: string, subscriptionId: string) => ({ pk: `MEMBERSHIP#${membershipId}`, sk: `MEMBER#${subscriptionId}` }),
  /** How many of its subscriptions pay now (`paying`), ADDed by applyState. */
  figures: (membershipId: string) => ({ pk: `MEMBERSHIP#${membershipId}`, sk: 'FIGURES' }),
  /** How many of its subscriptions ended that day (`ended`), ADDed by applyState; gone by TTL after the churn window. */
  ended: (membershipId: string, day: string) => ({ pk: `MEMBERSHIP#${membershipId}`, sk: `${ENDED_PREFIX}${day}` }),
};
const ENDED_PREFIX = 'ENDED#';
/** An ended-day count outlives the churn window a little (TTL acts within days). */
const ENDED_TTL_SECONDS = (CHURN_WINDOW_DAYS + 10) * 24 * 60 * 60;
const MEMBER_PREFIX = 'MEMBER#';

const membershipItem = z.object({
  id: z.string(),
  creatorId: z.string(),
  title: z.string(),
  description: z.string(),
  interval: z.enum(['month', 'year']),
  priceAmount: z.number().int(),
  courseIds: z.union([z.literal('all'), z.array(z.string())]),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const toMembership = (item: unknown): StoredMembership => membershipItem.parse(item);

const memberItem = z.object({
  membershipId: z.string(),
  creatorId: z.string(),
  subscriptionId: z.string(),
  accountId: z.string(),
  customerId: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
  learnerId: z.string().nullable().default(null),
  status: z.enum(memberStatuses).default('incomplete'),
  currentPeriodEnd: z.string().nullable().default(null),
  cancelAtPeriodEnd: z.boolean().default(false),
  eventKey: z.number().default(0),
  createdAt: z.string(),
});
const toMember = (item: unknown): StoredMember => memberItem.parse(item);

/**
 * What makes a member row, whichever of its writes comes first (the subscription's event or the buyer's binding): the
 * keys' copies, and the creator, account and first time kept from the first write.
 */
const memberIdentitySet =
  'SET #type = :type, membershipId = :membership, subscriptionId = :subscription, creatorId = if_not_exists(creatorId, :creator), ' +
  'accountId = if_not_exists(accountId, :account), createdAt = if_not_exists(createdAt, :createdAt)';
const memberIdentityValues = (membershipId: string, subscriptionId: string, identity: Pick<StoredMember, 'creatorId' | 'accountId' | 'createdAt'>) => ({
  ':type': 'Member',
  ':membership': membershipId,
  ':subscription': subscriptionId,
  ':creator': identity.creatorId,
  ':account': identity.accountId,
  ':createdAt': identity.createdAt,
});

const conditionFailed = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

export const dynamoMemberships = (): MembershipRepository => ({
  async get(membershipId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: membershipKeys.membership(membershipId), ConsistentRead: true }));
    return Item ? toMembership(Item) : undefined;
  },

  async listByCreator(creatorId) {
    const items = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': membershipKeys.listed({ creatorId, createdAt: '', id: '' }).gsi1pk },
      ScanIndexForward: false,
    });
    return items.map(toMembership);
  },

  create: (membership) =>
    writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...membershipKeys.membership(membership.id), type: 'Membership', ...membership, ...membershipKeys.listed(membership) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    ),

  async update(creatorId, membershipId, changes) {
    const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: membershipKeys.membership(membershipId),
          UpdateExpression: `SET ${fields.map(([name]) => `#${name} = :${name}`).join(', ')}`,
          ConditionExpression: 'creatorId = :creator',
          ExpressionAttributeNames: Object.fromEntries(fields.map(([name]) => [`#${name}`, name])),
          ExpressionAttributeValues: { ':creator': creatorId, ...Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])) },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toMembership(Attributes);
    } catch (error) {
      if (conditionFailed(error)) return undefined;
      throw error;
    }
  },

  delete: (creatorId, membershipId) =>
    writeIf(() =>
      documentClient().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: membershipKeys.membership(membershipId),
          ConditionExpression: 'creatorId = :creator',
          ExpressionAttributeValues: { ':creator': creatorId },
        }),
      ),
    ),

  async member(membershipId, subscriptionId) {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: membershipKeys.member(membershipId, subscriptionId), ConsistentRead: true }),
    );
    return Item ? toMember(Item) : undefined;
  },

  async members(membershipId, { cursor, limit }) {
    const pk = membershipKeys.membership(membershipId).pk;
    const { Items = [], LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :member)',
        ExpressionAttributeValues: { ':pk': pk, ':member': MEMBER_PREFIX },
        Limit: limit,
        ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, { pk }, { name: 'sk', prefix: MEMBER_PREFIX }) } : {}),
      }),
    );
    return { items: Items.map(toMember), nextCursor: encodeCursor(LastEvaluatedKey) ?? null };
  },

  async membersOfLearner(membershipId, learnerId) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :member)',
      FilterExpression: 'learnerId = :learner',
      ExpressionAttributeValues: { ':pk': membershipKeys.membership(membershipId).pk, ':member': MEMBER_PREFIX, ':learner': learnerId },
      ConsistentRead: true,
    });
    return items.map(toMember);
  },

  // Newer-or-equal replaces (a redelivery writes the same values again); a deleted subscription stays deleted. The row
  // is read first and written only as it was read (else read again): its move in and out of paying, and its end, go
  // to the membership's figures in the same transaction, once.
  async applyState({ membershipId, subscriptionId, identity, state, eventKey }) {
    const key = membershipKeys.member(membershipId, subscriptionId);
    for (let attempt = 1; ; attempt++) {
      const { Item: before } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
      const was = { status: before?.['status'] as MemberStatus | undefined, eventKey: before?.['eventKey'] as number | undefined };
      if ((was.eventKey ?? 0) > eventKey || was.status === 'canceled') return false;
      const paying = Number(isPayingStatus(state.status)) - Number(was.status !== undefined && isPayingStatus(was.status));
      const endedDay = state.status === 'canceled' ? (state.currentPeriodEnd ?? new Date().toISOString()).slice(0, 10) : undefined;
      const asRead = before
        ? [
            was.eventKey === undefined ? 'attribute_not_exists(eventKey)' : 'eventKey = :wasKey',
            was.status === undefined ? 'attribute_not_exists(#status)' : '#status = :wasStatus',
          ].join(' AND ')
        : 'attribute_not_exists(pk)';
      const cancelled = await transact([
        {
          Update: {
            TableName: tableName(),
            Key: key,
            UpdateExpression: `${memberIdentitySet}, #status = :status, currentPeriodEnd = :periodEnd, cancelAtPeriodEnd = :cancelling, customerId = :customer, eventKey = :key`,
            ConditionExpression: asRead,
            ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
            ExpressionAttributeValues: {
              ...memberIdentityValues(membershipId, subscriptionId, identity),
              ':status': state.status,
              ':periodEnd': state.currentPeriodEnd,
              ':cancelling': state.cancelAtPeriodEnd,
              ':customer': state.customerId,
              ':key': eventKey,
              ...(was.eventKey === undefined ? {} : { ':wasKey': was.eventKey }),
              ...(was.status === undefined ? {} : { ':wasStatus': was.status }),
            },
          },
        },
        ...(paying !== 0 ? [addUpdate(membershipKeys.figures(membershipId), { paying }, { type: 'MembershipFigures' })] : []),
        ...(endedDay
          ? [addUpdate(membershipKeys.ended(membershipId, endedDay), { ended: 1 }, { type: 'MembershipEnded', set: { expiresAt: Math.floor(Date.parse(endedDay) / 1000) + ENDED_TTL_SECONDS } })]
          : []),
      ]);
      if (!cancelled) return true;
      // Another event (or the buyer's binding) changed the row since it was read: read it again.
      if (attempt >= 5) throw new Error(`the member row of subscription ${subscriptionId} kept changing`);
    }
  },

  async figures(membershipId, sinceDay) {
    const { pk } = membershipKeys.membership(membershipId);
    const [{ Item }, ended] = await Promise.all([
      documentClient().send(new GetCommand({ TableName: tableName(), Key: membershipKeys.figures(membershipId), ConsistentRead: true })),
      queryAll({
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': membershipKeys.ended(membershipId, sinceDay).sk, ':to': `${ENDED_PREFIX}~` },
      }),
    ]);
    return { paying: Number(Item?.['paying'] ?? 0), ended: ended.reduce((sum, day) => sum + Number(day['ended'] ?? 0), 0) };
  },

  async bindLearner({ membershipId, subscriptionId, identity, email, learnerId }) {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: membershipKeys.member(membershipId, subscriptionId),
        UpdateExpression: `${memberIdentitySet}, email = :email, learnerId = :learner`,
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ...memberIdentityValues(membershipId, subscriptionId, identity),
          ':email': email,
          ':learner': learnerId,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toMember(Attributes);
  },
});
