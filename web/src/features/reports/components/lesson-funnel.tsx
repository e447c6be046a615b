import type { CourseReport } from '@contracts/reports.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { reportsMessages as m } from '../reports-messages.ts';

const width = (n: number, of: number): string => `${of > 0 ? Math.max(n > 0 ? 1 : 0, Math.round((n / of) * 100)) : 0}%`;

/**
 * The lesson funnel as a bar chart: per lesson in course order, a bar of the learners who reached it and, inside it,
 * of those who completed it, on the scale of the course's enrolled learners; the drop from the lesson before is said
 * in words. Plain CSS bars (no chart library); every number is text, so the chart reads the same to a screen reader.
 */
export function LessonFunnel({ report }: { report: CourseReport }) {
  const scale = Math.max(report.enrolled, ...report.lessons.map((l) => l.reached), 1);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{m.funnel}</CardTitle>
        <CardDescription>{m.funnelDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        <div aria-hidden="true" className="mb-4 flex flex-wrap gap-4 text-xs text-muted-foreground">
          <span className="inline-flex items-center gap-1.5">
            <span className="size-3 rounded-sm bg-primary/40" /> {m.reached}
          </span>
          <span className="inline-flex items-center gap-1.5">
            <span className="size-3 rounded-sm bg-primary" /> {m.completedLesson}
          </span>
        </div>
        {report.lessons.length === 0 ? (
          <p className="text-sm text-muted-foreground">{m.noLessons}</p>
        ) : (
          <ol className="grid gap-4" aria-label={m.funnel}>
            {report.lessons.map((lesson, i) => {
              const before = i > 0 ? report.lessons[i - 1]!.reached : report.enrolled;
              const drop = before - lesson.reached;
              return (
                <li key={lesson.lessonId} className="grid gap-1.5">
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 text-sm">
                    <span className="min-w-0 font-medium break-words">
                      {i + 1}. {lesson.title}
                    </span>
                    <span className="text-muted-foreground tabular-nums">
                      {m.reached} {lesson.reached.toLocaleString('en-GB')} · {m.completedLesson} {lesson.completed.toLocaleString('en-GB')}
                    </span>
                  </div>
                  <div aria-hidden="true" className="relative h-5 overflow-hidden rounded-md bg-muted">
                    <div className="absolute inset-y-0 left-0 rounded-md bg-primary/40" style={{ width: width(lesson.reached, scale) }} />
                    <div className="absolute inset-y-0 left-0 rounded-md bg-primary" style={{ width: width(lesson.completed, scale) }} />
                  </div>
                  {drop > 0 && <p className="text-xs text-destructive">{m.dropOff(drop, i === 0)}</p>}
                </li>
              );
            })}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
