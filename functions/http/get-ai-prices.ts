import { aiPrices, type AiPricesResponse } from '#contracts/credits.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/ai/prices: what each AI tool costs in credits (the one price table, contracts/credits.ts). */
export const handler = httpRoute({ route: 'get-ai-prices' }, (): Promise<AiPricesResponse> => Promise.resolve({ ...aiPrices }));
