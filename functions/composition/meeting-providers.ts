import { googleCalendarMeetings } from '#adapters/google-calendar-meetings.ts';
import { teamsMeetings } from '#adapters/teams-meetings.ts';
import { zoomMeetings } from '#adapters/zoom-meetings.ts';
import type { MeetingProviders } from '#core/live-sessions/ports.ts';

/** The live-session providers (issue 30): one adapter per provider, each with its own token cache. */
export const meetingProviders = (): MeetingProviders => ({
  connect(creatorId, credentials) {
    switch (credentials.provider) {
      case 'zoom':
        return zoomMeetings(creatorId, credentials);
      case 'teams':
        return teamsMeetings(creatorId, credentials);
      case 'google':
        return googleCalendarMeetings(creatorId, credentials);
    }
  },
});
