/**
 * What a fake can be told to do around its next calls, so a unit test can stage what only concurrency or an outage
 * produces against the real thing: `before(method, hook)` runs `hook(callNumber)` each time `method` is called,
 * before the fake reads or writes anything. A hook that changes the fake's state is another writer getting there
 * first; a hook that throws is the store or the provider failing.
 */
export type Hook = (call: number) => unknown;

export interface Hooks<T> {
  before(method: keyof T & string, hook: Hook): void;
  /** How many times `method` was called. */
  calls(method: keyof T & string): number;
}

/** Wraps every (async) method of `methods` with its hooks. */
export const withHooks = <T extends object>(methods: T): T & Hooks<T> => {
  const hooks = new Map<string, Hook[]>();
  const counts = new Map<string, number>();
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(methods)) {
    wrapped[name] = async (...args: unknown[]) => {
      const call = (counts.get(name) ?? 0) + 1;
      counts.set(name, call);
      for (const hook of hooks.get(name) ?? []) await hook(call);
      return (method as (...a: unknown[]) => unknown)(...args);
    };
  }
  return Object.assign(wrapped as T, {
    before(method: keyof T & string, hook: Hook) {
      hooks.set(method, [...(hooks.get(method) ?? []), hook]);
    },
    calls: (method: keyof T & string) => counts.get(method) ?? 0,
  });
};

/** Stored values are copies, as a database returns them: a caller changing what it read changes nothing stored. */
export const copy = <T>(value: T): T => structuredClone(value);
