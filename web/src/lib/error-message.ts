/** What a failure toast says when the failure itself says nothing and the caller named no fallback. */
export const GENERIC_FAILURE = 'Something went wrong. Please try again.';

/**
 * The one way to turn a failure into the text a person reads: the message the failure carries (an ApiError carries
 * the contract's message; Cognito's errors reach the auth screens through Amplify with theirs, and Amplify
 * sometimes rejects with a bare string), else the action's fallback (the spec's text for that action).
 */
export function errorMessage(error: unknown, fallback: string = GENERIC_FAILURE): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}
