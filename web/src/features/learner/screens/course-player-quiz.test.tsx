import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LearnerCourseDetail, LearnerQuiz, QuizAttemptResult } from '@contracts/courses.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { playerRoutes } from '../test/fixtures.ts';
import { CoursePlayerScreen } from './course-player-screen.tsx';

// A quiz lesson in the player (issue 15): the learner answers without ever getting the right answers, sees the
// score, the pass and the attempts left, and the review once the server gives it. Passing completes the lesson.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const BASE = '/api/learner/courses/course-paint';
const ATTEMPTS = `${BASE}/lessons/l2/attempts`;

/** What the learner gets: the questions in their order, and no right answers. */
const freshQuiz: LearnerQuiz = {
  passPercent: 70,
  maxAttempts: 3,
  questions: [
    { prompt: 'Which colour is warm?', type: 'single', options: ['Blue', 'Orange', 'Teal'] },
    { prompt: 'Which are primary colours?', type: 'multiple', options: ['Red', 'Green', 'Blue'] },
  ],
  attempts: 0,
  attemptsLeft: 3,
  bestScore: null,
  passed: false,
  review: null,
};

const review = [
  { correct: true, rightOptions: [1] },
  { correct: false, rightOptions: [0, 2] },
];

const courseWith = (quiz: LearnerQuiz, completed = false): LearnerCourseDetail => ({
  courseId: 'course-paint',
  title: 'Watercolour for Beginners',
  description: 'Paint with water.',
  creatorName: 'Maya Green',
  progress: 50,
  lastActivity: '2026-11-20T10:00:00.000Z',
  completedAt: null,
  branding: null,
  lessons: [
    { id: 'l1', title: 'Your first wash', kind: 'text', body: '<p>Wet the paper.</p>', videoUrl: null, position: 0, files: [], completed: true, quiz: null },
    { id: 'l2', title: 'Check your colours', kind: 'quiz', body: null, videoUrl: null, position: 1, files: [], completed, quiz },
  ],
});

const renderPlayer = (path = '/dashboard/learner/courses/course-paint') =>
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/learner/courses/:courseId" element={<CoursePlayerScreen />} />
    </Routes>,
    { path },
  );

/** The quiz lesson on screen: its title (from the outline), then its questions (from the lesson's own read). */
async function openQuiz() {
  await screen.findByRole('heading', { level: 2, name: 'Check your colours' });
  await screen.findByTestId('quiz-facts');
}

const group = (name: string) => within(screen.getByRole('group', { name }));
const result = () => within(screen.getByTestId('quiz-result'));

/** Answers question 1 with Orange and question 2 with Red and Blue. */
async function answer(user: ReturnType<typeof renderPlayer>['user']) {
  await user.click(group('Which colour is warm?').getByRole('radio', { name: 'Orange' }));
  await user.click(group('Which are primary colours?').getByRole('checkbox', { name: 'Blue' }));
  await user.click(group('Which are primary colours?').getByRole('checkbox', { name: 'Red' }));
}

