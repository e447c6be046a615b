import { describe, expect, it } from 'vitest';
import { functionTimeoutMs } from '#functions/function-timeouts.ts';
import { profiles } from '#lib/constructs/app-function.ts';

/**
 * The client policies (functions/adapters/client-policy.ts) are sized to fit the function timeouts of
 * functions/function-timeouts.ts: the functions deployed must have exactly those.
 */
describe('function timeouts', () => {
  it('are the ones the client policies were sized for, profile by profile', () => {
    const deployed = Object.fromEntries(Object.entries(profiles).map(([name, profile]) => [name, profile.timeout.toMilliseconds()]));
    expect(deployed).toEqual(functionTimeoutMs);
  });
});
