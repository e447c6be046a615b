import type { authorizeApiCall as authorize } from '#middleware/api-key.ts';

/**
 * Stands for functions/middleware/api-key.ts in the bundle of every route that is not the public API's
 * (lib/constructs/bundling.ts): only a `/v1` key route checks an API key, so no other bundle carries the keys' data
 * module. Same exports; reaching one is a wiring mistake.
 */
export const authorizeApiCall: typeof authorize = () => {
  throw new Error("The API key check is not bundled into this route's function (lib/constructs/bundling.ts)");
};
