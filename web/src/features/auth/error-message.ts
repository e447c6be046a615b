/** The provider's message (Cognito's, through Amplify) for a toast description. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return typeof error === 'string' && error ? error : 'Something went wrong. Please try again.';
}
