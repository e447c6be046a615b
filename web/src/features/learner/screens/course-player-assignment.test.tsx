import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LearnerCourseDetail } from '@contracts/courses.ts';
import type { MySubmission } from '@contracts/submissions.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { everyPayload, expectNoInjectedMarkup, expectPlainText } from '@/test/xss.ts';
import { playerRoutes } from '../test/fixtures.ts';
import { CoursePlayerScreen } from './course-player-screen.tsx';

// An assignment lesson in the player (issue 35 point 2): the instructions, the answer box, then where the submission
// stands; a new answer only after a revision was asked for; a pass completes the lesson.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const BASE = '/api/learner/courses/course-paint';
const SUBMISSIONS = `${BASE}/lessons/l2/submissions`;

const courseWith = (completed = false, acceptsFiles = false): LearnerCourseDetail => ({
  courseId: 'course-paint',
  title: 'Watercolour for Beginners',
  description: 'Paint with water.',
  creatorName: 'Maya Green',
  progress: completed ? 100 : 50,
  lastActivity: '2026-11-20T10:00:00.000Z',
  completedAt: null,
  branding: null,
  lessons: [
    { id: 'l1', title: 'Your first wash', kind: 'text', body: '<p>Wet the paper.</p>', videoUrl: null, position: 0, files: [], completed: true, quiz: null },
    {
      id: 'l2', title: 'Paint a wash', kind: 'assignment', body: null, videoUrl: null, position: 1, files: [], completed, quiz: null,
      assignment: { instructions: '## Your task', html: '<h2>Your task</h2><p>Paint a flat wash &lt;b&gt;.</p>', acceptsFiles },
    },
  ],
});

const submitted: MySubmission = { id: 's1', text: 'I painted it.', files: [], status: 'submitted', submittedAt: '2026-11-21T10:00:00.000Z', feedback: null, gradedAt: null };

const renderPlayer = () =>
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/learner/courses/:courseId" element={<CoursePlayerScreen />} />
    </Routes>,
    { path: '/dashboard/learner/courses/course-paint?lesson=l2' },
  );

describe('CoursePlayerScreen: an assignment that accepts files', () => {
  it('uploads each picked file straight to the bucket, refuses a type it cannot take, and hands in the files with or without text', async () => {
    let mine: MySubmission | null = null;
    const FILES = `${BASE}/lessons/l2/submission-files`;
    const fetchMock = fakeApi({
      ...playerRoutes(BASE, courseWith(false, true)),
      [`GET ${SUBMISSIONS}`]: () => jsonResponse(200, { submission: mine }),
      [`POST ${FILES}`]: () =>
        jsonResponse(201, { file: { id: 'f1', name: 'wash.png', contentType: 'image/png', size: 4 }, url: 'https://files.example/put-f1', expiresAt: '2026-11-21T10:15:00.000Z' }),
      'PUT https://files.example/put-f1': () => new Response(null, { status: 200 }),
      [`POST ${SUBMISSIONS}`]: () => {
        mine = { ...submitted, text: '', files: [{ id: 'f1', name: 'wash.png', contentType: 'image/png', size: 4 }] };
        return jsonResponse(201, { id: 's1', status: 'submitted' });
      },
    });
    const { user } = renderPlayer();

    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Write your answer or add a file before you submit it.')).toBeInTheDocument();

    const picker = screen.getByLabelText('Files to hand in');
    // The picker's `accept` keeps other types out of the dialog, but a drop or a browser that ignores it may still send one.
    await userEvent.setup({ applyAccept: false }).upload(picker, new File(['notes'], 'notes.txt', { type: 'text/plain' }));
    const files = await screen.findByRole('list', { name: 'Your files' });
    expect(await within(files).findByText('Upload a PDF or an image (PNG, JPEG, GIF, WebP).')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', FILES)).toHaveLength(0);
    await user.click(within(files).getByRole('button', { name: 'Remove notes.txt' }));

    await user.upload(picker, new File(['wash'], 'wash.png', { type: 'image/png' }));
    expect(await within(screen.getByRole('list', { name: 'Your files' })).findByText('4 B, uploaded')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', FILES)[0]?.body).toEqual({ name: 'wash.png', contentType: 'image/png', size: 4 });
    const put = fetchMock.mock.calls.find(([input]) => String(input) === 'https://files.example/put-f1');
    expect(new Headers(put?.[1]?.headers).get('Content-Type')).toBe('image/png');

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Waiting for review')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', SUBMISSIONS)[0]?.body).toEqual({ fileIds: ['f1'] });
  });
});

