import { useQuery } from '@tanstack/react-query';
import { BookOpen, ClipboardPen, FileText, ListChecks, PlayCircle } from 'lucide-react';
import { useParams, useSearchParams } from 'react-router-dom';
import type { LessonKind } from '@contracts/courses.ts';
import type { PublicCoursePage } from '@contracts/storefront.ts';
import { PURCHASE_PARAM, publicCourseQueryOptions, useCourseView } from '../api/storefront-queries.ts';
import { BuyBox } from '../components/buy-box.tsx';
import { ProductPage, ProductView, useSiteProduct } from '../components/product-page.tsx';
import { useStorefrontSite } from '../storefront-site.tsx';
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
  const { product: course, notFound } = useSiteProduct(useQuery(publicCourseQueryOptions(courseId)));
  useCourseView(courseId, course.data !== undefined && site === undefined);
  usePageMeta(
    course.data
      ? { title: course.data.title, description: course.data.description || `An online course by ${course.data.creatorName}.`, type: 'product' }
      : notFound
        ? { title: 'Course not found', description: 'This course is not available.', type: 'website' }
        : undefined,
  );

  return (
    <ProductPage
      product={course}
      notFound={notFound}
      loading="Loading the course..."
      unavailable={{ title: "This course isn't available", text: 'It may have been unpublished by its creator, or the link is not quite right.' }}
    >
      {(data) => <CourseView course={data} purchased={params.get(PURCHASE_PARAM) === 'success'} />}
    </ProductPage>
  );
}

function CourseView({ course, purchased }: { course: PublicCoursePage; purchased: boolean }) {
  const videos = course.lessons.filter((l) => l.kind === 'video').length;
  const quizzes = course.lessons.filter((l) => l.kind === 'quiz').length;
  const readings = course.lessons.length - videos - quizzes;
  return (
    <ProductView
      product={course}
      purchased={purchased}
      id="course"
      kicker="Online course"
      facts={
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
      }
      buyBox={<BuyBox course={course} purchased={purchased} />}
      contentsId="lessons-title"
      contentsHeading="What's inside"
    >
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
    </ProductView>
  );
}
