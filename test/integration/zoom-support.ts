import type { SaveIntegrationsBody } from '#contracts/integrations.ts';
import { outputs } from './support.ts';

/** The integrations with the Zoom stand-in's demo app switched on (outputs.json's working credentials), the others off. */
export const demoZoom = (): SaveIntegrationsBody => ({
  zoom: { enabled: true, accountId: outputs().ZoomAccountId, apiKey: outputs().ZoomClientId, apiSecret: outputs().ZoomClientSecret },
  teams: { enabled: false, clientId: '' },
  googleCalendar: { enabled: false, calendarId: '' },
});

/** A meeting as the Zoom stand-in keeps it (the fields the tests read). */
export interface ZoomMeeting {
  id: number;
  topic: string;
  start_time: string;
  duration: number;
  join_url: string;
}

/** The stand-in's meetings, read from the stand-in itself (not through the fault proxy the functions use). */
export const zoomMeetings = async (): Promise<ZoomMeeting[]> => {
  const res = await fetch(`${outputs().ZoomOAuthUrl}/_stand-in/meetings`);
  return ((await res.json()) as { meetings: ZoomMeeting[] }).meetings;
};
