import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { ChargedReplay, ReplayStore } from '#core/ports.ts';
import { documentClient, tableName } from '#data/table.ts';

/**
 * ai_drafts (issue 36): the outcome of a drafting tool's charged call, kept 24 hours for a retry with the same
 * Idempotency-Key. Nothing else of a draft is stored: the creator saves it through the ordinary course routes.
 *
 * Replay: pk USER#<id>  sk AIREPLAY#<tool>#<key>  outcome, requestHash, result (JSON text)?, creditsRemaining?, expiresAt (TTL)
 *
 * A draft is small (a lesson body is at most 100 000 characters), so the result is kept as JSON text, uncompressed.
 */
export const aiDraftKeys = {
  replay: (userId: string, tool: string, key: string) => ({ pk: `USER#${userId}`, sk: `AIREPLAY#${tool}#${key}` }),
};

const replayItem = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('generated'), requestHash: z.string(), result: z.string(), creditsRemaining: z.number().int().min(0), expiresAt: z.number() }),
  z.object({ outcome: z.literal('failed'), requestHash: z.string(), expiresAt: z.number() }),
]);

/** One tool's replays; `result` is checked against the tool's own answer schema when read back. */
export const dynamoAiReplays = <T>(tool: string, result: z.ZodType<T>): ReplayStore<T> => ({
  async get(userId, key) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: aiDraftKeys.replay(userId, tool, key), ConsistentRead: true }));
    if (!Item) return undefined;
    const item = replayItem.parse(Item);
    if (item.outcome === 'failed') return item;
    return { ...item, result: result.parse(JSON.parse(item.result)) } satisfies ChargedReplay<T>;
  },
  async put(userId, key, replay) {
    const fields = replay.outcome === 'generated' ? { ...replay, result: JSON.stringify(replay.result) } : replay;
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { ...aiDraftKeys.replay(userId, tool, key), type: 'AiDraftReplay', ...fields } }),
    );
  },
});
