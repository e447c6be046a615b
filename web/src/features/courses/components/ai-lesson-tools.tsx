import { Sparkles } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { LESSON_SUMMARY_MAX, QUIZ_DRAFT_QUESTIONS_MAX, QUIZ_DRAFT_QUESTIONS_MIN } from '@contracts/ai.ts';
import type { Lesson, QuizDefinition } from '@contracts/courses.ts';
import { Button } from '@/components/ui/button.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { paths } from '@/lib/paths.ts';
import { aiFailureMessage, isShortOfCredits, useAiPrice, useDraftLesson, useDraftQuiz } from '../api/use-ai-drafts.ts';

/** "12 credits" / "1 credit"; "…" while the price table loads (the run button waits for it). */
const creditsText = (price: number | undefined): string => (price === undefined ? '… credits' : price === 1 ? '1 credit' : `${price} credits`);

/**
 * A failed AI tool, said plainly; when the balance was short (402, nothing charged) a link to the dashboard, where the
 * credits card tops up.
 */
export function AiFailure({ error, price }: { error: unknown; price: number | undefined }) {
  return (
    <p role="alert" className="rounded-lg border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm">
      {aiFailureMessage(error, price)}
      {isShortOfCredits(error) && (
        <>
          {' '}
          <Link to={paths.creator.dashboard} className="font-medium underline underline-offset-4">
            Buy credits
          </Link>
        </>
      )}
    </p>
  );
}

/** The mark on an editor that holds AI output: it stays until the creator saves (nothing is saved before). */
export function DraftMark() {
  return (
    <p data-testid="ai-draft-mark" className="w-fit rounded-full border border-amber-300 bg-amber-50 px-2.5 py-0.5 text-xs font-medium text-amber-950">
      Draft — not saved
    </p>
  );
}

/**
 * "Draft with AI" in a text lesson's editor (issue 36): the lesson's title and an optional summary make a Markdown
 * body. Two steps, so the cost (GET /api/ai/prices) is on screen and confirmed before anything is charged; the body
 * replaces the editor's text, which the dialog marks as a draft until the lesson is saved.
 */
export function AiLessonDraft({ courseId, title, replacesText, onDrafted }: { courseId: string; title: string; replacesText: boolean; onDrafted: (markdown: string) => void }) {
  const [open, setOpen] = useState(false);
  const [summary, setSummary] = useState('');
  const price = useAiPrice('lessonDraft');
  const draft = useDraftLesson();
  const summaryId = useId();

  if (!open) {
    return (
      <Button type="button" variant="outline" size="sm" className="w-fit" onClick={() => setOpen(true)}>
        <Sparkles aria-hidden="true" />
        Draft with AI
      </Button>
    );
  }
  const run = () =>
    draft.mutate(
      { courseId, title: title.trim(), ...(summary.trim() ? { summary: summary.trim() } : {}) },
      {
        onSuccess: (answer) => {
          onDrafted(answer.body);
          setOpen(false);
        },
      },
    );
  return (
    <section aria-label="Draft with AI" className="grid gap-3 rounded-lg border bg-subtle p-3">
      <p className="text-sm">
        The AI writes this lesson from its title{title.trim() ? <> (“{title.trim()}”)</> : null} and the summary below. It costs{' '}
        <strong className="font-semibold">{creditsText(price)}</strong>.{' '}
        {replacesText ? 'The draft replaces the text in the editor; nothing is saved until you save the lesson.' : 'Nothing is saved until you save the lesson.'}
      </p>
      <div className="grid gap-1.5">
        <Label htmlFor={summaryId}>What should the lesson cover? (optional)</Label>
        <Textarea id={summaryId} rows={2} value={summary} maxLength={LESSON_SUMMARY_MAX} onChange={(e) => setSummary(e.target.value)} />
      </div>
      {!title.trim() && <p className="text-sm text-muted-foreground">Give the lesson a title first: the draft is written from it.</p>}
      {draft.error && <AiFailure error={draft.error} price={price} />}
      <div className="flex flex-wrap gap-2">
        <Button type="button" size="sm" loading={draft.isPending} disabled={price === undefined || !title.trim()} onClick={run}>
          {draft.isPending ? 'Drafting...' : `Draft lesson for ${creditsText(price)}`}
        </Button>
        <Button type="button" variant="outline" size="sm" disabled={draft.isPending} onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </section>
  );
}

/**
 * "Generate quiz" (issue 36): questions from a saved text lesson's text (the server reads the lesson, so unsaved edits
 * are not used), how many (3 to 10), the cost shown on the button that runs it. The quiz fills the quiz editor, which
 * the dialog marks as a draft until the lesson is saved.
 */
export function AiQuizDraft({
  courseId,
  textLessons,
  sourceId,
  replacesQuestions,
  onDrafted,
}: {
  courseId: string;
  /** The course's saved text lessons that have text: the quiz's possible sources. */
  textLessons: Lesson[];
  /** The lesson to start from (the text lesson "Generate quiz" was pressed in). */
  sourceId?: string | undefined;
  replacesQuestions: boolean;
  onDrafted: (quiz: QuizDefinition) => void;
}) {
  const [source, setSource] = useState(() => sourceId ?? textLessons[0]?.id ?? '');
  const [count, setCount] = useState(5);
  const price = useAiPrice('quizFromLesson');
  const draft = useDraftQuiz();
  const ids = { source: useId(), count: useId() };

  if (textLessons.length === 0) {
    return <p className="text-sm text-muted-foreground">To generate questions with AI, first save a text lesson with some text in this course.</p>;
  }
  return (
    <section aria-label="Generate quiz with AI" className="grid gap-3 rounded-lg border bg-subtle p-3">
      <p className="flex items-center gap-2 text-sm font-medium">
        <Sparkles aria-hidden="true" className="size-4" />
        Generate questions with AI
      </p>
      <div className="grid gap-3 sm:grid-cols-[1fr_9rem]">
        <div className="grid gap-1.5">
          <Label htmlFor={ids.source}>From the lesson</Label>
          <select
            id={ids.source}
            value={source}
            onChange={(e) => setSource(e.target.value)}
            className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/50 sm:text-sm"
          >
            {textLessons.map((lesson) => (
              <option key={lesson.id} value={lesson.id}>
                {lesson.title}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.count}>Questions</Label>
          <select
            id={ids.count}
            value={count}
            onChange={(e) => setCount(Number(e.target.value))}
            className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/50 sm:text-sm"
          >
            {Array.from({ length: QUIZ_DRAFT_QUESTIONS_MAX - QUIZ_DRAFT_QUESTIONS_MIN + 1 }, (_, i) => QUIZ_DRAFT_QUESTIONS_MIN + i).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="text-sm text-muted-foreground">
        Uses the lesson&apos;s saved text and costs {creditsText(price)}.{' '}
        {replacesQuestions ? 'The questions replace those in the editor; nothing is saved until you save this lesson.' : 'Nothing is saved until you save this lesson.'}
      </p>
      {draft.error && <AiFailure error={draft.error} price={price} />}
      <Button
        type="button"
        size="sm"
        className="w-fit"
        loading={draft.isPending}
        disabled={price === undefined || !source}
        onClick={() => draft.mutate({ courseId, lessonId: source, questions: count }, { onSuccess: (answer) => onDrafted(answer.quiz) })}
      >
        {draft.isPending ? 'Generating...' : `Generate ${count} questions for ${creditsText(price)}`}
      </Button>
    </section>
  );
}
