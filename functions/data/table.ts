import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
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

/** The cancellation code of each item of a failed transaction ('None', 'ConditionalCheckFailed', ...), in order. */
export const cancellationCodes = (error: unknown): string[] | undefined =>
  (error as { name?: string })?.name === 'TransactionCanceledException'
    ? ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code ?? 'None')
    : undefined;

const CONFLICT_ATTEMPTS = 25;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one way to write a transaction: TransactWriteItems that retries while it only collided with another
 * transaction on the same items (TransactionConflict, which the SDK does not retry), with jittered backoff. A failed
 * condition is an answer, not an error: it is returned as the per-item codes for the caller to read. Any other
 * cancellation throws. Success returns undefined.
 */
export const transact = async (items: NonNullable<TransactWriteCommandInput['TransactItems']>): Promise<string[] | undefined> => {
  for (let attempt = 1; ; attempt++) {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
      return undefined;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (!codes) throw error;
      if (codes.includes('ConditionalCheckFailed')) return codes;
      if (!codes.includes('TransactionConflict') || attempt >= CONFLICT_ATTEMPTS) throw error;
      await sleep(Math.random() * Math.min(200, 5 * 2 ** attempt));
    }
  }
};
