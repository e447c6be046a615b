import { ArrowDown, ArrowUp, ClipboardPen, FileText, ListChecks, Pencil, Plus, Trash2, Video } from 'lucide-react';
import { useState } from 'react';
import type { Course, Lesson, UpdateLessonBody } from '@contracts/courses.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { useCreateLesson, useDeleteLesson, useReorderLessons, useUpdateLesson } from '../api/use-course-mutations.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { questionCount } from '../quiz-draft.ts';
import { describeRelease } from '../release-draft.ts';
import { LessonDialog } from './lesson-dialog.tsx';
import { LessonFiles } from './lesson-files.tsx';
import { LessonUploadsProvider, useLessonUploads } from './lesson-uploads.tsx';

/** What a lesson's row says under its title: its kind, a quiz's size and pass mark, whether an assignment takes files, and when a drip lesson opens. */
const lessonSummary = (lesson: Lesson): string =>
  [
    ...(lesson.kind === 'quiz'
      ? ['Quiz', ...(lesson.quiz ? [questionCount(lesson.quiz.questions.length), `pass ${lesson.quiz.passPercent}%`] : [])]
      : lesson.kind === 'assignment'
        ? ['Assignment', ...(lesson.assignment?.acceptsFiles ? ['files accepted'] : [])]
        : [lesson.kind === 'video' ? 'Video' : 'Text']),
    ...[describeRelease(lesson.release)].filter((words): words is string => words !== null),
  ].join(' · ');

const kindIcons = { text: FileText, video: Video, quiz: ListChecks, assignment: ClipboardPen } as const;

/**
 * The course's lessons in order: add (text, video, quiz or assignment), edit, move up or down (buttons, so the keyboard and screen
 * readers can reorder too; the moved lesson keeps the focus), delete after a confirmation. Each lesson lists its
 * files (its uploaded video, its attachments) with their uploads' progress.
 */
export function LessonsPanel({ course }: { course: Course }) {
  return (
    <LessonUploadsProvider courseId={course.id}>
      <Lessons course={course} />
    </LessonUploadsProvider>
  );
}

