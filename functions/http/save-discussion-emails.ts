import { discussionEmailsBody, type DiscussionEmails } from '#contracts/comments.ts';
import { saveDiscussionEmails } from '#core/comments/discussion-emails.ts';
import { userRepository } from '#functions/composition/deps.ts';
import { setCommentDigest } from '#data/users.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PUT /api/creator/discussion-emails: the daily digest turned on or off. */
export const handler = httpRoute({ route: 'save-discussion-emails', body: discussionEmailsBody }, ({ auth, body }): Promise<DiscussionEmails> =>
  saveDiscussionEmails({ users: userRepository(), setCommentDigest }, auth.userId, body),
);
