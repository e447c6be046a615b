import { Award, Info, KeyRound, Target, Users } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { SampleDataBadge, StatCard } from '@/components/ui/stat-card.tsx';

// SPEC.md "Group leader dashboard": static demo content until the licensing issue brings real teams.
const members = [
  { name: 'Alex Morgan', course: 'Excel for Teams', progress: 92 },
  { name: 'Priya Shah', course: 'Public Speaking Basics', progress: 64 },
  { name: 'Jordan Lee', course: 'Excel for Teams', progress: 38 },
  { name: 'Sam Taylor', course: 'Project Management 101', progress: 15 },
];

const licenses = [
  { course: 'Excel for Teams', used: 18, total: 25 },
  { course: 'Public Speaking Basics', used: 9, total: 10 },
  { course: 'Project Management 101', used: 4, total: 15 },
];

export function LeaderDashboardScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Group Leader Dashboard" description="How your team is learning." actions={<SampleDataBadge />} />

      <aside role="note" aria-label="About these figures" className="flex items-start gap-3 rounded-lg border border-dashed bg-muted/40 p-4 text-sm">
        <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
        <p>
          <span className="font-medium">These figures are samples.</span>{' '}
          <span className="text-muted-foreground">
            Your team's real members, licences and progress appear here once a creator licenses a course to you.
          </span>
        </p>
      </aside>

      <section aria-label="Key figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Team Members" value="31" detail="In 3 groups" icon={Users} />
        <StatCard label="Licenses" value="31 / 50" detail="Seats in use" icon={KeyRound} />
        <StatCard label="Completion Rate" value="57%" detail="Team average" icon={Target} />
        <StatCard label="Certificates" value="14" detail="Earned by your team" icon={Award} />
      </section>

      <div className="grid gap-6 *:min-w-0 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Team Progress</CardTitle>
            <CardDescription>Members and their current course.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y">
              {members.map((m) => (
                <li key={m.name} className="grid gap-2 py-3 first:pt-0 last:pb-0">
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <p className="text-sm font-medium">{m.name}</p>
                    <p className="text-xs text-muted-foreground">{m.course}</p>
                  </div>
                  <div className="flex items-center gap-3">
                    <Progress value={m.progress} aria-label={`${m.name}: ${m.progress}% complete`} className="flex-1" />
                    <span className="w-10 text-right text-xs tabular-nums text-muted-foreground">{m.progress}%</span>
                  </div>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>License Usage</CardTitle>
            <CardDescription>Seats assigned per licensed course.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y">
              {licenses.map((l) => (
                <li key={l.course} className="grid gap-2 py-3 first:pt-0 last:pb-0">
                  <div className="flex items-baseline justify-between gap-3">
                    <p className="text-sm font-medium">{l.course}</p>
                    <p className="text-xs tabular-nums text-muted-foreground">
                      {l.used} of {l.total} seats
                    </p>
                  </div>
                  <Progress value={(l.used / l.total) * 100} aria-label={`${l.course}: ${l.used} of ${l.total} seats used`} />
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