describe('CoursePlayerScreen: assignment lessons', () => {
  it('shows the instructions, refuses an empty answer, hands the text in and then says it waits for review', async () => {
    let mine: MySubmission | null = null;
    const fetchMock = fakeApi({
      ...playerRoutes(BASE, courseWith()),
      [`GET ${SUBMISSIONS}`]: () => jsonResponse(200, { submission: mine }),
      [`POST ${SUBMISSIONS}`]: () => {
        mine = submitted;
        return jsonResponse(201, { id: 's1', status: 'submitted' });
      },
    });
    const { user } = renderPlayer();

    const instructions = await screen.findByRole('region', { name: 'Instructions' });
    expect(within(instructions).getByRole('heading', { name: 'Your task' })).toBeInTheDocument();
    expect(instructions).toHaveTextContent('Paint a flat wash <b>.');
    expect(screen.queryByRole('button', { name: 'Mark complete' })).not.toBeInTheDocument();
    expect(screen.getByText('This lesson is complete once your creator passes your submission.')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Write your answer before you submit it.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', SUBMISSIONS)).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: /Your answer/ }), '  I painted it. ');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Waiting for review')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', SUBMISSIONS)[0]?.body).toEqual({ text: 'I painted it.' });
    // Handed in: no answer box until the creator asks for a revision.
    expect(screen.queryByRole('textbox', { name: /answer/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Submit/ })).not.toBeInTheDocument();
  });

  it("shows the creator's feedback on a revision and sends the revised answer, starting from the last one", async () => {
    let mine: MySubmission = { ...submitted, status: 'needs_revision', feedback: 'Let the wash dry first.', gradedAt: '2026-11-22T10:00:00.000Z' };
    const fetchMock = fakeApi({
      ...playerRoutes(BASE, courseWith()),
      [`GET ${SUBMISSIONS}`]: () => jsonResponse(200, { submission: mine }),
      [`POST ${SUBMISSIONS}`]: () => {
        mine = { ...submitted, id: 's2', text: 'I painted it. Dried now.' };
        return jsonResponse(201, { id: 's2', status: 'submitted' });
      },
    });
    const { user } = renderPlayer();

    expect(await screen.findByText('Needs revision')).toBeInTheDocument();
    expect(screen.getByTestId('submission-feedback')).toHaveTextContent('Let the wash dry first.');
    const box = screen.getByRole('textbox', { name: /Your revised answer/ });
    expect(box).toHaveValue('I painted it.');
    await user.type(box, ' Dried now.');
    await user.click(screen.getByRole('button', { name: 'Submit again' }));
    expect(await screen.findByText('Waiting for review')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', SUBMISSIONS)[0]?.body).toEqual({ text: 'I painted it. Dried now.' });
  });

  it("says why the server refused a submission where the learner acted", async () => {
    fakeApi({
      ...playerRoutes(BASE, courseWith()),
      [`GET ${SUBMISSIONS}`]: () => jsonResponse(200, { submission: null }),
      [`POST ${SUBMISSIONS}`]: () => errorResponse(409, 'CONFLICT', 'Your submission is waiting for review.'),
    });
    const { user } = renderPlayer();
    await user.type(await screen.findByRole('textbox', { name: /Your answer/ }), 'Done');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your submission is waiting for review.');
  });

  it('on a pass shows the lesson completed, reading the outline again when its tick is not there yet', async () => {
    let outlineCompleted = false;
    const passed: MySubmission = { ...submitted, status: 'passed', feedback: 'Lovely.', gradedAt: '2026-11-22T10:00:00.000Z' };
    const routes = playerRoutes(BASE, courseWith());
    fakeApi({
      ...routes,
      [`GET ${BASE}/outline`]: () => {
        const answer = playerRoutes(BASE, courseWith(outlineCompleted))[`GET ${BASE}/outline`]!();
        outlineCompleted = true;
        return answer;
      },
      [`GET ${SUBMISSIONS}`]: () => jsonResponse(200, { submission: passed }),
    });
    renderPlayer();
    expect(await screen.findByText('Passed')).toBeInTheDocument();
    expect(screen.getByTestId('submission-feedback')).toHaveTextContent('Lovely.');
    expect(await screen.findByText('Completed')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '2. Paint a wash, completed' })).toBeInTheDocument();
    expect(screen.getByTestId('course-progress')).toHaveTextContent('100% complete');
    expect(screen.queryByRole('textbox', { name: /answer/ })).not.toBeInTheDocument();
  });
});

describe('CoursePlayerScreen: hostile text in a submission', () => {
  it("shows every payload of the XSS corpus in the learner's answer and the creator's feedback as text, never as markup", async () => {
    const passed: MySubmission = { ...submitted, text: everyPayload, status: 'passed', feedback: everyPayload, gradedAt: '2026-11-22T10:00:00.000Z' };
    fakeApi({ ...playerRoutes(BASE, courseWith(true)), [`GET ${SUBMISSIONS}`]: () => jsonResponse(200, { submission: passed }) });
    const { user } = renderPlayer();
    expect(await screen.findByText('Passed')).toBeInTheDocument();
    await user.click(screen.getByText('Your answer'));
    expectPlainText(screen.getByTestId('my-submission-text'), everyPayload);
    expectPlainText(screen.getByTestId('submission-feedback'), everyPayload);
    expectNoInjectedMarkup();
  });

  it('puts the answer to revise back in the answer box as typed', async () => {
    const revise: MySubmission = { ...submitted, text: everyPayload, status: 'needs_revision', feedback: everyPayload, gradedAt: '2026-11-22T10:00:00.000Z' };
    fakeApi({ ...playerRoutes(BASE, courseWith()), [`GET ${SUBMISSIONS}`]: () => jsonResponse(200, { submission: revise }) });
    renderPlayer();
    expect(await screen.findByRole('textbox', { name: /Your revised answer/ })).toHaveValue(everyPayload);
    expectPlainText(screen.getByTestId('submission-feedback'), everyPayload);
    expectNoInjectedMarkup();
  });
});
