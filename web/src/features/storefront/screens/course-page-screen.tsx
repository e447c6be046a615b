import { useQuery } from '@tanstack/react-query';
import { BookOpen, CircleCheck, ClipboardPen, FileText, ListChecks, PlayCircle, RotateCw, SearchX } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import type { LessonKind } from '@contracts/courses.ts';
import type { PublicCoursePage } from '@contracts/storefront.ts';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { paths } from '@/lib/paths.ts';
import { PURCHASE_PARAM, publicCourseQueryOptions, useCourseView } from '../api/storefront-queries.ts';
import { BuyBox, PURCHASE_NEXT, PURCHASE_RECEIVED } from '../components/buy-box.tsx';
import { CreatorAvatar } from '../components/creator-avatar.tsx';
import { StorefrontLayout, StorefrontMessage } from '../components/storefront-layout.tsx';
import { SiteLink, useStorefrontLinks, useStorefrontSite } from '../storefront-site.tsx';
import { usePageMeta } from '../use-page-meta.ts';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const kindLabels: Record<LessonKind, string> = { video: 'Video', text: 'Reading', quiz: 'Quiz', assignment: 'Assignment' };
const kindIcons = { video: PlayCircle, text: FileText, quiz: ListChecks, assignment: ClipboardPen } as const;

/**
 * `/c/:courseId`: a published course's storefront, for anyone (no sign-in). On a creator's custom domain, only their
 * courses: another creator's is not found there. (Its view is not recorded there: the domain's edge passes only the
 * public reads to the API.)
 */
export function CoursePageScreen() {
  const { courseId = '' } = useParams();
  const [params] = useSearchParams();
  const site = useStorefrontSite();
  const links = useStorefrontLinks();
  const query = useQuery(publicCourseQueryOptions(courseId));
  const elsewhere = site !== undefined && query.data !== undefined && query.data.creatorSlug !== site.creatorSlug;
  const course = elsewhere ? { ...query, data: undefined } : query;
  const notFound = elsewhere || (course.error instanceof ApiError && course.error.code === 'NOT_FOUND');
  useCourseView(courseId, course.data !== undefined && site === undefined);
  usePageMeta(
    course.data
      ? { title: course.data.title, description: course.data.description || `An online course by ${course.data.creatorName}.`, type: 'product' }
      : notFound
        ? { title: 'Course not found', description: 'This course is not available.', type: 'website' }
        : undefined,
  );

  return (
    <StorefrontLayout branding={course.data?.branding} home={course.data?.creatorSlug ? links.creator(course.data.creatorSlug) : undefined}>
      {course.isPending ? (
        <CourseSkeleton />
      ) : notFound ? (
        <StorefrontMessage
          icon={<SearchX aria-hidden="true" />}
          title="This course isn't available"
          action={
            <Button asChild variant="outline">
              <Link to={paths.home}>Go to the home page</Link>
            </Button>
          }
        >
          It may have been unpublished by its creator, or the link is not quite right.
        </StorefrontMessage>
      ) : course.isError || !course.data ? (
        <StorefrontMessage
          icon={<RotateCw aria-hidden="true" />}
          title="This page could not be loaded"
          action={
            <Button variant="outline" loading={course.isFetching} onClick={() => void course.refetch()}>
              Try again
            </Button>
          }
        >
          Check your connection and try again.
        </StorefrontMessage>
      ) : (
        <CourseView course={course.data} purchased={params.get(PURCHASE_PARAM) === 'success'} />
      )}
    </StorefrontLayout>
  );
}

