import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Course, Lesson } from '@contracts/courses.ts';
import { callsTo, jsonResponse } from '@/test/render.tsx';
import { paintingCourse, textLesson } from '../test/fixtures.ts';
import { COURSE, renderCourseEditor } from '../test/render-editor.tsx';

// AI drafting in the lesson editor (issue 36): the cost is shown before anything runs, the AI's output fills the
// editor marked as a draft, and nothing reaches the course (or its learners) until the creator saves.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => vi.unstubAllGlobals());

const drafted = '## Warm and cool\n\nWarm colours advance; cool colours recede.';
const generatedQuiz = {
  passPercent: 70,
  maxAttempts: null,
  shuffle: false,
  questions: [
    { prompt: 'Which colours advance?', type: 'single', options: ['Warm colours', 'Cool colours'], correct: [0] },
    { prompt: 'Which colours recede?', type: 'single', options: ['Warm colours', 'Cool colours'], correct: [1] },
    { prompt: 'Which are warm?', type: 'multiple', options: ['Red', 'Orange', 'Blue'], correct: [0, 1] },
  ],
};
const emptyLesson: Lesson = { ...textLesson, id: 'lesson-9', title: 'Warm and cool', body: '' };

describe('CourseEditorScreen: Draft with AI', () => {
  it('shows the cost, fills the editor with a draft marked unsaved, and sends it only on Save', async () => {
    const state: { course: Course } = { course: { ...paintingCourse, lessons: [emptyLesson] } };
    const { user, fetchMock } = renderCourseEditor(() => state.course, {
      'POST /api/ai/lesson-draft': () => jsonResponse(200, { body: drafted, creditsRemaining: 40 }),
      [`PATCH ${COURSE}/lessons/lesson-9`]: () => jsonResponse(200, emptyLesson),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Warm and cool' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit lesson' });
    await user.click(within(dialog).getByRole('button', { name: 'Draft with AI' }));

    const panel = within(dialog).getByRole('region', { name: 'Draft with AI' });
    expect(panel).toHaveTextContent('It costs 5 credits.');
    expect(callsTo(fetchMock, 'POST', '/api/ai/lesson-draft')).toEqual([]);
    await user.type(within(panel).getByRole('textbox', { name: /What should the lesson cover/ }), 'Temperature of colours');
    await user.click(await within(panel).findByRole('button', { name: 'Draft lesson for 5 credits' }));

    expect(await within(dialog).findByTestId('ai-draft-mark')).toHaveTextContent('Draft — not saved');
    expect(within(dialog).getByRole('textbox', { name: 'Lesson text' })).toHaveValue(drafted);
    expect(callsTo(fetchMock, 'POST', '/api/ai/lesson-draft')[0]?.body).toEqual({ courseId: 'course-1', title: 'Warm and cool', summary: 'Temperature of colours' });
    expect(callsTo(fetchMock, 'POST', '/api/ai/lesson-draft')[0]?.headers.get('Idempotency-Key')).toBeTruthy();
    // Nothing saved yet: learners see the lesson as it was.
    expect(callsTo(fetchMock, 'PATCH', `${COURSE}/lessons/lesson-9`)).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Save lesson' }));
    await vi.waitFor(() => expect(callsTo(fetchMock, 'PATCH', `${COURSE}/lessons/lesson-9`)).toHaveLength(1));
    expect(callsTo(fetchMock, 'PATCH', `${COURSE}/lessons/lesson-9`)[0]?.body).toMatchObject({
      kind: 'text',
      body: '<h2>Warm and cool</h2>\n<p>Warm colours advance; cool colours recede.</p>',
    });
  });

  it('says plainly when credits are short, with the way to buy more, and charges nothing', async () => {
    const state: { course: Course } = { course: { ...paintingCourse, lessons: [emptyLesson] } };
    const { user } = renderCourseEditor(() => state.course, {
      'POST /api/ai/lesson-draft': () => jsonResponse(402, { error: { code: 'INSUFFICIENT_CREDITS', message: 'You need 5 AI credits.' } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Warm and cool' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit lesson' });
    await user.click(within(dialog).getByRole('button', { name: 'Draft with AI' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Draft lesson for 5 credits' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You need 5 AI credits for this.');
    expect(within(dialog).getByRole('link', { name: 'Buy credits' })).toHaveAttribute('href', '/dashboard/creator');
    expect(within(dialog).queryByTestId('ai-draft-mark')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Lesson text' })).toHaveValue('');
  });
});

describe('CourseEditorScreen: Generate quiz', () => {
  it('offers Generate quiz on a lesson opened again at once after its text was saved, before the course is read again', async () => {
    const saved: Lesson = { ...emptyLesson, body: '<p>Warm colours advance.</p>' };
    let reads = 0;
    const { user } = renderCourseEditor(() => ({ ...paintingCourse, lessons: [emptyLesson] }), {
      // The first read answers; the refetch after the save is still on its way (a slow network) while the creator goes on.
      [`GET ${COURSE}`]: () => (reads++ === 0 ? jsonResponse(200, { ...paintingCourse, lessons: [emptyLesson] }) : new Promise<Response>(() => undefined)),
      [`PATCH ${COURSE}/lessons/lesson-9`]: () => jsonResponse(200, saved),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Warm and cool' }));
    let dialog = screen.getByRole('dialog', { name: 'Edit lesson' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Lesson text' }), 'Warm colours advance.');
    await user.click(within(dialog).getByRole('button', { name: 'Save lesson' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit lesson' })).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Edit Warm and cool' }));
    dialog = screen.getByRole('dialog', { name: 'Edit lesson' });
    expect(within(dialog).getByRole('textbox', { name: 'Lesson text' })).toHaveValue('Warm colours advance.');
    expect(within(dialog).getByRole('button', { name: 'Generate quiz' })).toBeEnabled();
  });

  it('opens a new quiz lesson from a saved text lesson, fills it with the generated questions and creates it on Add', async () => {
    const state: { course: Course } = { course: { ...paintingCourse, lessons: [textLesson] } };
    const { user, fetchMock } = renderCourseEditor(() => state.course, {
      'POST /api/ai/quiz-from-lesson': () => jsonResponse(200, { quiz: generatedQuiz, creditsRemaining: 37 }),
      [`POST ${COURSE}/lessons`]: () => jsonResponse(201, { ...textLesson, id: 'lesson-10', kind: 'quiz', body: null, quiz: generatedQuiz }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Colour theory' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Edit lesson' })).getByRole('button', { name: 'Generate quiz' }));

    const dialog = await screen.findByRole('dialog', { name: 'Add lesson' });
    expect(within(dialog).getByRole('textbox', { name: /Lesson title/ })).toHaveValue('Quiz: Colour theory');
    expect(within(dialog).getByRole('radio', { name: 'Quiz' })).toBeChecked();
    const panel = within(dialog).getByRole('region', { name: 'Generate quiz with AI' });
    expect(within(panel).getByRole('combobox', { name: 'From the lesson' })).toHaveValue('lesson-1');
    const count = within(panel).getByRole('combobox', { name: 'Questions' });
    expect(within(count).getAllByRole('option').map((o) => o.textContent)).toEqual(['3', '4', '5', '6', '7', '8', '9', '10']);
    await user.selectOptions(count, '3');
    await user.click(await within(panel).findByRole('button', { name: 'Generate 3 questions for 3 credits' }));

    expect(await within(dialog).findByTestId('ai-draft-mark')).toHaveTextContent('Draft — not saved');
    expect(within(dialog).getAllByTestId('quiz-question')).toHaveLength(3);
    expect(callsTo(fetchMock, 'POST', '/api/ai/quiz-from-lesson')[0]?.body).toEqual({ courseId: 'course-1', lessonId: 'lesson-1', questions: 3 });
    expect(callsTo(fetchMock, 'POST', `${COURSE}/lessons`)).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Add lesson' }));
    await vi.waitFor(() => expect(callsTo(fetchMock, 'POST', `${COURSE}/lessons`)).toHaveLength(1));
    expect(callsTo(fetchMock, 'POST', `${COURSE}/lessons`)[0]?.body).toMatchObject({ title: 'Quiz: Colour theory', kind: 'quiz', quiz: generatedQuiz });
  });

  it('asks for a saved text lesson first when the course has none with text', async () => {
    const state: { course: Course } = { course: { ...paintingCourse, lessons: [emptyLesson] } };
    const { user } = renderCourseEditor(() => state.course);
    await user.click(await screen.findByRole('button', { name: 'Add lesson' }));
    const dialog = screen.getByRole('dialog', { name: 'Add lesson' });
    await user.click(within(dialog).getByRole('radio', { name: 'Quiz' }));
    expect(within(dialog).getByText(/first save a text lesson with some text/)).toBeInTheDocument();
  });
});
