import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * Live Session Integrations (SPEC.md "Live Session Integrations", docs/api.md). Secrets are write-only: a body may
 * carry one, an answer only says whether one is stored (`apiSecretSet`, `clientSecretSet`).
 */

/** Longest id-like field (API key, client id, account id, calendar id) and longest secret the API accepts. */
export const INTEGRATION_FIELD_MAX = 256;
export const INTEGRATION_SECRET_MAX = 1024;

const field = z.string().trim().max(INTEGRATION_FIELD_MAX, `Use at most ${INTEGRATION_FIELD_MAX} characters.`);
/**
 * A secret in a PUT: a new value replaces the stored one; omitted or blank keeps it (the form leaves it empty when a
 * secret is saved); null removes it. Secrets are not trimmed: they are used exactly as pasted.
 */
const secretInput = z.string().max(INTEGRATION_SECRET_MAX, `Use at most ${INTEGRATION_SECRET_MAX} characters.`).nullable().optional();

/** The answer of GET and PUT /api/integrations. Zoom's `accountId` is beyond the spec (Server-to-Server OAuth needs it). */
export const integrationsView = z.object({
  zoom: z.object({ enabled: z.boolean(), apiKey: z.string(), apiSecretSet: z.boolean(), accountId: z.string() }),
  teams: z.object({ enabled: z.boolean(), clientId: z.string(), clientSecretSet: z.boolean() }),
  googleCalendar: z.object({ enabled: z.boolean(), calendarId: z.string() }),
  /** null until the first save. */
  updatedAt: isoDate.nullable(),
});
export type IntegrationsView = z.infer<typeof integrationsView>;

/** PUT /api/integrations. Enabling a service requires its fields (with the stored secret counting as present). */
export const saveIntegrationsBody = z.strictObject({
  zoom: z.strictObject({ enabled: z.boolean(), apiKey: field, apiSecret: secretInput, accountId: field.optional() }),
  teams: z.strictObject({ enabled: z.boolean(), clientId: field, clientSecret: secretInput }),
  googleCalendar: z.strictObject({ enabled: z.boolean(), calendarId: field }),
});
export type SaveIntegrationsBody = z.infer<typeof saveIntegrationsBody>;

export type IntegrationService = keyof SaveIntegrationsBody;

/** The services' names as people read them (validation messages, the status card). */
export const integrationNames: Record<IntegrationService, string> = {
  zoom: 'Zoom',
  teams: 'Microsoft Teams',
  googleCalendar: 'Google Calendar',
};

/** Connected: switched on with every required field present (a stored secret counts; its value is never shown). */
export const isConnected = (view: IntegrationsView, service: IntegrationService): boolean => {
  switch (service) {
    case 'zoom':
      return view.zoom.enabled && view.zoom.apiKey !== '' && view.zoom.apiSecretSet;
    case 'teams':
      return view.teams.enabled && view.teams.clientId !== '' && view.teams.clientSecretSet;
    case 'googleCalendar':
      return view.googleCalendar.enabled && view.googleCalendar.calendarId !== '';
  }
};

/**
 * POST /api/integrations/google/connect (issue 30): where Google sends the creator back after the consent screen, on
 * this site (an absolute URL on the app's origin or a path).
 */
export const googleConnectBody = z.strictObject({ returnUrl: z.string().trim().min(1, 'Give the address to come back to.').max(2048) });
export type GoogleConnectBody = z.infer<typeof googleConnectBody>;

/** The answer: the URL of Google's consent screen, to open in the browser. */
export const googleConnectAnswer = z.object({ url: z.url() });
export type GoogleConnectAnswer = z.infer<typeof googleConnectAnswer>;

/** GET /api/integrations/google/callback: what Google adds to the redirect (other parameters it adds are ignored). */
export const googleCallbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(4096).optional(),
  error: z.string().max(256).optional(),
});

/** What the callback adds to returnUrl: `?google=connected`, or `?google=error&reason=<one of these>`. */
export const googleConsentReasons = ['access_denied', 'invalid_state', 'expired', 'refused', 'unavailable'] as const;
