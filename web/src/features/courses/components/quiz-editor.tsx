import { ArrowDown, ArrowUp, Plus, Trash2, X } from 'lucide-react';
import { useId, useState } from 'react';
import { QUIZ_ATTEMPTS_MAX, QUIZ_OPTION_MAX, QUIZ_OPTIONS_MAX, QUIZ_PROMPT_MAX, QUIZ_QUESTIONS_MAX } from '@contracts/courses.ts';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { cn } from '@/lib/utils.ts';
import {
  emptyOption,
  emptyQuestion,
  isBlankQuestion,
  withAnswer,
  withoutOption,
  withType,
  type DraftQuestion,
  type QuestionType,
  type QuizDraft,
  type QuizErrors,
} from '../quiz-draft.ts';

const selectClass =
  'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/50 sm:text-sm';

const typeLabels: Record<QuestionType, string> = { single: 'Single choice', multiple: 'Multiple choice' };

/** Focus once React has drawn the change (a new question's text, the moved question's button). */
const focusSoon = (id: string) => requestAnimationFrame(() => document.getElementById(id)?.focus());
/** A question's text box (its id is FormField's, which ties it to its label). */
const focusPromptSoon = (key: string) => requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-prompt="${key}"]`)?.focus());

/**
 * A quiz lesson's quiz: the pass mark, an optional attempt limit, shuffling, and its questions (single or multiple
 * choice, 2 to 10 options each, the right answers marked with the radio or checkbox in front of each option).
 * Controlled: the lesson form holds the draft and checks it with the contract's `quizDefinition`; `errors` are that
 * check's messages by field path, each shown under its field.
 */
export function QuizEditor({ value, onChange, errors }: { value: QuizDraft; onChange: (next: QuizDraft) => void; errors: QuizErrors }) {
  const id = useId();
  const [removing, setRemoving] = useState<number | undefined>();
  const { questions } = value;
  const setQuestions = (next: DraftQuestion[]) => onChange({ ...value, questions: next });
  const setQuestion = (index: number, next: DraftQuestion) => setQuestions(questions.map((q, i) => (i === index ? next : q)));

  const addQuestion = () => {
    const added = emptyQuestion();
    setQuestions([...questions, added]);
    focusPromptSoon(added.key);
  };
  const removeQuestion = (index: number) => {
    const next = questions.filter((_, i) => i !== index);
    setQuestions(next);
    // The removed question's buttons are gone: the focus goes to the question now in its place, else to 'Add question'.
    const after = next[index] ?? next[index - 1];
    setTimeout(() => (after ? focusPromptSoon(after.key) : focusSoon(`${id}-add`)));
  };
  const move = (index: number, by: -1 | 1) => {
    const next = [...questions];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    setQuestions(next);
    const there = index + by;
    // At the first or last place the pressed button is disabled: keep the focus on the moved question.
    const direction = (by < 0 && there === 0) || (by > 0 && there === next.length - 1) ? (by < 0 ? 'down' : 'up') : by < 0 ? 'up' : 'down';
    focusSoon(`${id}-${moved!.key}-${direction}`);
  };

  return (
    <div className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Pass mark (%)" error={errors.passPercent} description="The share of questions a learner must get exactly right.">
          <Input
            inputMode="numeric"
            autoComplete="off"
            value={value.passPercent}
            onChange={(e) => onChange({ ...value, passPercent: e.target.value })}
            className="max-w-32"
          />
        </FormField>
        <FormField label="Attempt limit" error={errors.maxAttempts} description={`Blank for unlimited attempts, or 1 to ${QUIZ_ATTEMPTS_MAX}.`}>
          <Input
            inputMode="numeric"
            autoComplete="off"
            placeholder="Unlimited"
            value={value.maxAttempts}
            onChange={(e) => onChange({ ...value, maxAttempts: e.target.value })}
            className="max-w-32"
          />
        </FormField>
      </div>
      <div className="flex items-start gap-3">
        <Switch
          id={`${id}-shuffle`}
          checked={value.shuffle}
          onCheckedChange={(shuffle) => onChange({ ...value, shuffle })}
          aria-describedby={`${id}-shuffle-hint`}
        />
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-shuffle`}>Shuffle questions and options</Label>
          <p id={`${id}-shuffle-hint`} className="text-sm text-muted-foreground">
            Each learner gets an order of their own, the same on every visit.
          </p>
        </div>
      </div>

      <section aria-labelledby={`${id}-questions`} className="grid gap-3">
        <h3 id={`${id}-questions`} className="text-sm font-medium">
          Questions <span className="font-normal text-muted-foreground">({questions.length})</span>
        </h3>
        {questions.length === 0 && (
          <p className="rounded-lg border border-dashed bg-subtle px-4 py-6 text-center text-sm text-muted-foreground">No questions yet.</p>
        )}
        {questions.length > 0 && (
          <ol className="grid grid-cols-[minmax(0,1fr)] gap-3">
            {questions.map((question, index) => (
              <QuestionEditor
                key={question.key}
                baseId={`${id}-${question.key}`}
                question={question}
                index={index}
                count={questions.length}
                errors={errors}
                onChange={(next) => setQuestion(index, next)}
                onMove={(by) => move(index, by)}
                onRemove={() => (isBlankQuestion(question) ? removeQuestion(index) : setRemoving(index))}
              />
            ))}
          </ol>
        )}
        {errors.questions && <p className="text-sm font-medium text-destructive">{errors.questions}</p>}
        {questions.length < QUIZ_QUESTIONS_MAX ? (
          <Button id={`${id}-add`} variant="outline" className="justify-self-start" onClick={addQuestion}>
            <Plus aria-hidden="true" />
            Add question
          </Button>
        ) : (
          <p className="text-sm text-muted-foreground">A quiz has at most {QUIZ_QUESTIONS_MAX} questions.</p>
        )}
      </section>

      <ConfirmDialog
        open={removing !== undefined}
        onOpenChange={(open) => !open && setRemoving(undefined)}
        title={`Remove question ${(removing ?? 0) + 1}?`}
        action="Remove question"
        busy={false}
        onConfirm={() => {
          if (removing !== undefined) removeQuestion(removing);
          setRemoving(undefined);
        }}
      >
        {removing !== undefined && questions[removing]?.prompt.trim() ? `“${questions[removing].prompt.trim()}”` : 'This question'} and its options leave the
        quiz when you save the lesson.
      </ConfirmDialog>
    </div>
  );
}