function Lessons({ course }: { course: Course }) {
  const uploads = useLessonUploads();
  const create = useCreateLesson(course.id);
  const update = useUpdateLesson(course.id);
  const remove = useDeleteLesson(course.id);
  const reorder = useReorderLessons(course.id);
  const [editing, setEditing] = useState<Lesson | 'new' | undefined>();
  /** A new quiz lesson to generate from this text lesson ("Generate quiz" in its editor). */
  const [quizFrom, setQuizFrom] = useState<Lesson | undefined>();
  const [deleting, setDeleting] = useState<Lesson | undefined>();
  const lessons = course.lessons;

  const move = (index: number, by: -1 | 1) => {
    const ids = lessons.map((l) => l.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    reorder.mutate(ids);
    // The button that was pressed may vanish (first or last place): keep the focus on the moved lesson's row.
    requestAnimationFrame(() => document.getElementById(`lesson-${moved}-${by < 0 ? 'up' : 'down'}`)?.focus());
  };

  return (
    <Card aria-labelledby="lessons-title" role="region">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle id="lessons-title">Lessons</CardTitle>
          <CardDescription>{lessons.length === 1 ? '1 lesson' : `${lessons.length} lessons`}, in the order learners take them.</CardDescription>
        </div>
        <Button
          onClick={() => {
            setQuizFrom(undefined);
            setEditing('new');
          }}
        >
          <Plus aria-hidden="true" />
          Add lesson
        </Button>
      </CardHeader>
      <CardContent>
        {lessons.length === 0 ? (
          <p className="rounded-lg border border-dashed bg-subtle px-4 py-8 text-center text-sm text-muted-foreground">
            No lessons yet. Add a text lesson, a video, a quiz or an assignment to start your course.
          </p>
        ) : (
          <ol className="grid grid-cols-[minmax(0,1fr)] gap-2" aria-label="Lessons in order">
            {lessons.map((lesson, index) => (
              <li key={lesson.id} className="flex flex-wrap items-center gap-3 rounded-lg border p-3" data-testid="lesson-row">
                <span aria-hidden="true" className="grid size-7 shrink-0 place-items-center rounded-full bg-muted text-xs font-semibold tabular-nums">
                  {index + 1}
                </span>
                <KindIcon kind={lesson.kind} />
                <span className="min-w-0 flex-1 basis-40">
                  <span className="block truncate font-medium">{lesson.title}</span>
                  <span className="text-xs text-muted-foreground" data-testid="lesson-kind">
                    {lessonSummary(lesson)}
                  </span>
                </span>
                <span className="flex gap-1">
                  <Button
                    id={`lesson-${lesson.id}-up`}
                    variant="ghost"
                    size="icon"
                    className="size-9"
                    aria-label={`Move ${lesson.title} up`}
                    disabled={index === 0 || reorder.isPending}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowUp aria-hidden="true" />
                  </Button>
                  <Button
                    id={`lesson-${lesson.id}-down`}
                    variant="ghost"
                    size="icon"
                    className="size-9"
                    aria-label={`Move ${lesson.title} down`}
                    disabled={index === lessons.length - 1 || reorder.isPending}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDown aria-hidden="true" />
                  </Button>
                  <Button variant="ghost" size="icon" className="size-9" aria-label={`Edit ${lesson.title}`} onClick={() => setEditing(lesson)}>
                    <Pencil aria-hidden="true" />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-9 text-destructive hover:text-destructive"
                    aria-label={`Delete ${lesson.title}`}
                    onClick={() => setDeleting(lesson)}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </span>
                <LessonFiles courseId={course.id} lesson={lesson} />
              </li>
            ))}
          </ol>
        )}
      </CardContent>

      <LessonDialog
        open={editing !== undefined}
        onOpenChange={(open) => {
          if (open) return;
          setEditing(undefined);
          setQuizFrom(undefined);
        }}
        lesson={editing === 'new' || editing === undefined ? undefined : (lessons.find((l) => l.id === editing.id) ?? editing)}
        quizFrom={editing === 'new' ? quizFrom : undefined}
        ai={{
          courseId: course.id,
          textLessons: lessons.filter((l) => l.kind === 'text' && l.body),
          onQuizFrom: (lesson) => {
            setQuizFrom(lesson);
            setEditing('new');
          },
        }}
        saving={create.isPending || update.isPending}
        onSave={(body, video) => {
          const uploadTo = (lessonId: string) => {
            setEditing(undefined);
            setQuizFrom(undefined);
            const refused = video && uploads.upload(lessonId, 'video', video);
            if (refused) toast.error('Error', { description: refused });
          };
          if (editing === 'new') create.mutate(body, { onSuccess: (created) => uploadTo(created.id) });
          else if (editing) {
            const { kind, title, release } = body;
            const lessonId = editing.id;
            const opens = release ? { release } : {};
            const changes: UpdateLessonBody =
              kind === 'quiz'
                ? { title, kind, ...opens, ...(body.quiz ? { quiz: body.quiz } : {}) }
                : kind === 'assignment'
                  ? { title, kind, ...opens, ...(body.assignment ? { assignment: body.assignment } : {}) }
                  : kind === 'text'
                  ? { title, kind, ...opens, body: body.body ?? '' }
                  : { title, kind, ...opens, ...(body.videoUrl ? { videoUrl: body.videoUrl } : {}) };
            update.mutate({ lessonId, body: changes }, { onSuccess: () => uploadTo(lessonId) });
          }
        }}
      />
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title={`Delete “${deleting?.title ?? ''}”?`}
        action="Delete lesson"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(undefined) })}
      >
        The lesson is removed from the course for you and every learner. This cannot be undone.
      </ConfirmDialog>
    </Card>
  );
}

function KindIcon({ kind }: { kind: Lesson['kind'] }) {
  const Icon = kindIcons[kind];
  return <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />;
}
