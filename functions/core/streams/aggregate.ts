import { movesOf } from '#core/streams/counter-moves.ts';
import type { StreamChange, StreamCounters } from '#core/streams/ports.ts';

/**
 * The stream aggregator's use case: a batch of one stream shard's changes, in order, becomes the counters' moves,
 * applied exactly once (StreamCounters.apply: a replayed batch moves nothing).
 */
export const aggregateChanges = async (deps: { counters: StreamCounters }, batch: { shardId: string; changes: readonly StreamChange[] }) => {
  const counted = batch.changes.map((change) => ({ sequence: change.sequence, moves: movesOf(change) }));
  const result = await deps.counters.apply(batch.shardId, counted);
  return { ...result, moves: counted.reduce((sum, change) => sum + change.moves.length, 0) };
};
