import { Award, BookOpen, CircleCheck, Flame, PlayCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { SampleDataBadge, StatCard } from '@/components/ui/stat-card.tsx';
import { paths } from '@/lib/paths.ts';

// SPEC.md "learner dashboard": static demo content until the enrolment issue brings the learner's courses.
const continueLearning = [
  { title: 'Watercolour for Beginners', next: 'Lesson 5: Wet on wet', progress: 45 },
  { title: 'Public Speaking Basics', next: 'Lesson 2: Finding your voice', progress: 20 },
];

const recommended = [
  { title: 'Colour Theory Essentials', creator: 'Maya Green', level: 'Beginner' },
  { title: 'Storytelling for Presenters', creator: 'Tom Hart', level: 'Intermediate' },
  { title: 'Sketching Every Day', creator: 'Lena Fox', level: 'Beginner' },
];

export function LearnerDashboardScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="My Learning" description="Pick up where you left off." actions={<SampleDataBadge />} />

      <section aria-label="Key figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Enrolled Courses" value="4" detail="2 in progress" icon={BookOpen} />
        <StatCard label="Completed" value="2" detail="This year" icon={CircleCheck} />
        <StatCard label="Certificates" value="2" detail="Ready to download" icon={Award} />
        <StatCard label="Study Streak" value="6 days" detail="Keep it going!" icon={Flame} />
      </section>

      <div className="grid gap-6 *:min-w-0 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Continue Learning</CardTitle>
            <CardDescription>Your courses in progress.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y">
              {continueLearning.map((c) => (
                <li key={c.title} className="grid gap-2 py-4 first:pt-0 last:pb-0">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <div className="min-w-0">
                      <p className="font-medium">{c.title}</p>
                      <p className="text-sm text-muted-foreground">{c.next}</p>
                    </div>
                    <Button asChild size="sm" variant="outline">
                      <Link to={paths.learner.courses} aria-label={`Continue ${c.title}`}>
                        <PlayCircle aria-hidden="true" />
                        Continue
                      </Link>
                    </Button>
                  </div>
                  <div className="flex items-center gap-3">
                    <Progress value={c.progress} aria-label={`${c.title}: ${c.progress}% complete`} className="flex-1" />
                    <span className="w-10 text-right text-xs tabular-nums text-muted-foreground">{c.progress}%</span>
                  </div>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Recommended for You</CardTitle>
            <CardDescription>Courses you might like next.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y">
              {recommended.map((r) => (
                <li key={r.title} className="flex flex-wrap items-center justify-between gap-2 py-3 first:pt-0 last:pb-0">
                  <div className="min-w-0">
                    <p className="font-medium">{r.title}</p>
                    <p className="text-sm text-muted-foreground">by {r.creator}</p>
                  </div>
                  <Badge variant="secondary">{r.level}</Badge>
                </li>
              ))}
            </ul>
            <Button asChild variant="link" className="mt-2 px-0">
              <Link to={paths.learner.browse}>Browse all courses</Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
