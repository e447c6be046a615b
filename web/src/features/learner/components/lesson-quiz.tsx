import { Check, CircleCheck, CircleX, RotateCcw } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { LearnerQuiz, QuizAttemptResult } from '@contracts/courses.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { cn } from '@/lib/utils.ts';
import { useSubmitQuizAttempt } from '../api/learning-queries.ts';

type Review = NonNullable<LearnerQuiz['review']>;

const attemptsLeftLabel = (left: number | null): string =>
  left === null ? 'Unlimited attempts' : left === 0 ? 'No attempts left' : left === 1 ? '1 attempt left' : `${left} attempts left`;

const questionsLabel = (count: number): string => (count === 1 ? '1 question' : `${count} questions`);

function PassedBadge({ passed }: { passed: boolean }) {
  return passed ? (
    <Badge className="border-transparent bg-emerald-100 text-emerald-900">Passed</Badge>
  ) : (
    <Badge variant="outline" className="border-destructive/50 text-destructive">
      Not passed
    </Badge>
  );
}

/**
 * A quiz lesson in the player. The learner gets the questions in their own order and never the right answers: each
 * question is a fieldset (its prompt the legend) of radio buttons (single choice) or checkboxes (multiple choice).
 * 'Submit answers' sends, per question in the order shown, the chosen option indexes; the result says the score,
 * passed or not against the pass mark, and the attempts left, with 'Try again' while there are some. Once the learner
 * passed or has no attempt left the server adds the review: each question marked right or wrong, its right options
 * shown. Passing completes the lesson (there is no 'Mark complete' for a quiz).
 */
export function LessonQuiz({
  courseId,
  lessonId,
  quiz,
  onSubmit,
}: {
  courseId: string;
  lessonId: string;
  quiz: LearnerQuiz;
  /** Called as the answers are sent. */
  onSubmit?: () => void;
}) {
  const id = useId();
  const submit = useSubmitQuizAttempt(courseId);
  const [answers, setAnswers] = useState<number[][]>(() => quiz.questions.map(() => []));
  const [result, setResult] = useState<QuizAttemptResult | undefined>();
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const form = useRef<HTMLFormElement>(null);

  // Passed, or out of attempts: the quiz is over, and the server says how each question went.
  const over = quiz.passed || quiz.attemptsLeft === 0;
  const locked = result !== undefined || over;
  const review = result ? result.review : over ? quiz.review : null;
  const answered = answers.filter((a) => a.length > 0).length;
  const ready = answered === quiz.questions.length;

  const choose = (question: number, option: number, checked: boolean) => {
    const single = quiz.questions[question]?.type === 'single';
    setAnswers((was) =>
      was.map((chosen, i) => {
        if (i !== question) return chosen;
        if (single) return [option];
        const others = chosen.filter((o) => o !== option);
        return checked ? [...others, option].sort((a, b) => a - b) : others;
      }),
    );
  };

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || locked) return;
    onSubmit?.();
    submit.mutate(
      { lessonId, answers },
      {
        onSuccess: (answer) => {
          setResult(answer);
          // The result appears above the questions: take the keyboard (and a screen reader) there.
          requestAnimationFrame(() => resultHeading.current?.focus());
        },
      },
    );
  };

  const tryAgain = () => {
    setResult(undefined);
    setAnswers(quiz.questions.map(() => []));
    requestAnimationFrame(() => form.current?.querySelector<HTMLInputElement>('input')?.focus());
  };

  const shown = result ?? (over ? { score: quiz.bestScore ?? 0, passed: quiz.passed, attemptsLeft: quiz.attemptsLeft } : undefined);

  return (
    <div className="grid gap-5">
      <p className="text-sm text-muted-foreground" data-testid="quiz-facts">
        {questionsLabel(quiz.questions.length)} · Pass mark {quiz.passPercent}%
        {!over && ` · ${attemptsLeftLabel(quiz.attemptsLeft)}`}
        {!over && quiz.bestScore !== null && ` · Best score so far ${quiz.bestScore}%`}
      </p>

      {shown && (
        <section
          aria-labelledby={`${id}-result`}
          className={cn('grid gap-3 rounded-lg border p-4 sm:p-5', shown.passed ? 'border-emerald-200 bg-emerald-50/60' : 'bg-subtle')}
          data-testid="quiz-result"
        >
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <h3 id={`${id}-result`} ref={resultHeading} tabIndex={-1} className="text-lg font-semibold tracking-tight outline-none">
              {result ? `Score: ${shown.score}%` : `Best score: ${shown.score}%`}
            </h3>
            <PassedBadge passed={shown.passed} />
          </div>
          <p className="text-sm">
            Pass mark {quiz.passPercent}%.{' '}
            {shown.passed
              ? 'You passed: this lesson is complete.'
              : shown.attemptsLeft === 0
                ? 'No attempts left.'
                : `${attemptsLeftLabel(shown.attemptsLeft)}.`}
          </p>
          {review && <p className="text-sm text-muted-foreground">Each question below shows whether you got it right, and its right answers.</p>}
          {!shown.passed && shown.attemptsLeft !== 0 && (
            <Button variant="outline" className="justify-self-start" onClick={tryAgain}>
              <RotateCcw aria-hidden="true" />
              Try again
            </Button>
          )}
        </section>
      )}

      <form ref={form} aria-label="Quiz" className="grid gap-4" onSubmit={send} noValidate>
        <ol className="grid gap-4">
          {quiz.questions.map((question, index) => (
            <li key={index} className="flex gap-2.5 rounded-lg border p-3 sm:gap-3 sm:p-4">
              <span aria-hidden="true" className="grid size-7 shrink-0 place-items-center rounded-full bg-muted text-xs font-semibold tabular-nums">
                {index + 1}
              </span>
              <QuestionFieldset
                name={`${id}-q${index}`}
                question={question}
                chosen={answers[index] ?? []}
                locked={locked}
                review={review?.[index]}
                onChoose={(option, checked) => choose(index, option, checked)}
              />
            </li>
          ))}
        </ol>
        {!locked && (
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={!ready} loading={submit.isPending} aria-describedby={`${id}-ready`}>
              {submit.isPending ? 'Submitting...' : 'Submit answers'}
            </Button>
            <p id={`${id}-ready`} className="text-sm text-muted-foreground">
              {ready ? 'Every question has an answer.' : `${answered} of ${quiz.questions.length} answered. Answer every question to submit.`}
            </p>
          </div>
        )}
      </form>
    </div>
  );
}

