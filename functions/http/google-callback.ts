import { googleCallbackQuery } from '#contracts/integrations.ts';
import { finishGoogleConsent } from '#core/integrations/google-consent.ts';
import { googleCallbackDeps } from '#functions/composition/deps-integrations.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/**
 * GET /api/integrations/google/callback?code&state (public: Google's redirect carries no token of ours; the sealed
 * state says who consented): stores the refresh token sealed and sends the creator back to their returnUrl with
 * `?google=connected` or `?google=error&reason=...`.
 */
export const handler = httpRoute({ route: 'google-callback', query: googleCallbackQuery }, async ({ query }): Promise<Reply> =>
  Reply.redirect(await finishGoogleConsent(googleCallbackDeps(), query)),
);
