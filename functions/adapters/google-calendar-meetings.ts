import { ProviderUnavailableError } from '#core/errors.ts';
import type { MeetingCredentials, MeetingProvider } from '#core/live-sessions/ports.ts';

/**
 * PLACEHOLDER while issue 30's google adapter is built on its branch: replaced whole by the adapter (never merged as is).
 */
export const googleCalendarMeetings = (creatorId: string, credentials: Extract<MeetingCredentials, { provider: 'google' }>): MeetingProvider => {
  void creatorId;
  void credentials;
  throw new ProviderUnavailableError('google', 'Not built yet.');
};
