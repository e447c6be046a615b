/**
 * The Lambda timeout of each function profile, in milliseconds: `profile` of a route or job in functions/routes.ts
 * ('crud' when absent; the Cognito triggers and event handlers are 'crud' too). lib/constructs/app-function.ts
 * deploys these values (test/lib/constructs/function-timeouts.test.ts holds the two equal), and every network
 * client's worst case (adapters/client-policy.ts) is sized to fit under the timeout of each function that uses it.
 * Plain numbers, no aws-cdk-lib: the functions read this module too.
 */
export const functionTimeoutMs = { crud: 10_000, heavy: 30_000 } as const;

export type FunctionProfile = keyof typeof functionTimeoutMs;
