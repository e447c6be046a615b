import { useMutation, useQuery } from '@tanstack/react-query';
import { CalendarPlus, Video } from 'lucide-react';
import { useEffect, useState } from 'react';
import { canJoin, joinWindow, type LearnerSession } from '@contracts/live-sessions.ts';
import { SessionWhen } from '@/components/session-when.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { toastError } from '@/components/ui/toaster.tsx';
import { browserZone, formatSessionStart, formatTimeOfDay } from '@/lib/format-session.ts';
import { saveFile } from '@/lib/save-file.ts';
import { fetchSessionCalendar, learnerSessionsQueryOptions } from '../api/learning-queries.ts';

/** How often the Join buttons are looked at again (they open 15 minutes before the start and close at the end). */
export const JOIN_CHECK_MS = 30_000;

/** The time now, read again every `everyMs`. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** When a closed Join button opens, in words: 'Opens at 17:45' today, else 'Opens Tue 1 Dec 2026, 17:45 GMT'. */
const opensLabel = (opensAt: number, now: number): string => {
  const sameDay = new Date(opensAt).toDateString() === new Date(now).toDateString();
  return sameDay ? `Opens at ${formatTimeOfDay(opensAt)}` : `Opens ${formatSessionStart(new Date(opensAt).toISOString())}`;
};

/**
 * 'Upcoming live sessions' on 'My Learning' (issue 30): the sessions of the learner's courses that have not ended,
 * each with a Join button live from 15 minutes before the start until the end (looked at again every 30 seconds) and
 * its calendar file to download. No sessions (or none left): no section at all, the dashboard stays as it was.
 */
export function UpcomingSessions() {
  const sessions = useQuery(learnerSessionsQueryOptions());
  const now = useNow(JOIN_CHECK_MS);
  const items = (sessions.data?.items ?? []).filter((s) => joinWindow(s).endsAt > now);

  if (sessions.isPending) return null;
  if (sessions.isError) {
    return (
      <p role="alert" className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        Your live sessions could not be loaded.
        <Button variant="link" className="h-auto p-0" onClick={() => void sessions.refetch()}>
          Load live sessions again
        </Button>
      </p>
    );
  }
  if (items.length === 0) return null;

  return (
    <Card role="region" aria-labelledby="live-sessions-title">
      <CardHeader>
        <CardTitle id="live-sessions-title">Upcoming live sessions</CardTitle>
        <CardDescription>Join opens 15 minutes before the start. Times are in your time zone ({browserZone()}).</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y" aria-label="Upcoming live sessions">
          {items.map((session) => (
            <SessionItem key={session.id} session={session} now={now} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function SessionItem({ session, now }: { session: LearnerSession; now: number }) {
  const open = canJoin(session, now);
  const download = useMutation({
    mutationFn: () => fetchSessionCalendar(session.id),
    onSuccess: (blob) => saveFile(blob, `session-${session.id}.ics`),
    onError: (error) => toastError(error, 'The calendar file could not be downloaded. Please try again.'),
  });
  return (
    <li className="grid gap-3 py-4 first:pt-0 last:pb-0" data-testid="live-session">
      <div className="grid gap-1">
        <p className="font-medium [overflow-wrap:anywhere]">{session.title}</p>
        <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">{session.courseTitle}</p>
        <SessionWhen session={session} />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {open ? (
          <Button asChild size="sm">
            <a href={session.joinUrl} target="_blank" rel="noopener noreferrer" aria-label={`Join ${session.title} (opens in a new tab)`}>
              <Video aria-hidden="true" />
              Join
            </a>
          </Button>
        ) : (
          <Button size="sm" disabled aria-label={`Join ${session.title}: ${opensLabel(joinWindow(session).opensAt, now)}`}>
            <Video aria-hidden="true" />
            Join · {opensLabel(joinWindow(session).opensAt, now)}
          </Button>
        )}
        <Button variant="outline" size="sm" loading={download.isPending} aria-label={`Add ${session.title} to your calendar`} onClick={() => download.mutate()}>
          {!download.isPending && <CalendarPlus aria-hidden="true" />}
          Add to calendar
        </Button>
      </div>
    </li>
  );
}
