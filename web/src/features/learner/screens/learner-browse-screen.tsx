import { useQuery } from '@tanstack/react-query';
import { ArrowRight, BookOpen, Compass } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { BrowseCourse } from '@contracts/storefront.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatPounds } from '@/lib/format-money.ts';
import { paths, publicCoursePath } from '@/lib/paths.ts';
import { learnerBrowseQueryOptions } from '../api/learning-queries.ts';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * Browse: the courses on sale from the creators the learner already learns with (not those they have), each opening
 * its public page, where it is bought.
 */
export function LearnerBrowseScreen() {
  const browse = useQuery(learnerBrowseQueryOptions());

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Browse" description="More courses from the creators you learn with." />
      {browse.isPending ? (
        <div role="status" aria-busy="true" className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          <span className="sr-only">Loading courses...</span>
          <Skeleton className="h-52 rounded-xl" />
          <Skeleton className="h-52 rounded-xl" />
          <Skeleton className="h-52 rounded-xl" />
        </div>
      ) : browse.isError ? (
        <EmptyState
          icon={Compass}
          title="Courses could not be loaded"
          action={
            <Button variant="outline" loading={browse.isFetching} onClick={() => void browse.refetch()}>
              Try again
            </Button>
          }
        >
          Check your connection and try again.
        </EmptyState>
      ) : browse.data.items.length === 0 ? (
        <EmptyState
          icon={Compass}
          title="Nothing new to browse yet"
          action={
            <Button asChild variant="outline">
              <Link to={paths.learner.courses}>Go to my courses</Link>
            </Button>
          }
        >
          When the creators you learn with put other courses on sale, they appear here.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {browse.data.items.map((course) => (
            <li key={course.id} className="grid">
              <BrowseCard course={course} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function BrowseCard({ course }: { course: BrowseCourse }) {
  return (
    <Card className="flex flex-col gap-3 p-5">
      <div className="flex items-start gap-3">
        <span aria-hidden="true" className="grid size-10 shrink-0 place-items-center rounded-lg bg-secondary text-secondary-foreground">
          <BookOpen className="size-5" />
        </span>
        <div className="min-w-0">
          <h2 className="font-semibold leading-snug break-words">{course.title}</h2>
          <p className="text-sm text-muted-foreground">by {course.creatorName}</p>
        </div>
      </div>
      {course.description && <p className="line-clamp-3 text-sm text-muted-foreground">{course.description}</p>}
      <div className="mt-auto flex items-center justify-between gap-3 border-t pt-3">
        <span className="text-sm text-muted-foreground">
          {plural(course.lessonCount, 'lesson', 'lessons')} · <span className="font-semibold text-foreground">{formatPounds(course.priceAmount)}</span>
        </span>
        <Button asChild size="sm">
          <Link to={publicCoursePath(course.id)} aria-label={`View course: ${course.title}`}>
            View course
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </Card>
  );
}
