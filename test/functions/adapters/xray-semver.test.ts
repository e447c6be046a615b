import { describe, expect, it } from 'vitest';
import { gte } from '#adapters/xray-semver.ts';

describe("the semver shim under X-Ray's SDK v2 patcher", () => {
  it('compares dotted versions as semver.gte does', () => {
    expect(gte('2.7.15', '2.7.15')).toBe(true);
    expect(gte('2.10.0', '2.7.15')).toBe(true);
    expect(gte('v3.0.0', '2.7.15')).toBe(true);
    expect(gte('2.7.9', '2.7.15')).toBe(false);
    expect(gte('1.99.99', '2.0.0')).toBe(false);
  });
});
