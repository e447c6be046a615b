import type { SealedSecret } from '#core/ports.ts';

/**
 * The ports only the use cases of core/integrations use (docs/decisions/0029-rooms-match-the-domains.md). Adapters
 * in functions/data and functions/adapters implement them; the ports several domains share are in core/ports.ts.
 */

/**
 * The outcome of the last real check of a provider (issue 30: a token obtained and one API call made), or none yet.
 * `error` is the provider's refusal in plain words.
 */
export interface ProviderCheck {
  ok: boolean;
  error?: string;
  checkedAt: string;
}

/**
 * The creator's integrations as stored: secrets only sealed, null when none. Items written before issue 30 lack
 * `tenantId`, `organizerEmail`, `refreshToken` and `check`: the data module reads them as '' / null / undefined.
 */
export interface StoredIntegrations {
  zoom: { enabled: boolean; apiKey: string; accountId: string; apiSecret: SealedSecret | null; check?: ProviderCheck };
  teams: {
    enabled: boolean;
    tenantId: string;
    clientId: string;
    clientSecret: SealedSecret | null;
    /** The organiser's mailbox: Graph makes the meetings in this user's calendar. */
    organizerEmail: string;
    check?: ProviderCheck;
  };
  googleCalendar: {
    enabled: boolean;
    calendarId: string;
    /** Google's refresh token from the creator's consent (OAuth 2.0 offline access), sealed; null until consent. */
    refreshToken: SealedSecret | null;
    check?: ProviderCheck;
  };
  updatedAt: string;
}

export interface IntegrationRepository {
  get(creatorId: string): Promise<StoredIntegrations | undefined>;
  put(creatorId: string, integrations: StoredIntegrations): Promise<void>;
  /**
   * Stores the outcome of a test of one provider, touching nothing else of the item (a save at the same time keeps
   * its settings); nothing is written when the creator has no integrations item.
   */
  saveCheck(creatorId: string, service: 'zoom' | 'teams' | 'googleCalendar', check: ProviderCheck): Promise<void>;
}

/**
 * A creator's credentials for one live-session provider, unsealed: the same shape as core/live-sessions' own
 * `MeetingCredentials` (the composition hands one to the other, so the two cannot drift apart unnoticed).
 */
export type ProviderCredentials =
  | { provider: 'zoom'; accountId: string; clientId: string; clientSecret: string }
  | { provider: 'teams'; tenantId: string; clientId: string; clientSecret: string; organizerEmail: string }
  | { provider: 'google'; refreshToken: string; calendarId: string };

/**
 * The real check of a provider (issue 30): a token obtained and one API call made with these credentials. Resolves
 * when connected; throws IntegrationNotConnectedError with the provider's refusal in plain words, or
 * ProviderUnavailableError when it is down or late (composition: `meetingProviders().connect(...).check()`).
 */
export interface ConnectionChecks {
  check(creatorId: string, credentials: ProviderCredentials): Promise<void>;
}
