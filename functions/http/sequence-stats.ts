import type { SequenceStats } from '#contracts/sequences.ts';
import { sequenceStatsOf } from '#core/sequences/sequences.ts';
import { sequenceDeps } from '#functions/composition/deps-sequences.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/sequences/{sequenceId}/stats: `{entered, sent: per step, unsubscribed}`. */
export const handler = httpRoute({ route: 'sequence-stats' }, ({ auth, params }): Promise<SequenceStats> => sequenceStatsOf(sequenceDeps(), auth.userId, params['sequenceId'] ?? ''));
