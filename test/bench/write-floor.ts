import { Agent } from 'node:http';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { keepInFlight, percentile } from './stats.ts';

export interface WriteFloor {
  p50: number;
  p99: number;
  requestsPerSecond: number;
  errors: number;
}

/**
 * The write floor: raw conditional PutItems of new items (the cheapest write the money routes make: the webhook's
 * event record) kept `inFlight` deep, with a client configured like the handlers'. DynamoDB Local keeps its
 * table in SQLite on disk, where a write costs several times a read and writes queue behind each other (on this
 * 2-core machine: ~14 ms for one PutItem alone, a few hundred ms each at 50 in flight). Every money route writes,
 * so this, not the GetItem floor, is what its latency is to be read against.
 */
export const measureWriteFloor = async (cloud: LocalCloud, inFlight: number, seconds: number): Promise<WriteFloor> => {
  const { outputs } = cloud;
  const client = new DynamoDBClient({
    region: outputs.Region,
    endpoint: outputs.DynamoDbEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestHandler: new NodeHttpHandler({ httpAgent: new Agent({ keepAlive: true, maxSockets: inFlight }) }),
  });
  let next = 0;
  const put = () =>
    client.send(
      new PutItemCommand({
        TableName: outputs.TableName,
        // A key space of its own: nothing the product reads, in a table the bench throws away.
        Item: { pk: { S: `BENCHFLOOR#${next++}` }, sk: { S: 'FLOOR' }, type: { S: 'BenchFloor' } },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  try {
    const { times, errors, seconds: elapsed } = await keepInFlight(put, seconds, inFlight);
    return { p50: percentile(times, 50), p99: percentile(times, 99), requestsPerSecond: (times.length + errors) / elapsed, errors };
  } finally {
    client.destroy();
  }
};
