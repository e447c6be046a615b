import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { memberStatuses } from '#contracts/memberships.ts';
import type { MembershipRepository, StoredMember, StoredMembership } from '#core/ports.ts';
import { decodeCursor, documentClient, encodeCursor, queryAll, tableName, writeIf } from '#data/table.ts';

/**
 * Creators' memberships and their members' subscriptions (issue 34 point 2; docs/api.md "Memberships").
 * Membership: pk MEMBERSHIP#<membershipId>  sk MEMBERSHIP   read by its id alone (the public page and its checkout)
 *             gsi1pk CREATOR#<creatorId>#MEMBERSHIPS  gsi1sk <createdAt>#<id>   the creator's list, newest first
 * Member:     pk MEMBERSHIP#<membershipId>  sk MEMBER#<subscriptionId>   one subscription: its status and period as
 *             its newest event said (`eventKey`), the buyer's email and account once the checkout said them; the
 *             members list is this partition a page at a time. The access module reads one row by its key (the
 *             learner's enrolment names it in its `sources`), so access is a consistent read.
 */
export const membershipKeys = {
  membership: (membershipId: string) => ({ pk: `MEMBERSHIP#${membershipId}`, sk: 'MEMBERSHIP' }),
  listed: (m: Pick<StoredMembership, 'creatorId' | 'createdAt' | 'id'>) => ({ gsi1pk: `CREATOR#${m.creatorId}#MEMBERSHIPS`, gsi1sk: `${m.createdAt}#${m.id}` }),
  member: (membershipId: string, subscriptionId: string) => ({ pk: `MEMBERSHIP#${membershipId}`, sk: `MEMBER#${subscriptionId}` }),
};
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

  // Newer-or-equal replaces (a redelivery writes the same values again); a deleted subscription stays deleted.
  applyState: ({ membershipId, subscriptionId, identity, state, eventKey }) =>
    writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: membershipKeys.member(membershipId, subscriptionId),
          UpdateExpression: `${memberIdentitySet}, #status = :status, currentPeriodEnd = :periodEnd, cancelAtPeriodEnd = :cancelling, customerId = :customer, eventKey = :key`,
          ConditionExpression: '(attribute_not_exists(eventKey) OR eventKey <= :key) AND (attribute_not_exists(#status) OR #status <> :canceled)',
          ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
          ExpressionAttributeValues: {
            ...memberIdentityValues(membershipId, subscriptionId, identity),
            ':status': state.status,
            ':periodEnd': state.currentPeriodEnd,
            ':cancelling': state.cancelAtPeriodEnd,
            ':customer': state.customerId,
            ':key': eventKey,
            ':canceled': 'canceled',
          },
        }),
      ),
    ),

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
