import type { checkPlan as plan, checkStoredAccount as check, storedPlan as storedPlanOf, storedProfile as profile } from '#middleware/account.ts';

/**
 * Stands for functions/middleware/account.ts in the bundle of a public route (lib/constructs/bundling.ts): such a route
 * never checks a stored account (http-route.ts returns before), so its bundle carries no DynamoDB client for it (the
 * health check's bundle stays ~120 KB, not ~370 KB). Same exports; reaching one is a wiring mistake.
 */
const notBundled = (): never => {
  throw new Error("The stored-account check is not bundled into a public route's function (lib/constructs/bundling.ts)");
};

export const checkStoredAccount: typeof check = notBundled;
export const storedProfile: typeof profile = notBundled;
export const checkPlan: typeof plan = notBundled;
export const storedPlan: typeof storedPlanOf = notBundled;
