/**
 * `mnemonist/lru-cache` as the AWS SDK's endpoint cache uses it (@aws-sdk/endpoint-cache: `new LRUCache(capacity)`,
 * `get`, `set`, `has`, `peek`, `clear`): the cache of DynamoDB's endpoint discovery, which no client here turns on but
 * every DynamoDB client makes. The Lambda bundles alias `mnemonist/lru-cache` to this module (lib/constructs/
 * bundling.ts): mnemonist and obliterator, ~7 KB, leave every bundle. Least recently used first out, as mnemonist's;
 * `peek` reads without refreshing. Not used outside the bundles: tsx and vitest load the real one.
 */
export default class LRUCache<K, V> {
  readonly #capacity: number;
  /** Insertion order is recency order: the first key is the least recently used. */
  readonly #entries = new Map<K, V>();

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new Error('LRUCache: capacity should be a positive integer');
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#capacity) this.#entries.delete(this.#entries.keys().next().value as K);
    return this;
  }

  clear(): void {
    this.#entries.clear();
  }
}
