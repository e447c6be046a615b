import { useMutation, useQuery } from '@tanstack/react-query';
import { CalendarPlus } from 'lucide-react';
import { joinWindow, type LearnerSession } from '@contracts/live-sessions.ts';
import { JoinSessionButton, useNow } from '@/components/session-join.tsx';
import { SessionWhen } from '@/components/session-when.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { toastError } from '@/components/ui/toaster.tsx';
import { browserZone } from '@/lib/format-session.ts';
import { saveFile } from '@/lib/save-file.ts';
import { fetchSessionCalendar, learnerSessionsQueryOptions } from '../api/learning-queries.ts';

/**
 * 'Upcoming live sessions' (issue 30): on 'My Learning' the sessions of the learner's courses that have not ended; in
 * the course player (`courseId`) that course's only, without repeating the course's name. Each with a Join button live
 * from 15 minutes before the start until the end (looked at again every 30 seconds) and its calendar file to download.
 * No sessions (or none left): no section at all, the screen stays as it was.
 */
export function UpcomingSessions({ courseId }: { courseId?: string } = {}) {
  const sessions = useQuery(learnerSessionsQueryOptions(courseId));
  const now = useNow();
  const items = (sessions.data?.items ?? []).filter((s) => joinWindow(s).endsAt > now);

  if (sessions.isPending) return null;
  if (sessions.isError) {
    return (
      <p role="alert" className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        {courseId === undefined ? 'Your live sessions could not be loaded.' : "This course's live sessions could not be loaded."}
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
            <SessionItem key={session.id} session={session} now={now} showCourse={courseId === undefined} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function SessionItem({ session, now, showCourse }: { session: LearnerSession; now: number; showCourse: boolean }) {
  const download = useMutation({
    mutationFn: () => fetchSessionCalendar(session.id),
    onSuccess: (blob) => saveFile(blob, `session-${session.id}.ics`),
    onError: (error) => toastError(error, 'The calendar file could not be downloaded. Please try again.'),
  });
  return (
    <li className="grid gap-3 py-4 first:pt-0 last:pb-0" data-testid="live-session">
      <div className="grid gap-1">
        <p className="font-medium [overflow-wrap:anywhere]">{session.title}</p>
        {showCourse && <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">{session.courseTitle}</p>}
        <SessionWhen session={session} />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <JoinSessionButton session={session} now={now} />
        <Button variant="outline" size="sm" loading={download.isPending} aria-label={`Add ${session.title} to your calendar`} onClick={() => download.mutate()}>
          {!download.isPending && <CalendarPlus aria-hidden="true" />}
          Add to calendar
        </Button>
      </div>
    </li>
  );
}
