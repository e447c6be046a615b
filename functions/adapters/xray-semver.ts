/**
 * What aws-xray-sdk-core (under Powertools Tracer) asks of `semver`: only `gte`, in `captureAWS`, the AWS SDK v2
 * patcher, which these functions never call (they trace SDK v3 clients). The Lambda bundles alias `semver` to this
 * module (lib/constructs/bundling.ts), ~28 KB less in every bundle; `npm run bench` checks no other package imports
 * `semver` into a bundle. Plain dotted versions only (`2.7.15` >= `2.7.15`), which is all that call compares.
 */
const parts = (version: string): number[] => version.replace(/^v/, '').split(/[.+-]/).slice(0, 3).map(Number);

export const gte = (a: string, b: string): boolean => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const diff = (x[i] ?? 0) - (y[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  return true;
};
