import type { StreamCounters } from '#core/streams/ports.ts';
import { dynamoStreamCounters } from '#data/stream-counters.ts';

/** The composition of the stream aggregator (functions/streams/aggregator.ts). */
let counters: StreamCounters | undefined;

export const streamCounters = (): StreamCounters => (counters ??= dynamoStreamCounters());
