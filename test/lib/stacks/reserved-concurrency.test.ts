import { describe, expect, it } from 'vitest';
import { routes, triggers } from '#functions/routes.ts';
import { ACCOUNT_CONCURRENCY, UNRESERVED_FLOOR, reservedConcurrency, reservedTotal } from '#lib/constructs/reserved-concurrency.ts';
import { resourcesOf, synthPlatform, withNestedStacks } from './synth-platform.ts';

/** Every Lambda function of the platform, by its name (the start of its description), with its reservation. */
const reservations = (): Map<string, unknown> => {
  const { data, edge, web, api, jobs } = synthPlatform({ context: { appOrigin: 'https://d123.cloudfront.net' } });
  const found = new Map<string, unknown>();
  for (const stack of [data, edge, web, api, jobs].filter((s) => s !== undefined)) {
    for (const fn of Object.values(resourcesOf(withNestedStacks(stack), 'AWS::Lambda::Function'))) {
      const name = String(fn.Properties['Description'] ?? '').split(' (')[0]!;
      found.set(name, fn.Properties['ReservedConcurrentExecutions']);
    }
  }
  return found;
};

describe('reserved concurrency (decision 0036)', () => {
  it('keeps executions for the Stripe and Connect webhooks and every Cognito trigger, and for nothing else', () => {
    const found = reservations();
    const kept = ['stripe-webhook', 'stripe-connect-webhook', ...Object.values(triggers).map((t) => t.name)];
    for (const name of kept) {
      expect(found.has(name), name).toBe(true);
      expect(found.get(name), name).toBe(reservedConcurrency[name as keyof typeof reservedConcurrency].executions);
    }
    // A public flood cannot take them: every other function shares the unreserved pool, none holds a reservation.
    const others = [...found].filter(([name]) => !kept.includes(name));
    expect(others.length).toBeGreaterThan(routes.length - 2);
    expect(others.filter(([, reserved]) => reserved !== undefined)).toEqual([]);
    expect(Object.keys(reservedConcurrency).sort()).toEqual([...kept].sort());
  });

  it('leaves at least 100 unreserved executions at the default account limit, and each value within it', () => {
    expect(ACCOUNT_CONCURRENCY - reservedTotal()).toBeGreaterThanOrEqual(UNRESERVED_FLOOR);
    for (const [name, r] of Object.entries(reservedConcurrency)) {
      expect(r.executions, name).toBeGreaterThan(0);
      expect(r.why.length, name).toBeGreaterThan(20);
    }
  });
});
