import { Video } from 'lucide-react';
import { useEffect, useState } from 'react';
import { canJoin, joinWindow } from '@contracts/live-sessions.ts';
import { Button } from '@/components/ui/button.tsx';
import { formatSessionStart, formatTimeOfDay } from '@/lib/format-session.ts';

/** How often the Join buttons are looked at again (they open 15 minutes before the start and close at the end). */
export const JOIN_CHECK_MS = 30_000;

/** The time now, read again every `everyMs`. */
export function useNow(everyMs: number = JOIN_CHECK_MS): number {
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
 * A live session's Join button (issue 30): a link to the meeting (a new tab) from 15 minutes before the start until
 * the end, else a disabled button saying when it opens. The learner's lists and the leader's team sessions share it.
 */
export function JoinSessionButton({ session, now }: { session: { title: string; startsAt: string; durationMinutes: number; joinUrl: string }; now: number }) {
  if (canJoin(session, now)) {
    return (
      <Button asChild size="sm">
        <a href={session.joinUrl} target="_blank" rel="noopener noreferrer" aria-label={`Join ${session.title} (opens in a new tab)`}>
          <Video aria-hidden="true" />
          Join
        </a>
      </Button>
    );
  }
  const opens = opensLabel(joinWindow(session).opensAt, now);
  return (
    <Button size="sm" disabled aria-label={`Join ${session.title}: ${opens}`}>
      <Video aria-hidden="true" />
      Join · {opens}
    </Button>
  );
}
