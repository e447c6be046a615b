import { type GoogleConnectAnswer, googleConnectBody } from '#contracts/integrations.ts';
import { startGoogleConsent } from '#core/integrations/google-consent.ts';
import { googleConsentDeps } from '#functions/composition/deps-integrations.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/integrations/google/connect: the URL of Google's consent screen, with a sealed 10-minute state. */
export const handler = httpRoute({ route: 'google-connect', body: googleConnectBody }, async ({ auth, body }): Promise<GoogleConnectAnswer> =>
  startGoogleConsent(googleConsentDeps(), { creatorId: auth.userId, returnUrl: body.returnUrl }),
);
