import type { DiscussionEmails } from '#contracts/comments.ts';
import { NotFoundError } from '#core/errors.ts';
import type { User } from '#core/ports.ts';

/** What the creator's choice of discussion emails reads and writes: their profile, whose `commentDigest` it is. */
export interface DiscussionEmailsDeps {
  users: { getUser(id: string): Promise<User | undefined> };
  /** Sets the profile's `commentDigest`; false when there is no profile. */
  setCommentDigest(userId: string, on: boolean): Promise<boolean>;
}

/** GET /api/creator/discussion-emails: the digest is on unless the creator turned it off (absent: on). */
export const getDiscussionEmails = async (deps: Pick<DiscussionEmailsDeps, 'users'>, userId: string): Promise<DiscussionEmails> => {
  const user = await deps.users.getUser(userId);
  if (!user) throw new NotFoundError('Your profile was not found.');
  return { commentDigest: user.commentDigest !== false };
};

/** PUT /api/creator/discussion-emails: the choice saved at once; the next digest due reads it. */
export const saveDiscussionEmails = async (deps: DiscussionEmailsDeps, userId: string, body: DiscussionEmails): Promise<DiscussionEmails> => {
  if (!(await deps.setCommentDigest(userId, body.commentDigest))) throw new NotFoundError('Your profile was not found.');
  return { commentDigest: body.commentDigest };
};
