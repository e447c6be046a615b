import { deleteSequence } from '#core/sequences/sequences.ts';
import { sequenceDeps } from '#functions/composition/deps-sequences.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /api/sequences/{sequenceId}: 204; learners in it leave it at their next step. */
export const handler = httpRoute({ route: 'delete-sequence' }, async ({ auth, params }): Promise<Reply> => {
  await deleteSequence(sequenceDeps(), auth.userId, params['sequenceId'] ?? '');
  return new Reply(204, null);
});
