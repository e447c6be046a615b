import { documentClient } from '#data/table.ts';

/**
 * The items a data module writes, without writing them: `write` calls the module's own functions (createUser,
 * enroll, create...) while a middleware on the functions' DynamoDB client answers every call itself (reads find
 * nothing, writes succeed) and keeps each Put's item. The scale bench seeds with these items (BatchWriteItem, many in
 * flight), so its data is exactly what the product writes, never a hand-written copy. The Updates of the same
 * transactions (counters, the course's enrolledCount) are not kept: the seeding does not move counters.
 * Nothing else may use the functions' client while it runs (the bench seeds before it measures).
 */
export const capturePuts = async (write: () => Promise<unknown>): Promise<Record<string, unknown>[]> => {
  const stack = documentClient().middlewareStack;
  const name = 'benchCapturePuts';
  const items: Record<string, unknown>[] = [];
  const keep = (put: { Item?: Record<string, unknown> } | undefined) => {
    if (put?.Item) items.push(structuredClone(put.Item));
  };
  stack.add(
    () => async (args) => {
      const input = args.input as {
        Item?: Record<string, unknown>;
        TransactItems?: { Put?: { Item?: Record<string, unknown> } }[];
        RequestItems?: Record<string, { PutRequest?: { Item?: Record<string, unknown> } }[]>;
      };
      if (input.Item) keep(input);
      for (const t of input.TransactItems ?? []) keep(t.Put);
      for (const requests of Object.values(input.RequestItems ?? {})) for (const r of requests) keep(r.PutRequest);
      // Reads find nothing; writes succeed. Never sent.
      return { output: { $metadata: {} }, response: {} } as never;
    },
    { step: 'initialize', name, priority: 'high', override: true },
  );
  try {
    await write();
  } finally {
    stack.remove(name);
  }
  return items;
};

/** The items of `capturePuts` of the given `type`s only (a transaction's side records, sign-up activity, are left out). */
export const capturePutsOf = async (types: readonly string[], write: () => Promise<unknown>): Promise<Record<string, unknown>[]> =>
  (await capturePuts(write)).filter((item) => types.includes(String(item['type'])));
