import { deleteAccountBody, type AccountDeletionAccepted } from '#contracts/account-deletion.ts';
import { requestAccountDeletion } from '#core/accounts/delete-account.ts';
import { accountDeletionRequestDeps } from '#functions/composition/deps-account-deletion.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/**
 * DELETE /api/me `{confirm: "DELETE"}` (issue 37 point 2): 202 once sign-in is refused and the deletion is queued; a
 * creator with learners on a published course 409 (unpublish first). Repeating it answers 202 again.
 */
export const handler = httpRoute({ route: 'delete-me', body: deleteAccountBody }, async ({ auth }): Promise<Reply> => {
  const accepted: AccountDeletionAccepted = await requestAccountDeletion(accountDeletionRequestDeps(), { userId: auth.userId });
  return new Reply(202, accepted);
});
