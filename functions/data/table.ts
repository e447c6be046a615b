import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';

/** One document client per process (module scope, created on first use). */
let client: DynamoDBDocumentClient | undefined;

export const documentClient = (): DynamoDBDocumentClient => {
  if (!client) {
    const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
    client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region: AWS_REGION, ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT } : {}) }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
  }
  return client;
};

export const tableName = (): string => config().TABLE_NAME;

/** Tests point the functions at another table between runs. */
export const resetDocumentClient = (): void => {
  client = undefined;
};

/** True when a transaction failed because one of its conditions did not hold (not a throttle or a conflict). */
export const isConditionFailure = (error: unknown): boolean => {
  if ((error as { name?: string })?.name === 'TransactionCanceledException') {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return reasons.some((r) => r.Code === 'ConditionalCheckFailed');
  }
  return (error as { name?: string })?.name === 'ConditionalCheckFailedException';
};