function QuestionEditor({
  baseId,
  question,
  index,
  count,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  baseId: string;
  question: DraftQuestion;
  index: number;
  count: number;
  errors: QuizErrors;
  onChange: (next: DraftQuestion) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const number = index + 1;
  const path = `questions.${index}`;
  const single = question.type === 'single';
  const correctError = errors[`${path}.correct`];
  const optionsError = errors[`${path}.options`];
  const hintId = `${baseId}-answers-hint`;
  const correctErrorId = `${baseId}-correct-error`;
  const setOption = (at: number, text: string) => onChange({ ...question, options: question.options.map((o, i) => (i === at ? { ...o, text } : o)) });

  return (
    <li>
      <div role="group" aria-labelledby={`${baseId}-title`} className="grid gap-3 rounded-lg border p-3 sm:p-4" data-testid="quiz-question">
        <div className="flex items-center gap-2">
          <h4 id={`${baseId}-title`} className="flex-1 text-sm font-semibold">
            Question {number}
          </h4>
          <Button
            id={`${baseId}-up`}
            variant="ghost"
            size="icon"
            className="size-9"
            aria-label={`Move question ${number} up`}
            disabled={index === 0}
            onClick={() => onMove(-1)}
          >
            <ArrowUp aria-hidden="true" />
          </Button>
          <Button
            id={`${baseId}-down`}
            variant="ghost"
            size="icon"
            className="size-9"
            aria-label={`Move question ${number} down`}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            <ArrowDown aria-hidden="true" />
          </Button>
          <Button variant="ghost" size="icon" className="size-9 text-destructive hover:text-destructive" aria-label={`Remove question ${number}`} onClick={onRemove}>
            <Trash2 aria-hidden="true" />
          </Button>
        </div>

        <FormField label="Question text" error={errors[`${path}.prompt`]}>
          <Textarea
            data-prompt={question.key}
            rows={2}
            maxLength={QUIZ_PROMPT_MAX}
            value={question.prompt}
            className="min-h-16 field-sizing-content"
            onChange={(e) => onChange({ ...question, prompt: e.target.value })}
          />
        </FormField>

        <FormField label="Type" className="sm:max-w-56">
          <select className={selectClass} value={question.type} onChange={(e) => onChange(withType(question, e.target.value as QuestionType))}>
            {(['single', 'multiple'] as const).map((type) => (
              <option key={type} value={type}>
                {typeLabels[type]}
              </option>
            ))}
          </select>
        </FormField>

        <fieldset className="grid gap-2" aria-describedby={[hintId, correctError ? correctErrorId : ''].filter(Boolean).join(' ')}>
          <legend className="text-sm font-medium">Options</legend>
          <p id={hintId} className="-mt-1 text-sm text-muted-foreground">
            {single ? 'Mark the right answer with the round button in front of it.' : 'Tick every right answer.'}
          </p>
          <ul className="grid gap-2">
            {question.options.map((option, at) => {
              const optionId = `${baseId}-${option.key}`;
              const optionError = errors[`${path}.options.${at}`];
              const right = question.correct.includes(at);
              return (
                <li key={option.key} className="grid gap-1">
                  <div className={cn('flex items-center gap-2 rounded-md py-0.5 pl-2', right && 'bg-emerald-50')}>
                    <input
                      id={`${optionId}-right`}
                      type={single ? 'radio' : 'checkbox'}
                      name={`${baseId}-correct`}
                      checked={right}
                      onChange={(e) => onChange(withAnswer(question, at, e.target.checked))}
                      aria-invalid={correctError ? true : undefined}
                      aria-describedby={correctError ? correctErrorId : undefined}
                      className="size-4 shrink-0 accent-primary"
                    />
                    <label htmlFor={`${optionId}-right`} className="sr-only">
                      {single ? `Option ${at + 1} is the right answer` : `Option ${at + 1} is a right answer`}
                    </label>
                    <label htmlFor={`${optionId}-text`} className="sr-only">
                      Option {at + 1}
                    </label>
                    <Input
                      id={`${optionId}-text`}
                      value={option.text}
                      maxLength={QUIZ_OPTION_MAX}
                      placeholder={`Option ${at + 1}`}
                      aria-invalid={optionError ? true : undefined}
                      aria-describedby={optionError ? `${optionId}-error` : undefined}
                      onChange={(e) => setOption(at, e.target.value)}
                    />
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-9 shrink-0"
                      aria-label={`Remove option ${at + 1}`}
                      disabled={question.options.length <= 2}
                      onClick={() => onChange(withoutOption(question, at))}
                    >
                      <X aria-hidden="true" />
                    </Button>
                  </div>
                  {optionError && (
                    <p id={`${optionId}-error`} className="pl-8 text-sm font-medium text-destructive">
                      {optionError}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
          {correctError && (
            <p id={correctErrorId} className="text-sm font-medium text-destructive">
              {correctError}
            </p>
          )}
          {optionsError && <p className="text-sm font-medium text-destructive">{optionsError}</p>}
          {question.options.length < QUIZ_OPTIONS_MAX && (
            <Button
              variant="ghost"
              size="sm"
              className="justify-self-start"
              onClick={() => {
                const added = emptyOption();
                onChange({ ...question, options: [...question.options, added] });
                focusSoon(`${baseId}-${added.key}-text`);
              }}
            >
              <Plus aria-hidden="true" />
              Add option
            </Button>
          )}
        </fieldset>
      </div>
    </li>
  );
}
