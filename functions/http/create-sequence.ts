import { createSequenceBody } from '#contracts/sequences.ts';
import { createSequence } from '#core/sequences/sequences.ts';
import { sequenceDeps } from '#functions/composition/deps-sequences.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/sequences: 201 and the sequence; a trigger's course must be the creator's. */
export const handler = httpRoute({ route: 'create-sequence', body: createSequenceBody }, async ({ auth, body }): Promise<Reply> =>
  new Reply(201, await createSequence(sequenceDeps(), auth.userId, body)),
);
