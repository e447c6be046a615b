import { idempotencyKey, useCreditsBody, type Credits } from '../contracts/credits.ts';
import { useCredits } from '../core/credits/credits.ts';
import { ValidationError } from '../core/errors.ts';
import { clock, creditRepository, ids } from '../deps.ts';
import { zodDetails } from '../middleware/errors.ts';
import { httpRoute } from '../middleware/http-route.ts';

/** POST /api/credits/use: spends credits atomically; the same Idempotency-Key is charged once. */
export const handler = httpRoute({ body: useCreditsBody }, ({ auth, body, headers }): Promise<Credits> => {
  const key = headers['idempotency-key'];
  const parsedKey = key === undefined ? undefined : idempotencyKey.safeParse(key);
  if (parsedKey && !parsedKey.success) throw new ValidationError('The Idempotency-Key header is not valid.', zodDetails(parsedKey.error));
  return useCredits({ credits: creditRepository(), clock, ids }, { userId: auth!.userId, body, idempotencyKey: parsedKey?.data });
});
