import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * The AWS SDK's default credential chain, as it is in Lambda: the execution role's credentials are always in the
 * environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN). The Lambda bundles alias
 * `@aws-sdk/credential-provider-node` to this module (lib/constructs/app-function.ts, test/bench), which keeps the
 * chain's SSO, STS web-identity, INI-file, process, container and IMDS providers (and the nested STS/SSO clients they
 * carry, ~135 KB minified) out of every bundle. Not used outside the bundles: tsx and vitest load the real chain.
 * docs/decisions/0010-hardening.md.
 */
export const defaultProvider: typeof fromEnv = (init) => fromEnv(init);
