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

/**
 * Where a provider stands (issue 30): `off` while switched off; `connected` when the last real check (a token
 * obtained and one API call made, on save or by `POST /api/integrations/{provider}/test`) succeeded; `error` otherwise,
 * with `error` saying why in the provider's plain words.
 */
export const connectionStatus = z.enum(['off', 'connected', 'error']);
export type ConnectionStatus = z.infer<typeof connectionStatus>;
const connection = { status: connectionStatus, error: z.string().optional() };

/**
 * The answer of GET and PUT /api/integrations. Beyond the spec: Zoom's `accountId` (Server-to-Server OAuth needs it),
 * Teams' `tenantId` and `organizerEmail` (Graph's app registration and the mailbox the meetings are made in), Google's
 * `consented` (a refresh token from the creator's consent is stored) and each provider's connection status.
 */
export const integrationsView = z.object({
  zoom: z.object({ enabled: z.boolean(), apiKey: z.string(), apiSecretSet: z.boolean(), accountId: z.string(), ...connection }),
  teams: z.object({ enabled: z.boolean(), tenantId: z.string(), clientId: z.string(), clientSecretSet: z.boolean(), organizerEmail: z.string(), ...connection }),
  googleCalendar: z.object({ enabled: z.boolean(), calendarId: z.string(), consented: z.boolean(), ...connection }),
  /** null until the first save. */
  updatedAt: isoDate.nullable(),
});
export type IntegrationsView = z.infer<typeof integrationsView>;

/** PUT /api/integrations. Enabling a service requires its fields (with the stored secret counting as present). */
export const saveIntegrationsBody = z.strictObject({
  zoom: z.strictObject({ enabled: z.boolean(), apiKey: field, apiSecret: secretInput, accountId: field.optional() }),
  /** `tenantId` and `organizerEmail`: an older client that does not send them keeps the stored ones. */
  teams: z.strictObject({
    enabled: z.boolean(),
    tenantId: field.optional(),
    clientId: field,
    clientSecret: secretInput,
    organizerEmail: z
      .string()
      .trim()
      .max(254, 'Use at most 254 characters.')
      .pipe(z.union([z.literal(''), z.email('Enter the organiser’s email address, such as host@example.com.')]))
      .optional(),
  }),
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

/** Connected: switched on, and the last real check with the provider succeeded. */
export const isConnected = (view: IntegrationsView, service: IntegrationService): boolean => view[service].status === 'connected';

/** The providers `POST /api/integrations/{provider}/test` checks, and the service of the settings each one is. */
export const integrationProviders = ['zoom', 'teams', 'google'] as const;
export type IntegrationProvider = (typeof integrationProviders)[number];
export const serviceOfProvider: Record<IntegrationProvider, IntegrationService> = { zoom: 'zoom', teams: 'teams', google: 'googleCalendar' };

/** The path parameter of `POST /api/integrations/{provider}/test`. */
export const integrationTestParams = z.object({ provider: z.enum(integrationProviders) });

/** The answer of `POST /api/integrations/{provider}/test`: `error` is the provider's refusal in plain words. */
export const integrationTestAnswer = z.object({ ok: z.boolean(), error: z.string().optional() });
export type IntegrationTestAnswer = z.infer<typeof integrationTestAnswer>;

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
