import type { SequenceList } from '#contracts/sequences.ts';
import { listSequences } from '#core/sequences/sequences.ts';
import { sequenceDeps } from '#functions/composition/deps-sequences.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/sequences: the creator's email sequences, oldest first. */
export const handler = httpRoute({ route: 'list-sequences' }, ({ auth }): Promise<SequenceList> => listSequences(sequenceDeps(), auth.userId));
