import { useQuery } from '@tanstack/react-query';
import { ArrowRight, Compass } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatPounds } from '@/lib/format-money.ts';
import { paths, publicCoursePath } from '@/lib/paths.ts';
import { learnerBrowseQueryOptions } from '../api/learning-queries.ts';

/** How many recommendations the dashboard shows; Browse has them all. */
export const RECOMMENDED_SHOWN = 3;

const lessons = (n: number) => `${n} ${n === 1 ? 'lesson' : 'lessons'}`;

/**
 * 'My Learning''s recommended list (SPEC.md): courses the learner may take next, from the creators they learn with
 * (GET /api/learner/browse: those creators' courses on sale that the learner does not have, most recent creator
 * first), the first few here with a link to Browse for the rest. Loads on its own: the figures above never wait for it.
 */
export function RecommendedCourses() {
  const browse = useQuery(learnerBrowseQueryOptions());
  const items = browse.data?.items ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recommended for You</CardTitle>
        <CardDescription>More courses from the creators you learn with.</CardDescription>
      </CardHeader>
      <CardContent>
        {browse.isPending ? (
          <div role="status" className="grid gap-3">
            <span className="sr-only">Loading recommendations...</span>
            {Array.from({ length: RECOMMENDED_SHOWN }, (_, n) => (
              <Skeleton key={n} className="h-12 w-full" />
            ))}
          </div>
        ) : browse.isError ? (
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
            <p>Recommendations could not be loaded.</p>
            <Button size="sm" variant="outline" loading={browse.isFetching} onClick={() => void browse.refetch()}>
              Try again
            </Button>
          </div>
        ) : items.length === 0 ? (
          <div className="flex items-start gap-3 text-sm text-muted-foreground">
            <Compass aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <p>No recommendations yet. When the creators you learn with put other courses on sale, they appear here.</p>
          </div>
        ) : (
          <>
            <ul aria-label="Recommended courses" className="divide-y">
              {items.slice(0, RECOMMENDED_SHOWN).map((course) => (
                <li key={course.id} className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0">
                  <div className="min-w-0">
                    <p className="font-medium break-words">{course.title}</p>
                    <p className="text-sm text-muted-foreground">
                      by {course.creatorName} · {lessons(course.lessonCount)} · <span className="font-semibold text-foreground">{formatPounds(course.priceAmount)}</span>
                    </p>
                  </div>
                  <Button asChild size="sm" variant="outline">
                    <Link to={publicCoursePath(course.id)} aria-label={`View course: ${course.title}`}>
                      View course
                      <ArrowRight aria-hidden="true" />
                    </Link>
                  </Button>
                </li>
              ))}
            </ul>
            <Button asChild variant="link" className="mt-2 px-0">
              <Link to={paths.learner.browse}>{items.length > RECOMMENDED_SHOWN ? `Browse all ${items.length}` : 'Browse'}</Link>
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}
