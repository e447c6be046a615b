import * as z from 'zod';

/**
 * Deleting one's own account (issue 37 point 2; docs/api.md "Personal data"): DELETE /api/me behind a typed
 * confirmation, answered 202 while the 'account-deletion' job erases the rest within minutes.
 */

/** The word the person types to confirm; anything else is a 400, so a stray request never deletes an account. */
export const DELETE_CONFIRMATION = 'DELETE';

export const deleteAccountBody = z.object({
  confirm: z.literal(DELETE_CONFIRMATION, { error: `Type ${DELETE_CONFIRMATION} to confirm that your account should be deleted.` }),
});
export type DeleteAccountBody = z.infer<typeof deleteAccountBody>;

/** The 202's body: the deletion is under way (sign-in already refused). */
export const accountDeletionAccepted = z.object({ status: z.literal('deleting'), requestedAt: z.string() });
export type AccountDeletionAccepted = z.infer<typeof accountDeletionAccepted>;

/** Where a deleted person's name stood (comments) and what their email becomes where a record must stay (orders). */
export const DELETED_USER_NAME = 'Deleted user';
export const PSEUDONYM_DOMAIN = 'deleted.invalid';

/** Whether an email is a deleted person's pseudonym (the order they bought, kept without them). */
export const isPseudonym = (email: string): boolean => email.toLowerCase().endsWith(`@${PSEUDONYM_DOMAIN}`);