function CourseView({ course, purchased }: { course: PublicCoursePage; purchased: boolean }) {
  const links = useStorefrontLinks();
  const videos = course.lessons.filter((l) => l.kind === 'video').length;
  const quizzes = course.lessons.filter((l) => l.kind === 'quiz').length;
  const readings = course.lessons.length - videos - quizzes;
  return (
    <div className="relative isolate">
      <div aria-hidden="true" className="absolute inset-x-0 top-0 -z-10 h-96 bg-linear-to-b from-muted to-background" />
      {purchased && (
        <div className="border-b border-emerald-200 bg-emerald-50">
          <div role="status" className="mx-auto flex max-w-6xl items-start gap-3 px-4 py-4 sm:px-6" data-testid="purchase-confirmation">
            <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700" />
            <p className="text-sm text-emerald-950">
              <strong className="font-semibold">{PURCHASE_RECEIVED}</strong> {PURCHASE_NEXT}
            </p>
          </div>
        </div>
      )}
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-x-12 lg:py-14">
        <section aria-labelledby="course-title" className="grid content-start gap-5">
          <p className="text-sm font-medium text-muted-foreground">Online course</p>
          <h1 id="course-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            {course.title}
          </h1>
          {course.description && <p className="max-w-2xl whitespace-pre-line text-base text-muted-foreground sm:text-lg">{course.description}</p>}
          <div className="flex items-center gap-3">
            <CreatorAvatar name={course.creatorName} url={course.creatorAvatarUrl} className="size-11" />
            <p className="grid text-sm">
              <span className="text-muted-foreground">Created by</span>
              {course.creatorSlug ? (
                <SiteLink to={links.creator(course.creatorSlug)} className="w-fit rounded-sm font-medium underline decoration-muted-foreground/40 underline-offset-4 outline-none hover:decoration-foreground focus-visible:ring-2 focus-visible:ring-ring">
                  {course.creatorName}
                </SiteLink>
              ) : (
                <span className="font-medium">{course.creatorName}</span>
              )}
            </p>
          </div>
          <ul aria-label="Course contents" className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-muted-foreground">
            <li className="flex items-center gap-1.5">
              <BookOpen aria-hidden="true" className="size-4" />
              {plural(course.lessons.length, 'lesson', 'lessons')}
            </li>
            {videos > 0 && (
              <li className="flex items-center gap-1.5">
                <PlayCircle aria-hidden="true" className="size-4" />
                {plural(videos, 'video', 'videos')}
              </li>
            )}
            {readings > 0 && (
              <li className="flex items-center gap-1.5">
                <FileText aria-hidden="true" className="size-4" />
                {plural(readings, 'reading', 'readings')}
              </li>
            )}
            {quizzes > 0 && (
              <li className="flex items-center gap-1.5">
                <ListChecks aria-hidden="true" className="size-4" />
                {plural(quizzes, 'quiz', 'quizzes')}
              </li>
            )}
          </ul>
        </section>

        <aside aria-label="Price" className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <div className="lg:sticky lg:top-20">
            <BuyBox course={course} purchased={purchased} />
          </div>
        </aside>

        <section aria-labelledby="lessons-title" className="grid content-start gap-4 lg:col-start-1 lg:row-start-2">
          <h2 id="lessons-title" className="text-xl font-semibold tracking-tight">
            What&apos;s inside
          </h2>
          {course.lessons.length === 0 ? (
            <p className="rounded-xl border border-dashed bg-subtle px-4 py-6 text-sm text-muted-foreground">The lessons of this course are on their way.</p>
          ) : (
            <ol className="divide-y overflow-hidden rounded-xl border bg-card" data-testid="lesson-list">
              {course.lessons.map((lesson, index) => {
                const Icon = kindIcons[lesson.kind];
                return (
                  <li key={`${index}-${lesson.title}`} className="flex items-center gap-3 px-4 py-3">
                    <span aria-hidden="true" className="grid size-7 shrink-0 place-items-center rounded-full bg-muted text-xs font-medium tabular-nums text-muted-foreground">
                      {index + 1}
                    </span>
                    <span className="min-w-0 flex-1 text-sm font-medium break-words">{lesson.title}</span>
                    <span className="flex shrink-0 items-center gap-1.5 text-xs text-muted-foreground">
                      <Icon aria-hidden="true" className="size-3.5" />
                      {kindLabels[lesson.kind]}
                    </span>
                  </li>
                );
              })}
            </ol>
          )}
        </section>
      </div>
    </div>
  );
}

function CourseSkeleton() {
  return (
    <div role="status" aria-busy="true" className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-x-12 lg:py-14">
      <span className="sr-only">Loading the course...</span>
      <div className="grid content-start gap-4">
        <Skeleton className="h-4 w-28" />
        <Skeleton className="h-10 w-3/4" />
        <Skeleton className="h-4 w-full max-w-xl" />
        <Skeleton className="h-4 w-2/3 max-w-lg" />
        <div className="flex items-center gap-3">
          <Skeleton className="size-11 rounded-full" />
          <Skeleton className="h-4 w-32" />
        </div>
        <Skeleton className="mt-6 h-48 w-full rounded-xl" />
      </div>
      <Skeleton className="h-80 w-full rounded-xl" />
    </div>
  );
}
