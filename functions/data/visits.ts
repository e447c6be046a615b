import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { VisitMarks } from '#core/ports.ts';
import { documentClient, tableName, writeIf } from '#data/table.ts';

/**
 * A visitor's mark (decision 0028; docs/data-model.md "Visit marks"), one item each:
 * pk VISIT#<mark>  sk VISIT   expiresAt (epoch seconds: DynamoDB's TTL removes it)
 * The mark is a hash of the day, the thing seen and the visitor (core/visits/visitor-key.ts): no address is stored.
 */
export const visitKey = (mark: string) => ({ pk: `VISIT#${mark}`, sk: 'VISIT' });

export const dynamoVisitMarks = (): VisitMarks => ({
  markFirst: (mark, expiresAt) =>
    writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...visitKey(mark), type: 'VisitMark', expiresAt: Math.ceil(expiresAt.getTime() / 1000) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    ),
});
