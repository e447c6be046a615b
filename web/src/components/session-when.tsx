import { CalendarClock } from 'lucide-react';
import type { IntegrationProvider } from '@contracts/integrations.ts';
import { formatDuration, formatSessionStart, providerName } from '@/lib/format-session.ts';

/** A live session's when and where, one line: its start in the viewer's zone, its length and its meeting tool. */
export function SessionWhen({ session }: { session: { startsAt: string; durationMinutes: number; provider: IntegrationProvider } }) {
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
      <span className="inline-flex items-center gap-1">
        <CalendarClock aria-hidden="true" className="size-3.5" />
        {formatSessionStart(session.startsAt)}
      </span>
      <span>{formatDuration(session.durationMinutes)}</span>
      <span>{providerName(session.provider)}</span>
    </p>
  );
}
