import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { BundleRepository, StoredBundle } from '#core/ports.ts';
import { documentClient, queryAll, tableName, writeIf } from '#data/table.ts';

/**
 * creators' bundles of courses (issue 34; docs/data-model.md "Course sales").
 * Bundle:      pk BUNDLE#<bundleId>  sk BUNDLE      title, description, courseIds, priceAmount, active: read by its id
 *                                                   alone (the public page and its checkout know no creator)
 *              gsi1pk CREATOR#<creatorId>#BUNDLES  gsi1sk <createdAt>#<bundleId>   the creator's list, newest first
 *              (a creator has at most BUNDLES_PER_CREATOR_MAX: read whole)
 * A bundle's order is an order (data/orders.ts) that names it (`bundleId`) and its courses as bought (`courseIds`);
 * the enrolments it gave name the order in their `sources` (data/enrollments.ts).
 */
export const bundleKeys = {
  bundle: (bundleId: string) => ({ pk: `BUNDLE#${bundleId}`, sk: 'BUNDLE' }),
  listed: (b: Pick<StoredBundle, 'creatorId' | 'createdAt' | 'id'>) => ({ gsi1pk: `CREATOR#${b.creatorId}#BUNDLES`, gsi1sk: `${b.createdAt}#${b.id}` }),
};

const bundleItem = z.object({
  id: z.string(),
  creatorId: z.string(),
  title: z.string(),
  description: z.string(),
  courseIds: z.array(z.string()),
  priceAmount: z.number().int(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const toBundle = (item: unknown): StoredBundle => bundleItem.parse(item);

const conditionFailed = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

export const dynamoBundles = (): BundleRepository => ({
  async get(bundleId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: bundleKeys.bundle(bundleId), ConsistentRead: true }));
    return Item ? toBundle(Item) : undefined;
  },

  async listByCreator(creatorId) {
    const items = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': bundleKeys.listed({ creatorId, createdAt: '', id: '' }).gsi1pk },
      ScanIndexForward: false,
    });
    return items.map(toBundle);
  },

  create: (bundle) =>
    writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...bundleKeys.bundle(bundle.id), type: 'Bundle', ...bundle, ...bundleKeys.listed(bundle) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    ),

  async update(creatorId, bundleId, changes) {
    const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (fields.length === 0) {
      const found = await this.get(bundleId);
      return found?.creatorId === creatorId ? found : undefined;
    }
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: bundleKeys.bundle(bundleId),
          UpdateExpression: `SET ${fields.map(([name]) => `#${name} = :${name}`).join(', ')}`,
          ConditionExpression: 'creatorId = :creator',
          ExpressionAttributeNames: Object.fromEntries(fields.map(([name]) => [`#${name}`, name])),
          ExpressionAttributeValues: { ':creator': creatorId, ...Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])) },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toBundle(Attributes);
    } catch (error) {
      if (conditionFailed(error)) return undefined;
      throw error;
    }
  },

  delete: (creatorId, bundleId) =>
    writeIf(() =>
      documentClient().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: bundleKeys.bundle(bundleId),
          ConditionExpression: 'creatorId = :creator',
          ExpressionAttributeValues: { ':creator': creatorId },
        }),
      ),
    ),
});
