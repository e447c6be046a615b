import { quizDefinition, type QuizDefinition } from '@contracts/courses.ts';

/** A quiz as the editor holds it: the numbers as typed, every question and option with a key of its own (React lists). */
export type QuestionType = QuizDefinition['questions'][number]['type'];
export interface DraftOption {
  key: string;
  text: string;
}
export interface DraftQuestion {
  key: string;
  prompt: string;
  type: QuestionType;
  options: DraftOption[];
  /** Indexes into `options` of the right answers. */
  correct: number[];
}
export interface QuizDraft {
  passPercent: string;
  /** '' = unlimited. */
  maxAttempts: string;
  shuffle: boolean;
  questions: DraftQuestion[];
}

/** Messages by the path of the offending field: `passPercent`, `questions`, `questions.0.prompt`, `questions.0.options.1`, `questions.0.correct`... */
export type QuizErrors = Record<string, string>;

export const DEFAULT_PASS_PERCENT = 70;

let lastKey = 0;
const newKey = () => `q${++lastKey}`;

export const emptyOption = (): DraftOption => ({ key: newKey(), text: '' });
export const emptyQuestion = (): DraftQuestion => ({ key: newKey(), prompt: '', type: 'single', options: [emptyOption(), emptyOption()], correct: [] });

/** The editor's starting point: the lesson's quiz, or a pass mark of 70%, no limit and one empty question. */
export function draftFromQuiz(quiz: QuizDefinition | null | undefined): QuizDraft {
  if (!quiz) return { passPercent: String(DEFAULT_PASS_PERCENT), maxAttempts: '', shuffle: false, questions: [emptyQuestion()] };
  return {
    passPercent: String(quiz.passPercent),
    maxAttempts: quiz.maxAttempts === null ? '' : String(quiz.maxAttempts),
    shuffle: quiz.shuffle,
    questions: quiz.questions.map((q) => ({
      key: newKey(),
      prompt: q.prompt,
      type: q.type,
      options: q.options.map((text) => ({ key: newKey(), text })),
      correct: [...q.correct],
    })),
  };
}

/** A question with nothing typed in it: removed without asking. */
export const isBlankQuestion = (q: DraftQuestion): boolean => q.prompt.trim() === '' && q.options.every((o) => o.text.trim() === '');

/** Removes option `index`; the right answers after it move up one place with their options. */
export function withoutOption(q: DraftQuestion, index: number): DraftQuestion {
  return {
    ...q,
    options: q.options.filter((_, i) => i !== index),
    correct: q.correct.filter((i) => i !== index).map((i) => (i > index ? i - 1 : i)),
  };
}

/** A single-choice question keeps one right answer (the first) when switched from multiple choice. */
export function withType(q: DraftQuestion, type: QuestionType): DraftQuestion {
  return { ...q, type, correct: type === 'single' ? q.correct.slice(0, 1) : q.correct };
}

/** Marks (or, for multiple choice, toggles) option `index` as a right answer. */
export function withAnswer(q: DraftQuestion, index: number, checked: boolean): DraftQuestion {
  if (q.type === 'single') return { ...q, correct: [index] };
  const others = q.correct.filter((i) => i !== index);
  return { ...q, correct: checked ? [...others, index].sort((a, b) => a - b) : others };
}

/** '' is not 0: a blank number field is NaN, which the contract refuses (a blank attempt limit means unlimited). */
const numberOf = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text.trim()));

const numberMessages: QuizErrors = {
  passPercent: 'The pass mark is a whole number from 1 to 100.',
  maxAttempts: 'Leave it blank for unlimited attempts, or give a whole number from 1 to 100.',
};

/**
 * The draft as the contract's `quizDefinition`, checked by the contract itself: the quiz to send, or the messages by
 * the path of the field they belong to (the first one for each field).
 */
export function checkQuizDraft(draft: QuizDraft): { quiz: QuizDefinition } | { errors: QuizErrors } {
  const parsed = quizDefinition.safeParse({
    passPercent: numberOf(draft.passPercent),
    maxAttempts: draft.maxAttempts.trim() === '' ? null : numberOf(draft.maxAttempts),
    shuffle: draft.shuffle,
    questions: draft.questions.map((q) => ({
      prompt: q.prompt,
      type: q.type,
      options: q.options.map((o) => o.text),
      correct: [...q.correct].sort((a, b) => a - b),
    })),
  });
  if (parsed.success) return { quiz: parsed.data };
  const errors: QuizErrors = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.');
    errors[path] ??= numberMessages[path] ?? issue.message;
  }
  return { errors };
}

export const questionCount = (count: number): string => (count === 1 ? '1 question' : `${count} questions`);
