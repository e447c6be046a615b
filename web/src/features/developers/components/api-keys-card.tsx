/** API keys (issue 31 point 1): create with a name and scopes, shown once, list with last use, revoke. To be built. */
export function ApiKeysCard() {
  return null;
}
