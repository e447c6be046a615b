/** The server's message when it gave one (ApiError carries the contract's message), else the spec's fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
