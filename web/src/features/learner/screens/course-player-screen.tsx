import { useQuery } from '@tanstack/react-query';
import type { LearnerLesson } from '@contracts/courses.ts';
import { ArrowLeft, ArrowRight, BookOpen, CircleCheck, Circle, ClipboardPen, FileText, ListChecks, Lock, PlayCircle } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { SchoolMark, schoolColours } from '@/components/school-mark.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { formatSessionStart } from '@/lib/format-session.ts';
import { learnerCoursePath, paths } from '@/lib/paths.ts';
import { cn } from '@/lib/utils.ts';
import { learnerLessonQueryOptions, learnerOutlineQueryOptions, useCompleteLesson } from '../api/learning-queries.ts';
import { LessonAssignment } from '../components/lesson-assignment.tsx';
import { LessonAttachments } from '../components/lesson-attachments.tsx';
import { LessonBody } from '../components/lesson-body.tsx';
import { LessonQuiz } from '../components/lesson-quiz.tsx';
import { LessonVideo } from '../components/lesson-video.tsx';
import { UpcomingSessions } from '../components/upcoming-sessions.tsx';
import { UploadedVideo } from '../components/uploaded-video.tsx';
import { LessonDiscussion } from '@/components/discussion/lesson-discussion.tsx';

const kindIcons = { text: FileText, video: PlayCircle, quiz: ListChecks, assignment: ClipboardPen } as const;

/**
 * The course player: the course's outline (the lessons in order with a tick on each completed one, the progress bar),
 * and the chosen lesson (`?lesson=`, else the first one not completed), read on its own when it is opened: its video
 * (a link, or an uploaded file through a signed URL), text or quiz and its attachments, and 'Mark complete', which
 * moves the progress bar at once. A quiz has no 'Mark complete': passing it completes the lesson; nor has an assignment
 * (issue 35): the learner hands in their answer and the creator's pass completes it. Above the lessons, the
 * course's upcoming live sessions (issue 30), when it has any. A drip lesson not open yet (issue 33) is listed with a
 * lock and its opening date, and shows only that; the outline is read again when the next one opens, so it opens on
 * screen on time.
 */
