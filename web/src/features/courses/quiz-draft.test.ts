import { describe, expect, it } from 'vitest';
import { checkQuizDraft, draftFromQuiz, emptyQuestion, isBlankQuestion, withAnswer, withoutOption, withType, type DraftQuestion } from './quiz-draft.ts';

const options = (...texts: string[]) => texts.map((text, i) => ({ key: `o${i}`, text }));
const multiple: DraftQuestion = { key: 'q', prompt: 'Primary colours?', type: 'multiple', options: options('Red', 'Green', 'Blue', 'Yellow'), correct: [0, 2, 3] };

describe('quiz drafts', () => {
  it('starts a new quiz at a 70% pass mark, unlimited, not shuffled, with one blank question of two options', () => {
    const draft = draftFromQuiz(null);
    expect(draft).toMatchObject({ passPercent: '70', maxAttempts: '', shuffle: false });
    expect(draft.questions).toHaveLength(1);
    expect(draft.questions[0]!.options).toHaveLength(2);
    expect(isBlankQuestion(draft.questions[0]!)).toBe(true);
  });

  it('keeps the right answers on their options when an option before them is removed', () => {
    expect(withoutOption(multiple, 1).correct).toEqual([0, 1, 2]);
    expect(withoutOption(multiple, 2).correct).toEqual([0, 2]);
  });

  it('keeps one right answer when a question becomes single choice, and marks one at a time there', () => {
    const single = withType(multiple, 'single');
    expect(single.correct).toEqual([0]);
    expect(withAnswer(single, 2, true).correct).toEqual([2]);
    expect(withAnswer(multiple, 1, true).correct).toEqual([0, 1, 2, 3]);
    expect(withAnswer(multiple, 2, false).correct).toEqual([0, 3]);
  });

  it("gives the contract's quiz, or the messages by field path in the form's own words for the numbers", () => {
    const ok = checkQuizDraft({ passPercent: ' 80 ', maxAttempts: '', shuffle: true, questions: [multiple] });
    expect(ok).toEqual({ quiz: { passPercent: 80, maxAttempts: null, shuffle: true, questions: [{ prompt: 'Primary colours?', type: 'multiple', options: ['Red', 'Green', 'Blue', 'Yellow'], correct: [0, 2, 3] }] } });

    const bad = checkQuizDraft({ passPercent: '101', maxAttempts: '1.5', shuffle: false, questions: [{ ...emptyQuestion(), type: 'single' }] });
    expect(bad).toEqual({
      errors: {
        passPercent: 'The pass mark is a whole number from 1 to 100.',
        maxAttempts: 'Leave it blank for unlimited attempts, or give a whole number from 1 to 100.',
        'questions.0.prompt': 'Write the question.',
        'questions.0.options.0': 'An option cannot be empty.',
        'questions.0.options.1': 'An option cannot be empty.',
        'questions.0.correct': 'Mark the right answer.',
      },
    });
    expect(checkQuizDraft({ passPercent: '70', maxAttempts: '', shuffle: false, questions: [] })).toEqual({ errors: { questions: 'Add at least one question.' } });
  });
});
