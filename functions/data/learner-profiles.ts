import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { LearnerProfileRepository, StoredLearnerProfile } from '#core/certificates/ports.ts';
import { documentClient, queryAll, tableName, writeIf } from '#data/table.ts';

/**
 * A learner's profile (issue 15; docs/data-model.md "Certificates"), one item beside their account's:
 * pk USER#<learnerId>  sk LEARNER_PROFILE   certificateName, updatedAt
 *   gsi3pk CERTS#RENAME  gsi3sk <updatedAt>#<learnerId>   while their certificates wait to be re-issued with the name
 *   (set by a save that changes it, removed by the issuing job once each valid certificate carries it).
 */
export const learnerProfileKey = (learnerId: string) => ({ pk: `USER#${learnerId}`, sk: 'LEARNER_PROFILE' });
const RENAME_DUE = 'CERTS#RENAME';

const profileItem = z
  .object({ learnerId: z.string(), certificateName: z.string().default(''), updatedAt: z.string(), gsi3pk: z.string().optional() })
  .transform(({ gsi3pk, ...profile }): StoredLearnerProfile => ({ ...profile, renaming: gsi3pk === RENAME_DUE }));

export const dynamoLearnerProfiles = (): LearnerProfileRepository => ({
  async get(learnerId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: learnerProfileKey(learnerId) }));
    return Item ? profileItem.parse(Item) : undefined;
  },

  async save({ learnerId, certificateName, updatedAt, rename }) {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: learnerProfileKey(learnerId),
        UpdateExpression: `SET #type = :type, learnerId = :id, certificateName = :name, updatedAt = :at${rename ? ', gsi3pk = :due, gsi3sk = :order' : ''}`,
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': 'LearnerProfile',
          ':id': learnerId,
          ':name': certificateName,
          ':at': updatedAt,
          ...(rename ? { ':due': RENAME_DUE, ':order': `${updatedAt}#${learnerId}` } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return profileItem.parse(Attributes);
  },

  async renamesDue(limit) {
    const items = await queryAll({ IndexName: 'gsi3', KeyConditionExpression: 'gsi3pk = :due', ExpressionAttributeValues: { ':due': RENAME_DUE } }, limit);
    return items.map((item) => profileItem.parse(item));
  },

  async clearRename(learnerId, updatedAt) {
    await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: learnerProfileKey(learnerId),
          UpdateExpression: 'REMOVE gsi3pk, gsi3sk',
          ConditionExpression: 'updatedAt = :at',
          ExpressionAttributeValues: { ':at': updatedAt },
        }),
      ),
    );
  },
});
