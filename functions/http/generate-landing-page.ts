import { idempotencyHeaders } from '#contracts/common.ts';
import { generateLandingBody, type GenerateLandingResponse } from '#contracts/landing.ts';
import { generateLandingPage } from '#core/landing/generate-landing-page.ts';
import { generationDeps } from '#functions/composition/deps-landing.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/landing-pages/generate: 15 credits, one sanitized page; refunded on failure; the same Idempotency-Key is charged once. */
export const handler = httpRoute({ route: 'generate-landing-page', body: generateLandingBody, headers: idempotencyHeaders }, ({ auth, body, headers }): Promise<GenerateLandingResponse> =>
  generateLandingPage(generationDeps(), { userId: auth.userId, body, idempotencyKey: headers['idempotency-key'] }),
);
