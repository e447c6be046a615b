import { saveNotesBody, type SavedNotes } from '#contracts/courses.ts';
import { saveLearnerNotes } from '#core/crm/learners.ts';
import { clock, crmRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PUT /api/crm/learners/{learnerId}/notes: the creator's note; 404 (nothing written) unless the learner is theirs. */
export const handler = httpRoute({ route: 'save-learner-notes', body: saveNotesBody }, ({ auth, params, body }): Promise<SavedNotes> =>
  saveLearnerNotes({ crm: crmRepository(), clock }, { creatorId: auth.userId, learnerId: params['learnerId'] ?? '', notes: body.notes }),
);
