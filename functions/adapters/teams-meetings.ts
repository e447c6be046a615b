import { ProviderUnavailableError } from '#core/errors.ts';
import type { MeetingCredentials, MeetingProvider } from '#core/live-sessions/ports.ts';

/**
 * PLACEHOLDER while issue 30's teams adapter is built on its branch: replaced whole by the adapter (never merged as is).
 */
export const teamsMeetings = (creatorId: string, credentials: Extract<MeetingCredentials, { provider: 'teams' }>): MeetingProvider => {
  void creatorId;
  void credentials;
  throw new ProviderUnavailableError('teams', 'Not built yet.');
};
