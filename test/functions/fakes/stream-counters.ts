import type { CountedChange, StreamCounters } from '#core/streams/ports.ts';

/**
 * The stream aggregator's counters in memory, as data/stream-counters.ts keeps them: per shard a checkpoint (the last
 * applied sequence number), the changes at or before it skipped; the sales moves summed per creator, the enrolments'
 * per course and creator.
 */
export const fakeStreamCounters = () => {
  const checkpoints = new Map<string, bigint>();
  const sales = new Map<string, { revenue: number; sales: number; discount: number; refunds: number }>();
  /** Per course: its active enrolments; per creator: students and completions. */
  const enrolled = new Map<string, number>();
  const stats = new Map<string, { students: number; completions: number }>();
  const counters: StreamCounters = {
    async apply(shardId, changes: readonly CountedChange[]) {
      const checkpoint = checkpoints.get(shardId);
      const pending = changes.filter((c) => checkpoint === undefined || BigInt(c.sequence) > checkpoint);
      for (const change of pending) {
        for (const move of change.moves) {
          if (move.kind === 'enrolment') {
            if (move.courseCount) enrolled.set(move.courseId, (enrolled.get(move.courseId) ?? 0) + move.students);
            const was = stats.get(move.creatorId) ?? { students: 0, completions: 0 };
            stats.set(move.creatorId, { students: was.students + move.students, completions: was.completions + move.completions });
            continue;
          }
          const sum = sales.get(move.order.creatorId) ?? { revenue: 0, sales: 0, discount: 0, refunds: 0 };
          sales.set(move.order.creatorId, {
            revenue: sum.revenue + move.move.revenue,
            sales: sum.sales + move.move.sales,
            discount: sum.discount + move.move.discount,
            refunds: sum.refunds + move.move.refunds,
          });
        }
      }
      if (pending.length > 0) checkpoints.set(shardId, BigInt(pending[pending.length - 1]!.sequence));
      return { applied: pending.length, skipped: changes.length - pending.length, transactions: pending.length > 0 ? 1 : 0 };
    },
  };
  return { counters, sales, enrolled, stats, checkpoints };
};