function QuestionFieldset({
  name,
  question,
  chosen,
  locked,
  review,
  onChoose,
}: {
  name: string;
  question: LearnerQuiz['questions'][number];
  chosen: number[];
  locked: boolean;
  review: Review[number] | undefined;
  onChoose: (option: number, checked: boolean) => void;
}) {
  const single = question.type === 'single';
  return (
    <fieldset className="grid min-w-0 flex-1 gap-3" data-testid="quiz-question">
      <legend className="float-left mb-1 w-full font-medium break-words">{question.prompt}</legend>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
        <span>{single ? 'Choose one answer.' : 'Choose every right answer.'}</span>
        {review && (
          <span className={cn('flex items-center gap-1 font-medium', review.correct ? 'text-emerald-700' : 'text-destructive')} data-testid="question-mark">
            {review.correct ? <CircleCheck aria-hidden="true" className="size-4" /> : <CircleX aria-hidden="true" className="size-4" />}
            {review.correct ? 'Correct' : 'Incorrect'}
          </span>
        )}
      </div>
      <div className="grid gap-2">
        {question.options.map((option, index) => {
          const picked = chosen.includes(index);
          const right = review?.rightOptions.includes(index) ?? false;
          return (
            <label
              key={index}
              className={cn(
                'flex items-start gap-3 rounded-md border px-3 py-2.5 text-sm',
                !locked && 'cursor-pointer hover:bg-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                picked && 'border-primary',
                locked && picked && 'bg-accent/60',
                review && right && 'border-emerald-300 bg-emerald-50',
                review && picked && !right && 'border-destructive/50 bg-destructive/5',
              )}
            >
              <input
                type={single ? 'radio' : 'checkbox'}
                name={name}
                value={index}
                checked={picked}
                disabled={locked}
                aria-describedby={review && right ? `${name}-${index}-right` : undefined}
                onChange={(e) => onChoose(index, e.target.checked)}
                className="mt-0.5 size-4 shrink-0 accent-primary"
              />
              <span className="grid min-w-0 flex-1 gap-1">
                <span className="break-words">{option}</span>
                {locked && (picked || (review && right)) && (
                  // Seen, not read as part of the option's name: the checked state says "your answer", and the input's
                  // description (aria-describedby reads a hidden element too) says "Right answer".
                  <span aria-hidden="true" className="flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs font-medium">
                    {picked && <span className="text-muted-foreground">Your answer</span>}
                    {review && right && (
                      <span id={`${name}-${index}-right`} className="flex items-center gap-1 text-emerald-800">
                        <Check className="size-3.5" />
                        Right answer
                      </span>
                    )}
                  </span>
                )}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
