import { useQuery } from '@tanstack/react-query';
import { CalendarClock } from 'lucide-react';
import { joinWindow } from '@contracts/live-sessions.ts';
import { JoinSessionButton, useNow } from '@/components/session-join.tsx';
import { SessionWhen } from '@/components/session-when.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { browserZone } from '@/lib/format-session.ts';
import { leaderSessionsQueryOptions } from '../api/leader-queries.ts';

/**
 * 'Team live sessions' on the leader's dashboard (issue 30): the upcoming sessions of the courses their licences cover
 * (GET /api/leader/sessions), each with its course, when and where, and the same Join button as the learners' (live
 * from 15 minutes before the start until the end) so the leader may attend too. Loading, failed and empty states of
 * its own: the rest of the dashboard does not wait for it.
 */
export function TeamSessions() {
  const sessions = useQuery(leaderSessionsQueryOptions());
  const now = useNow();
  const items = (sessions.data?.items ?? []).filter((s) => joinWindow(s).endsAt > now);

  return (
    <Card role="region" aria-labelledby="team-sessions-title">
      <CardHeader>
        <CardTitle id="team-sessions-title">Team live sessions</CardTitle>
        <CardDescription>Upcoming sessions of your licensed courses. Join opens 15 minutes before the start. Times are in your time zone ({browserZone()}).</CardDescription>
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <div role="status" className="grid gap-3">
            <span className="sr-only">Loading your team's live sessions...</span>
            <Skeleton className="h-12" />
            <Skeleton className="h-12" />
          </div>
        ) : sessions.isError ? (
          <p role="alert" className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            Your team's live sessions could not be loaded.
            <Button variant="link" className="h-auto p-0" loading={sessions.isFetching} onClick={() => void sessions.refetch()}>
              Load live sessions again
            </Button>
          </p>
        ) : items.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <CalendarClock aria-hidden="true" className="size-4 shrink-0" />
            No upcoming live sessions. When a course's creator schedules one, it appears here.
          </p>
        ) : (
          <ul className="divide-y" aria-label="Team live sessions">
            {items.map((session) => (
              <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0" data-testid="team-session">
                <div className="grid min-w-0 gap-1">
                  <p className="font-medium [overflow-wrap:anywhere]">{session.title}</p>
                  <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">{session.courseTitle}</p>
                  <SessionWhen session={session} />
                </div>
                <JoinSessionButton session={session} now={now} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
