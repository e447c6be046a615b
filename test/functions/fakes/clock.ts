import type { Clock, Ids } from '#core/ports.ts';

export const NOW = '2026-11-21T12:00:00.000Z';

/** A clock that stands still until the test moves it. */
export const testClock = (iso: string = NOW) => {
  let now = Date.parse(iso);
  const clock: Clock & { set(iso: string): void; advance(ms: number): void } = {
    now: () => new Date(now),
    set(to) {
      now = Date.parse(to);
    },
    advance(ms) {
      now += ms;
    },
  };
  return clock;
};

/** Ids that are unique and readable: id-1, id-2, ... */
export const sequentialIds = (prefix = 'id'): Ids => {
  let next = 0;
  return { newId: () => `${prefix}-${++next}` };
};
