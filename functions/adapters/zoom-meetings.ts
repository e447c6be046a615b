import { ProviderUnavailableError } from '#core/errors.ts';
import type { MeetingCredentials, MeetingProvider } from '#core/live-sessions/ports.ts';

/**
 * PLACEHOLDER while issue 30's zoom adapter is built on its branch: replaced whole by the adapter (never merged as is).
 */
export const zoomMeetings = (creatorId: string, credentials: Extract<MeetingCredentials, { provider: 'zoom' }>): MeetingProvider => {
  void creatorId;
  void credentials;
  throw new ProviderUnavailableError('zoom', 'Not built yet.');
};