describe('CoursePlayerScreen: quiz lessons', () => {
  it("shows each question as a group of radio buttons or checkboxes, has no 'Mark complete', and submits only once all are answered", async () => {
    const attempt: QuizAttemptResult = { score: 50, passed: false, attemptsLeft: 2, progress: 50, completedAt: null, review: null };
    const fetchMock = fakeApi({ ...playerRoutes(BASE, courseWith(freshQuiz)), [`POST ${ATTEMPTS}`]: () => jsonResponse(200, attempt) });
    const { user } = renderPlayer();

    expect(await screen.findByRole('heading', { level: 2, name: 'Check your colours' })).toBeInTheDocument();
    expect(await screen.findByTestId('quiz-facts')).toHaveTextContent('2 questions · Pass mark 70% · 3 attempts left');
    expect(group('Which colour is warm?').getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['Blue', 'Orange', 'Teal']);
    expect(group('Which are primary colours?').getAllByRole('checkbox')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Mark complete' })).not.toBeInTheDocument();
    expect(screen.getByText('Pass the quiz to complete this lesson.')).toBeInTheDocument();

    const submit = screen.getByRole('button', { name: 'Submit answers' });
    expect(submit).toBeDisabled();
    await user.click(group('Which colour is warm?').getByRole('radio', { name: 'Orange' }));
    expect(submit).toBeDisabled();
    await user.click(group('Which are primary colours?').getByRole('checkbox', { name: 'Blue' }));
    await user.click(group('Which are primary colours?').getByRole('checkbox', { name: 'Red' }));
    expect(submit).toBeEnabled();
    await user.click(submit);

    // The chosen option indexes, per question in the order shown.
    expect(await screen.findByRole('heading', { name: 'Score: 50%' })).toHaveFocus();
    expect(callsTo(fetchMock, 'POST', ATTEMPTS)[0]?.body).toEqual({ answers: [[1], [0, 2]] });
    expect(result().getByText('Not passed')).toBeInTheDocument();
    expect(result().getByText(/Pass mark 70%\. 2 attempts left\./)).toBeInTheDocument();
    expect(screen.queryByText('Right answer')).not.toBeInTheDocument();
    expect(screen.queryByTestId('question-mark')).not.toBeInTheDocument();
    expect(group('Which colour is warm?').getByRole('radio', { name: 'Orange' })).toBeDisabled();

    // 'Try again' starts over with no answers.
    await user.click(result().getByRole('button', { name: 'Try again' }));
    expect(screen.queryByTestId('quiz-result')).not.toBeInTheDocument();
    expect(group('Which colour is warm?').getByRole('radio', { name: 'Orange' })).not.toBeChecked();
    expect(group('Which are primary colours?').getByRole('checkbox', { name: 'Red' })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Submit answers' })).toBeDisabled();
    expect(screen.getByTestId('quiz-facts')).toHaveTextContent('2 attempts left · Best score so far 50%');
  });

  it('says "Submitting..." while the answers are on their way', async () => {
    fakeApi({ ...playerRoutes(BASE, courseWith(freshQuiz)), [`POST ${ATTEMPTS}`]: () => new Promise<Response>(() => undefined) });
    const { user } = renderPlayer();
    await openQuiz();
    await answer(user);
    await user.click(screen.getByRole('button', { name: 'Submit answers' }));
    expect(await screen.findByRole('button', { name: 'Submitting...' })).toBeDisabled();
  });

  it('on a pass shows the score and the review, ticks the lesson and moves the progress bar', async () => {
    const attempt: QuizAttemptResult = { score: 100, passed: true, attemptsLeft: 2, progress: 100, completedAt: '2026-11-21T10:00:00.000Z', review: [{ correct: true, rightOptions: [1] }, { correct: true, rightOptions: [0, 2] }] };
    fakeApi({ ...playerRoutes(BASE, courseWith(freshQuiz)), [`POST ${ATTEMPTS}`]: () => jsonResponse(200, attempt) });
    const { user, router } = renderPlayer();
    await openQuiz();
    await answer(user);
    await user.click(screen.getByRole('button', { name: 'Submit answers' }));

    expect(await screen.findByRole('heading', { name: 'Score: 100%' })).toBeInTheDocument();
    expect(result().getByText('Passed')).toBeInTheDocument();
    expect(result().getByText(/You passed: this lesson is complete\./)).toBeInTheDocument();
    expect(result().queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.getAllByTestId('question-mark').map((m) => m.textContent)).toEqual(['Correct', 'Correct']);
    expect(screen.getByRole('progressbar', { name: 'Course progress: 100% complete' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Lessons' })).getByRole('link', { name: '2. Check your colours, completed' })).toBeInTheDocument();
    expect(screen.getByText('Completed')).toBeInTheDocument();
    // The passed quiz stays on screen (pinned in the address), though it is no longer the first lesson to take.
    expect(router.state.location.search).toBe('?lesson=l2');
    expect(toast.success).toHaveBeenCalledWith('Course completed', { description: 'You finished every lesson of this course. Well done!' });
  });

  it('after the final attempt shows no attempts left and the review: each question right or wrong, and its right options', async () => {
    const last = { ...freshQuiz, attempts: 2, attemptsLeft: 1, bestScore: 0 };
    const attempt: QuizAttemptResult = { score: 50, passed: false, attemptsLeft: 0, progress: 50, completedAt: null, review };
    fakeApi({ ...playerRoutes(BASE, courseWith(last)), [`POST ${ATTEMPTS}`]: () => jsonResponse(200, attempt) });
    const { user } = renderPlayer();
    await openQuiz();
    expect(screen.getByTestId('quiz-facts')).toHaveTextContent('1 attempt left · Best score so far 0%');
    await user.click(group('Which colour is warm?').getByRole('radio', { name: 'Orange' }));
    await user.click(group('Which are primary colours?').getByRole('checkbox', { name: 'Green' }));
    await user.click(screen.getByRole('button', { name: 'Submit answers' }));

    expect(await screen.findByRole('heading', { name: 'Score: 50%' })).toBeInTheDocument();
    expect(result().getByText('Not passed')).toBeInTheDocument();
    expect(result().getByText(/No attempts left\./)).toBeInTheDocument();
    expect(result().queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(group('Which colour is warm?').getByTestId('question-mark')).toHaveTextContent('Correct');
    expect(group('Which are primary colours?').getByTestId('question-mark')).toHaveTextContent('Incorrect');
    const second = group('Which are primary colours?');
    expect(second.getByRole('checkbox', { name: 'Red' })).toHaveAccessibleDescription('Right answer');
    expect(second.getByRole('checkbox', { name: 'Red' })).not.toBeChecked();
    expect(second.getByRole('checkbox', { name: 'Blue' })).toHaveAccessibleDescription('Right answer');
    expect(second.getByRole('checkbox', { name: 'Green' })).toBeChecked();
    expect(second.getByRole('checkbox', { name: 'Green' })).not.toHaveAccessibleDescription();
    expect(screen.queryByRole('button', { name: 'Submit answers' })).not.toBeInTheDocument();
  });

  it('shows a quiz passed before with its best score and review, and nothing to submit', async () => {
    const passed: LearnerQuiz = { ...freshQuiz, maxAttempts: null, attempts: 2, attemptsLeft: null, bestScore: 90, passed: true, review };
    fakeApi(playerRoutes(BASE, courseWith(passed, true)));
    renderPlayer('/dashboard/learner/courses/course-paint?lesson=l2');

    expect(await screen.findByRole('heading', { name: 'Best score: 90%' })).toBeInTheDocument();
    expect(result().getByText('Passed')).toBeInTheDocument();
    expect(screen.getAllByTestId('question-mark')).toHaveLength(2);
    expect(group('Which colour is warm?').getByRole('radio', { name: 'Orange' })).toHaveAccessibleDescription('Right answer');
    expect(group('Which colour is warm?').getByRole('radio', { name: 'Orange' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Submit answers' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark complete' })).not.toBeInTheDocument();
    expect(screen.getByText('Completed')).toBeInTheDocument();
  });

  it('says "Unlimited attempts" for a quiz without a limit', async () => {
    fakeApi(playerRoutes(BASE, courseWith({ ...freshQuiz, maxAttempts: null, attemptsLeft: null })));
    renderPlayer();
    expect(await screen.findByTestId('quiz-facts')).toHaveTextContent('2 questions · Pass mark 70% · Unlimited attempts');
  });

  it("toasts the server's refusal (409) and loads the course again", async () => {
    let gets = 0;
    const fetchMock = fakeApi({
      ...playerRoutes(BASE, courseWith(freshQuiz), {
        l2: () => jsonResponse(200, courseWith(++gets === 1 ? freshQuiz : { ...freshQuiz, attempts: 3, attemptsLeft: 0, bestScore: 50, review }).lessons[1]),
      }),
      [`POST ${ATTEMPTS}`]: () => errorResponse(409, 'CONFLICT', 'You have no attempts left on this quiz.'),
    });
    const { user } = renderPlayer();
    await openQuiz();
    await answer(user);
    await user.click(screen.getByRole('button', { name: 'Submit answers' }));

    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'You have no attempts left on this quiz.' }));
    // The lesson is read again (the outline too), so the quiz shows where it really stands.
    await vi.waitFor(() => expect(callsTo(fetchMock, 'GET', `${BASE}/lessons/l2`)).toHaveLength(2));
    expect(callsTo(fetchMock, 'GET', `${BASE}/outline`)).toHaveLength(2);
    expect(await screen.findByRole('heading', { name: 'Best score: 50%' })).toBeInTheDocument();
    expect(result().getByText(/No attempts left\./)).toBeInTheDocument();
  });
});
