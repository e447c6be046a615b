import { list, str, type FormObject } from './form.ts';

/**
 * `expand[]=customer`, `expand[]=data.subscription`, `expand[]=line_items`: ids in an answer replaced by their
 * objects, on a copy, as Stripe does. Each caller says how an id is found (the platform's objects, or one connected
 * account's), so an expansion never reaches outside the scope of the request.
 */
export interface Expander {
  /** The object for an id, or the id itself when it is not one the scope holds. */
  resolve(id: string): unknown;
  /** A checkout session's line items (`expand[]=line_items`), or null. */
  lineItems(sessionId: string): unknown;
}

const expandPath = (target: unknown, path: string[], expander: Expander): unknown => {
  const [head, ...rest] = path;
  if (head === undefined || target === null || typeof target !== 'object') return target;
  const record = target as Record<string, unknown>;
  if (head === 'data' && Array.isArray(record.data)) {
    record.data = record.data.map((entry) => expandPath(entry, rest, expander));
    return record;
  }
  if (head === 'line_items' && record.object === 'checkout.session') {
    record.line_items = expander.lineItems(String(record.id));
  } else if (typeof record[head] === 'string') {
    record[head] = expander.resolve(record[head]);
  }
  if (rest.length > 0) record[head] = expandPath(record[head], rest, expander);
  return record;
};

export const expand = (body: unknown, params: FormObject, expander: Expander): unknown => {
  const paths = (list(params.expand) ?? []).map(str).filter((path): path is string => Boolean(path));
  if (paths.length === 0) return body;
  const copy = structuredClone(body);
  for (const path of paths) expandPath(copy, path.split('.'), expander);
  return copy;
};
