/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracket notation
 * (`line_items[0][price]=price_x`, `metadata[userId]=u1`, `expand[]=customer`), decoded into nested values.
 * Every leaf stays a string, as it arrives on the wire; the routes coerce what they need.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/** `a[b][0]` -> ['a', 'b', '0']; `expand[]` -> ['expand', '']. */
const splitKey = (key: string): string[] => {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const parts = [key.slice(0, open)];
  for (const match of key.slice(open).matchAll(/\[([^\]]*)\]/g)) parts.push(match[1] ?? '');
  return parts;
};

const isIndex = (segment: string): boolean => segment === '' || /^\d+$/.test(segment);

/** Sets `value` at `path` inside `target`, creating arrays for numeric or empty segments, objects otherwise. */
const assign = (target: FormObject | FormValue[], path: string[], value: string): void => {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const container = target as Record<string, FormValue>;
  const slot = Array.isArray(target) && head === '' ? String(target.length) : head;
  if (rest.length === 0) {
    container[slot] = value;
    return;
  }
  const existing = container[slot];
  const child =
    existing !== undefined && typeof existing !== 'string' ? existing : isIndex(rest[0] ?? '') ? [] : {};
  container[slot] = child;
  assign(child, rest, value);
};

/** Arrays built from sparse indices (`[0]`, `[2]`) are compacted, as Stripe does. */
const compact = (value: FormValue): FormValue => {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((item) => item !== undefined).map(compact);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, compact(item)]));
};

/** Decodes a form (or query) string into nested values. */
export const parseForm = (encoded: string): FormObject => {
  const result: FormObject = {};
  for (const [key, value] of new URLSearchParams(encoded)) assign(result, splitKey(key), value);
  return compact(result) as FormObject;
};

/** Reads a string leaf, or undefined when absent or not a string. */
export const str = (value: FormValue | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** Reads an object branch (e.g. `metadata`), or undefined. */
export const obj = (value: FormValue | undefined): FormObject | undefined =>
  value !== undefined && typeof value === 'object' && !Array.isArray(value) ? value : undefined;

/** Reads an array branch (e.g. `line_items`); Stripe also accepts `items[0]` keyed as an object. */
export const list = (value: FormValue | undefined): FormValue[] | undefined => {
  if (Array.isArray(value)) return value;
  const asObject = obj(value);
  return asObject ? Object.values(asObject) : undefined;
};