export function CoursePlayerScreen() {
  const { courseId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const course = useQuery(learnerOutlineQueryOptions(courseId));
  const complete = useCompleteLesson(courseId);
  const lessons = course.data?.lessons ?? [];
  // Progress counts the open lessons (drip release): while one is locked, 100% is not the course complete, so say so.
  const progressWords = lessons.some((l) => l.locked) ? '% of open lessons done' : '% complete';
  // The lesson a completion pins (below): held here too, since the address changes only once the router's navigation
  // is over, which may be after the completion's answer has ticked the lesson (the player would jump to the next one).
  const [pinned, setPinned] = useState<string | null>(null);
  const pin = (lessonId: string) => {
    setPinned(lessonId);
    setSearch({ lesson: lessonId }, { replace: true });
  };
  const current = lessons.find((l) => l.id === (search.get('lesson') ?? pinned)) ?? lessons.find((l) => !l.completed && !l.locked) ?? lessons.find((l) => !l.completed) ?? lessons[0];
  // A locked lesson is not read (its route answers 403 LESSON_LOCKED): the outline says when it opens.
  const opened = useQuery({ ...learnerLessonQueryOptions(courseId, current?.id ?? ''), enabled: current !== undefined && !current.locked });
  const nextOpening = lessons
    .filter((l) => l.locked && l.availableAt)
    .map((l) => Date.parse(l.availableAt!))
    .sort((a, b) => a - b)[0];
  const { refetch } = course;
  useEffect(() => {
    if (nextOpening === undefined) return;
    // setTimeout's longest wait is ~24.8 days: a later opening is waited for in steps.
    const timer = setTimeout(() => void refetch(), Math.min(Math.max(0, nextOpening - Date.now()) + 1000, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [nextOpening, refetch]);

  if (course.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner /> Loading the course...
      </p>
    );
  }
  if (course.isError) {
    const status = course.error instanceof ApiError ? course.error.status : 0;
    // 404: not one of theirs; 403: their team's licence ended (the server says so); anything else: a failure.
    const [title, heading, detail] =
      status === 404
        ? ['Course not found', 'This course is not one of yours', 'You can open the courses you are enrolled in from My Courses.']
        : status === 403
          ? ['Access ended', 'Your access to this course has ended', course.error.message]
          : ['The course could not be loaded', 'Something went wrong', 'Try again in a moment.'];
    return (
      <div className="grid gap-6 *:min-w-0">
        <PageHeader title={title} />
        <EmptyState
          icon={BookOpen}
          title={heading}
          action={
            <Button asChild variant="outline">
              <Link to={paths.learner.courses}>Back to my courses</Link>
            </Button>
          }
        >
          {detail}
        </EmptyState>
      </div>
    );
  }

  const index = current ? lessons.indexOf(current) : -1;
  const previous = index > 0 ? lessons[index - 1] : undefined;
  const next = index >= 0 ? lessons[index + 1] : undefined;
  const KindIcon = current ? kindIcons[current.kind] : FileText;

  const { branding } = course.data;
  // A branded creator's player (issue 32): their school's mark over the course, their colour on its buttons and progress.
  const colours = schoolColours(branding);

  return (
    <div className="grid gap-6 *:min-w-0" style={colours} data-branded={branding ? 'true' : undefined}>
      {branding && (
        <div className="flex items-center border-b pb-4" data-testid="player-school">
          <SchoolMark name={branding.schoolName} logoUrl={branding.logoUrl} primaryColor={branding.primaryColor} onPrimaryColor={branding.onPrimaryColor} />
        </div>
      )}
      <PageHeader title={course.data.title} description={`By ${course.data.creatorName}`} />
      <div className="flex items-center gap-3">
        <Progress value={course.data.progress} aria-label={`Course progress: ${course.data.progress}${progressWords}`} className="flex-1" />
        <span className="text-sm tabular-nums" data-testid="course-progress">
          {course.data.progress}
          {progressWords}
        </span>
      </div>

      <UpcomingSessions courseId={courseId} />

      {lessons.length === 0 || !current ? (
        <EmptyState icon={BookOpen} title="No lessons yet">
          The creator has not added lessons to this course yet. They will appear here.
        </EmptyState>
      ) : (
        <div className="grid gap-6 *:min-w-0 lg:grid-cols-[18rem_1fr]">
          <nav aria-label="Lessons">
            <ol className="grid gap-1">
              {lessons.map((lesson, i) => (
                <li key={lesson.id}>
                  <Link
                    to={learnerCoursePath(courseId, lesson.id)}
                    aria-current={lesson.id === current.id ? 'page' : undefined}
                    aria-label={`${i + 1}. ${lesson.title}${lesson.completed ? ', completed' : ''}${lesson.locked && lesson.availableAt ? `, locked until ${formatSessionStart(lesson.availableAt)}` : ''}`}
                    className={cn(
                      'flex items-center gap-2 rounded-md px-3 py-2 text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring',
                      lesson.id === current.id && 'bg-accent font-medium',
                    )}
                  >
                    {lesson.completed ? (
                      <CircleCheck aria-hidden="true" className="size-4 shrink-0 text-primary" />
                    ) : lesson.locked ? (
                      <Lock aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                    ) : (
                      <Circle aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                    )}
                    <span className={cn('min-w-0 flex-1', lesson.locked && 'text-muted-foreground')}>
                      {i + 1}. {lesson.title}
                      {lesson.locked && lesson.availableAt && <span className="block text-xs">Opens {formatSessionStart(lesson.availableAt)}</span>}
                    </span>
                  </Link>
                </li>
              ))}
            </ol>
          </nav>

          <div className="grid gap-6 *:min-w-0">
          <Card className="grid gap-5 p-5 sm:p-6">
            <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
              <KindIcon aria-hidden="true" className="size-4" />
              Lesson {index + 1} of {lessons.length}
              {current.kind === 'quiz' && ' · Quiz'}
              {current.kind === 'assignment' && ' · Assignment'}
            </div>
            <h2 className="text-xl font-semibold tracking-tight">{current.title}</h2>
            {current.locked ? (
              <LessonLocked availableAt={current.availableAt ?? null} />
            ) : opened.isPending ? (
              <LessonLoading />
            ) : opened.isError ? (
              <LessonFailed error={opened.error} retrying={opened.isFetching} onRetry={() => void opened.refetch()} />
            ) : (
              <LessonContent courseId={courseId} lesson={opened.data} onQuizSubmit={() => pin(current.id)} />
            )}

            <div className="flex flex-wrap items-center gap-2 border-t pt-4">
              {current.locked ? null : current.completed ? (
                <p className="flex items-center gap-2 text-sm font-medium">
                  <CircleCheck aria-hidden="true" className="size-4 text-primary" /> Completed
                </p>
              ) : current.kind === 'quiz' ? (
                opened.data?.quiz &&
                opened.data.quiz.attemptsLeft !== 0 && <p className="text-sm text-muted-foreground">Pass the quiz to complete this lesson.</p>
              ) : current.kind === 'assignment' ? (
                // The server refuses 'Mark complete' on an assignment: the creator's pass completes it.
                opened.isSuccess && <p className="text-sm text-muted-foreground">This lesson is complete once your creator passes your submission.</p>
              ) : !opened.isSuccess ? null : (
                // Offered once the lesson is on screen (not while it loads, nor when it failed to).
                <Button
                  loading={complete.isPending}
                  onClick={() => {
                    // Pinned in the address: once completed, the lesson stays on screen instead of the next one.
                    pin(current.id);
                    complete.mutate(current.id);
                  }}
                >
                  <CircleCheck aria-hidden="true" />
                  Mark complete
                </Button>
              )}
              <div className="ml-auto flex flex-wrap gap-2">
                {previous && (
                  <Button asChild variant="outline">
                    <Link to={learnerCoursePath(courseId, previous.id)}>
                      <ArrowLeft aria-hidden="true" />
                      Previous lesson
                    </Link>
                  </Button>
                )}
                {next && (
                  <Button asChild variant="outline">
                    <Link to={learnerCoursePath(courseId, next.id)}>
                      Next lesson
                      <ArrowRight aria-hidden="true" />
                    </Link>
                  </Button>
                )}
              </div>
            </div>
          </Card>
          {/* The lesson's discussion (issue 35 point 1), once the lesson itself opened: keyed by lesson, so a draft
              reply does not follow the learner to the next one. */}
          {!current.locked && opened.isSuccess && (
            <Card className="p-5 sm:p-6">
              <LessonDiscussion key={current.id} courseId={courseId} lessonId={current.id} viewer="learner" />
            </Card>
          )}
          </div>
        </div>
      )}
    </div>
  );
}

/** A drip lesson not open to the learner yet: a lock and when it opens (in their zone), nothing of its content. */
function LessonLocked({ availableAt }: { availableAt: string | null }) {
  return (
    <div className="grid justify-items-center gap-3 rounded-lg bg-muted p-6 text-center" data-testid="lesson-locked">
      <Lock aria-hidden="true" className="size-8 text-muted-foreground" />
      <p className="font-medium">This lesson is locked</p>
      <p className="text-sm text-muted-foreground">{availableAt ? `It opens on ${formatSessionStart(availableAt)}. We will email you when it does.` : 'It opens later.'}</p>
    </div>
  );
}

/** The lesson's place while it loads: its shape, and a status for screen readers. */
function LessonLoading() {
  return (
    <div role="status" aria-busy="true" className="grid gap-3">
      <span className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner /> Loading the lesson...
      </span>
      <Skeleton className="aspect-video w-full sm:aspect-[3/1]" />
      <Skeleton className="h-4 w-3/4" />
      <Skeleton className="h-4 w-1/2" />
    </div>
  );
}

/** A lesson that could not be loaded: gone from the course meanwhile (404), access ended (403), or a failure to retry. */
function LessonFailed({ error, retrying, onRetry }: { error: Error; retrying: boolean; onRetry: () => void }) {
  const status = error instanceof ApiError ? error.status : 0;
  if (status === 404) {
    return <p className="rounded-lg bg-muted p-4 text-center text-sm text-muted-foreground">This lesson is no longer in the course. Choose another one from the list.</p>;
  }
  if (status === 403) return <p className="rounded-lg bg-muted p-4 text-center text-sm text-muted-foreground">{error.message}</p>;
  return <LoadFailed message="The lesson could not be loaded." onRetry={onRetry} retrying={retrying} />;
}

/** What a lesson shows: its assignment, its quiz, its video (a link or an uploaded file), or its text; then its attachments. */
function LessonContent({ courseId, lesson, onQuizSubmit }: { courseId: string; lesson: LearnerLesson; onQuizSubmit: () => void }) {
  const files = lesson.files.filter((f) => f.status === 'ready');
  const uploadedVideo = files.find((f) => f.kind === 'video');
  const attachments = files.filter((f) => f.kind === 'attachment');
  return (
    <>
      {lesson.kind === 'assignment' ? (
        lesson.assignment ? (
          <LessonAssignment key={lesson.id} courseId={courseId} lessonId={lesson.id} assignment={lesson.assignment} completed={lesson.completed} />
        ) : (
          <p className="rounded-lg bg-muted p-4 text-center text-sm text-muted-foreground">This assignment is not available yet.</p>
        )
      ) : lesson.kind === 'quiz' ? (
        lesson.quiz ? (
          // Keyed by lesson: another quiz starts with no answers. Pinned in the address on submit, as for 'Mark
          // complete': once passed, the quiz stays on screen with its result.
          <LessonQuiz key={lesson.id} courseId={courseId} lessonId={lesson.id} quiz={lesson.quiz} onSubmit={onQuizSubmit} />
        ) : (
          <p className="rounded-lg bg-muted p-4 text-center text-sm text-muted-foreground">This quiz is not available yet.</p>
        )
      ) : lesson.kind === 'video' ? (
        lesson.videoUrl ? (
          <LessonVideo url={lesson.videoUrl} title={lesson.title} />
        ) : uploadedVideo ? (
          <UploadedVideo key={uploadedVideo.id} courseId={courseId} file={uploadedVideo} title={lesson.title} />
        ) : (
          <p className="grid aspect-video w-full place-items-center rounded-lg bg-muted p-4 text-center text-sm text-muted-foreground">
            This video is not available yet.
          </p>
        )
      ) : (
        <LessonBody html={lesson.body ?? ''} />
      )}
      {attachments.length > 0 && <LessonAttachments courseId={courseId} files={attachments} />}
    </>
  );
}
