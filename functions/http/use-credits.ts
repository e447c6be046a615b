import { idempotencyHeaders } from '#contracts/common.ts';
import { useCreditsBody, type Credits } from '#contracts/credits.ts';
import { useCredits } from '#core/credits/credits.ts';
import { clock, creditRepository, ids, metrics } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/credits/use: spends credits atomically; the same Idempotency-Key is charged once. */
export const handler = httpRoute({ route: 'use-credits', body: useCreditsBody, headers: idempotencyHeaders }, ({ auth, body, headers }): Promise<Credits> =>
  useCredits({ credits: creditRepository(), clock, ids, metrics }, { userId: auth.userId, body, idempotencyKey: headers['idempotency-key'] }),
);
