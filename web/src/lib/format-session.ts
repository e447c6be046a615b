import { integrationNames, serviceOfProvider, type IntegrationProvider } from '@contracts/integrations.ts';

/** The browser's IANA time zone (sent as a session's `timeZone`, shown beside its times). */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A session's start in the viewer's zone, the zone shown: 'Tue 1 Dec 2026, 18:00 GMT'. */
export const formatSessionStart = (iso: string): string =>
  new Date(iso).toLocaleString('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });

/** A time of day in the viewer's zone: '17:45'. */
export const formatTimeOfDay = (at: number | string): string => new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

/** '45 min', '1 h', '1 h 30 min'. */
export const formatDuration = (minutes: number): string => {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
};

/** A session's provider as people read it (the Live Session Integrations screen's names): 'Zoom', 'Microsoft Teams', 'Google Calendar'. */
export const providerName = (provider: IntegrationProvider): string => integrationNames[serviceOfProvider[provider]];
