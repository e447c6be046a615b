import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Course, Lesson } from '@contracts/courses.ts';
import type { fakeApi} from '@/test/render.tsx';
import { callsTo, jsonResponse } from '@/test/render.tsx';
import { paintingCourse, quizLesson, textLesson } from '../test/fixtures.ts';
import { COURSE, renderCourseEditor } from '../test/render-editor.tsx';

// The course builder's quiz lessons (issue 15): the quiz editor in the lesson dialog, checked with the contract's
// `quizDefinition` before anything is sent, and the quiz's size and pass mark in the lesson list.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => vi.unstubAllGlobals());


function renderEditor(state: { course: Course }, extra: Parameters<typeof fakeApi>[0] = {}) {
  return renderCourseEditor(() => state.course, extra);
}

const question = (dialog: HTMLElement, number: number) => within(within(dialog).getByRole('group', { name: `Question ${number}` }));

/** Types a longer text in one go (pasted), as the per-key typing of the whole dialog is slow in jsdom. */
async function fill(user: ReturnType<typeof renderEditor>['user'], field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

/** Opens 'Add lesson', names it and picks the Quiz kind. */
async function startQuiz(user: ReturnType<typeof renderEditor>['user'], title = 'Check your colours') {
  await user.click(await screen.findByRole('button', { name: 'Add lesson' }));
  const dialog = screen.getByRole('dialog', { name: 'Add lesson' });
  await user.type(within(dialog).getByRole('textbox', { name: /Lesson title/ }), title);
  await user.click(within(dialog).getByRole('radio', { name: 'Quiz' }));
  return dialog;
}

describe('CourseEditorScreen: quiz lessons', () => {
  it('writes a quiz with single and multiple choice questions and sends it as the contract\'s quiz', async () => {
    const state = { course: { ...paintingCourse, lessons: [textLesson] } };
    const { user, fetchMock } = renderEditor(state, {
      [`POST ${COURSE}/lessons`]: () => {
        state.course = { ...state.course, lessons: [textLesson, quizLesson] };
        return jsonResponse(201, quizLesson);
      },
    });
    const dialog = await startQuiz(user);

    // The defaults: a pass mark of 70%, no attempt limit, no shuffling, one empty single-choice question.
    expect(within(dialog).getByRole('textbox', { name: 'Pass mark (%)' })).toHaveValue('70');
    expect(within(dialog).getByRole('textbox', { name: 'Attempt limit' })).toHaveValue('');
    expect(within(dialog).getByRole('switch', { name: 'Shuffle questions and options' })).not.toBeChecked();
    expect(within(dialog).getAllByTestId('quiz-question')).toHaveLength(1);

    await user.type(within(dialog).getByRole('textbox', { name: 'Attempt limit' }), '3');
    await user.click(within(dialog).getByRole('switch', { name: 'Shuffle questions and options' }));

    const first = question(dialog, 1);
    await fill(user, first.getByRole('textbox', { name: 'Question text' }), '  Which colour is warm? ');
    await user.type(first.getByRole('textbox', { name: 'Option 1' }), 'Blue');
    await user.type(first.getByRole('textbox', { name: 'Option 2' }), 'Orange');
    await user.click(first.getByRole('radio', { name: 'Option 2 is the right answer' }));

    await user.click(within(dialog).getByRole('button', { name: 'Add question' }));
    const second = question(dialog, 2);
    // The new question's text takes the keyboard on the next frame.
    await vi.waitFor(() => expect(second.getByRole('textbox', { name: 'Question text' })).toHaveFocus());
    await fill(user, second.getByRole('textbox', { name: 'Question text' }), 'Which are primary colours?');
    await user.selectOptions(second.getByRole('combobox', { name: 'Type' }), 'multiple');
    await user.click(second.getByRole('button', { name: 'Add option' }));
    await user.type(second.getByRole('textbox', { name: 'Option 1' }), 'Red');
    await user.type(second.getByRole('textbox', { name: 'Option 2' }), 'Green');
    await user.type(second.getByRole('textbox', { name: 'Option 3' }), 'Blue');
    await user.click(second.getByRole('checkbox', { name: 'Option 3 is a right answer' }));
    await user.click(second.getByRole('checkbox', { name: 'Option 1 is a right answer' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add lesson' }));

    await vi.waitFor(() => expect(callsTo(fetchMock, 'POST', `${COURSE}/lessons`)).toHaveLength(1));
    expect(callsTo(fetchMock, 'POST', `${COURSE}/lessons`)[0]?.body).toEqual({
      title: 'Check your colours',
      kind: 'quiz',
      quiz: {
        passPercent: 70,
        maxAttempts: 3,
        shuffle: true,
        questions: [
          { prompt: 'Which colour is warm?', type: 'single', options: ['Blue', 'Orange'], correct: [1] },
          { prompt: 'Which are primary colours?', type: 'multiple', options: ['Red', 'Green', 'Blue'], correct: [0, 2] },
        ],
      },
      release: { kind: 'immediate' },
    });
    // The list says what the quiz is.
    await vi.waitFor(() => expect(screen.getAllByTestId('lesson-kind').map((el) => el.textContent)).toEqual(['Text', 'Quiz · 2 questions · pass 70%']));
  }, 20_000);

  it('says what is wrong next to each field and sends nothing: no right answer, no text, an empty option, a bad pass mark', async () => {
    const { user, fetchMock } = renderEditor({ course: paintingCourse });
    const dialog = await startQuiz(user);
    const first = question(dialog, 1);
    await user.type(first.getByRole('textbox', { name: 'Option 1' }), 'Blue');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Pass mark (%)' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Pass mark (%)' }), '0');
    await user.type(within(dialog).getByRole('textbox', { name: 'Attempt limit' }), 'two');
    await user.click(within(dialog).getByRole('button', { name: 'Add lesson' }));

    expect(first.getByText('Mark the right answer.')).toBeInTheDocument();
    expect(first.getByRole('radio', { name: 'Option 1 is the right answer' })).toHaveAccessibleDescription('Mark the right answer.');
    expect(first.getByRole('textbox', { name: 'Question text' })).toHaveAccessibleDescription('Write the question.');
    expect(first.getByRole('textbox', { name: 'Option 2' })).toHaveAccessibleDescription('An option cannot be empty.');
    expect(within(dialog).getByRole('textbox', { name: 'Pass mark (%)' })).toHaveAccessibleDescription(/The pass mark is a whole number from 1 to 100\./);
    expect(within(dialog).getByRole('textbox', { name: 'Attempt limit' })).toHaveAccessibleDescription(/Leave it blank for unlimited attempts/);
    // The keyboard goes to the first field to fix.
    await vi.waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Pass mark (%)' })).toHaveFocus());

    // Fixed, the message goes at once.
    await user.click(first.getByRole('radio', { name: 'Option 1 is the right answer' }));
    expect(first.queryByText('Mark the right answer.')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', `${COURSE}/lessons`)).toEqual([]);
  });

  it('removes an empty question at once, and asks before removing one with text', async () => {
    const { user } = renderEditor({ course: paintingCourse });
    const dialog = await startQuiz(user);
    await user.click(within(dialog).getByRole('button', { name: 'Add question' }));
    await user.click(question(dialog, 2).getByRole('button', { name: 'Remove question 2' }));
    expect(within(dialog).getAllByTestId('quiz-question')).toHaveLength(1);

    await fill(user, question(dialog, 1).getByRole('textbox', { name: 'Question text' }), 'Which colour is warm?');
    await user.click(question(dialog, 1).getByRole('button', { name: 'Remove question 1' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove question 1?' });
    expect(confirm).toHaveTextContent('“Which colour is warm?” and its options leave the quiz when you save the lesson.');
    await user.click(within(confirm).getByRole('button', { name: 'Remove question' }));
    expect(within(dialog).queryAllByTestId('quiz-question')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Add lesson' }));
    expect(within(dialog).getByText('Add at least one question.')).toBeInTheDocument();
  });

  it('edits a quiz lesson from its saved quiz and sends the whole quiz with the change', async () => {
    const state = { course: { ...paintingCourse, lessons: [quizLesson] } };
    const saved: Lesson = { ...quizLesson, quiz: { ...quizLesson.quiz!, passPercent: 50 } };
    const { user, fetchMock } = renderEditor(state, {
      [`PATCH ${COURSE}/lessons/lesson-3`]: () => {
        state.course = { ...state.course, lessons: [saved] };
        return jsonResponse(200, saved);
      },
    });
    expect(await screen.findByText('Quiz · 2 questions · pass 70%')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit Check your colours' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit lesson' });
    expect(within(dialog).getByRole('radio', { name: 'Quiz' })).toBeChecked();
    expect(within(dialog).getByRole('textbox', { name: 'Attempt limit' })).toHaveValue('3');
    expect(question(dialog, 2).getByRole('checkbox', { name: 'Option 3 is a right answer' })).toBeChecked();
    expect(question(dialog, 2).getByRole('checkbox', { name: 'Option 2 is a right answer' })).not.toBeChecked();

    // Removing an option moves the right answers after it along with their options.
    await user.click(question(dialog, 2).getByRole('button', { name: 'Remove option 2' }));
    await user.clear(within(dialog).getByRole('textbox', { name: 'Pass mark (%)' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Pass mark (%)' }), '50');
    await user.click(within(dialog).getByRole('button', { name: 'Save lesson' }));

    await vi.waitFor(() => expect(callsTo(fetchMock, 'PATCH', `${COURSE}/lessons/lesson-3`)).toHaveLength(1));
    expect(callsTo(fetchMock, 'PATCH', `${COURSE}/lessons/lesson-3`)[0]?.body).toEqual({
      title: 'Check your colours',
      kind: 'quiz',
      quiz: {
        passPercent: 50,
        maxAttempts: 3,
        shuffle: false,
        questions: [
          { prompt: 'Which colour is warm?', type: 'single', options: ['Blue', 'Orange'], correct: [1] },
          { prompt: 'Which are primary colours?', type: 'multiple', options: ['Red', 'Blue'], correct: [0, 1] },
        ],
      },
      release: { kind: 'immediate' },
    });
    expect(await screen.findByText('Quiz · 2 questions · pass 50%')).toBeInTheDocument();
  });
});
