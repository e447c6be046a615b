import { updateSequenceBody, type SequenceView } from '#contracts/sequences.ts';
import { updateSequence } from '#core/sequences/sequences.ts';
import { sequenceDeps } from '#functions/composition/deps-sequences.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PATCH /api/sequences/{sequenceId}: the fields given (the on/off switch is `active`); another creator's is 404. */
export const handler = httpRoute({ route: 'update-sequence', body: updateSequenceBody }, ({ auth, body, params }): Promise<SequenceView> =>
  updateSequence(sequenceDeps(), auth.userId, params['sequenceId'] ?? '', body),
);
