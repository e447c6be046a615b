import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import LRUCache from '#adapters/endpoint-lru.ts';

// The real one, as @aws-sdk/endpoint-cache loads it (a CommonJS module whose export is the class).
const MnemonistLRU = createRequire(import.meta.url)('mnemonist/lru-cache') as new <K, V>(capacity: number) => LRUCache<K, V>;

describe("the LRU cache the bundles give the SDK's endpoint cache", () => {
  it('answers get, peek, has and size as mnemonist does through a run of sets and reads past its capacity', () => {
    const ours = new LRUCache<string, number>(3);
    const theirs = new MnemonistLRU<string, number>(3);
    const steps: [op: 'set' | 'get' | 'peek', key: string][] = [
      ['set', 'a'], ['set', 'b'], ['set', 'c'], ['get', 'a'], ['set', 'd'], ['peek', 'b'], ['peek', 'a'], ['set', 'e'],
      ['peek', 'c'], ['get', 'd'], ['set', 'a'], ['set', 'f'], ['get', 'e'], ['peek', 'a'], ['set', 'g'], ['get', 'd'],
    ];
    for (const [i, [op, key]] of steps.entries()) {
      if (op === 'set') {
        ours.set(key, i);
        theirs.set(key, i);
      } else {
        expect(ours[op](key), `${op} ${key} at step ${i}`).toBe(theirs[op](key));
      }
      for (const k of 'abcdefg') expect(ours.has(k), `has ${k} after step ${i}`).toBe(theirs.has(k));
      expect(ours.size).toBe(theirs.size);
    }
    ours.clear();
    expect([ours.size, ours.has('g')]).toEqual([0, false]);
  });
});
