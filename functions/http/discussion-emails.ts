import type { DiscussionEmails } from '#contracts/comments.ts';
import { getDiscussionEmails } from '#core/comments/discussion-emails.ts';
import { userRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/creator/discussion-emails: whether the daily digest of the learners' comments comes. */
export const handler = httpRoute({ route: 'discussion-emails' }, ({ auth }): Promise<DiscussionEmails> => getDiscussionEmails({ users: userRepository() }, auth.userId));
