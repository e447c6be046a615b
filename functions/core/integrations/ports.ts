import type { SealedSecret } from '#core/ports.ts';

/**
 * The ports only the use cases of core/integrations use (docs/decisions/0029-rooms-match-the-domains.md). Adapters
 * in functions/data and functions/adapters implement them; the ports several domains share are in core/ports.ts.
 */

/** The creator's integrations as stored: secrets only sealed, null when none. */
export interface StoredIntegrations {
  zoom: { enabled: boolean; apiKey: string; accountId: string; apiSecret: SealedSecret | null };
  teams: { enabled: boolean; clientId: string; clientSecret: SealedSecret | null };
  googleCalendar: { enabled: boolean; calendarId: string };
  updatedAt: string;
}

export interface IntegrationRepository {
  get(creatorId: string): Promise<StoredIntegrations | undefined>;
  put(creatorId: string, integrations: StoredIntegrations): Promise<void>;
}
