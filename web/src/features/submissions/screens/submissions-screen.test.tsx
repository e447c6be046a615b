import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Submission } from '@contracts/submissions.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { everyPayload, expectNoInjectedMarkup, expectPlainText } from '@/test/xss.ts';
import { SubmissionsScreen } from './submissions-screen.tsx';

// The creator's Submissions (issue 35 point 2): across their courses, by course and status, oldest first; opening one
// shows the answer as text and grades it, a revision only with feedback.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const course = (id: string, title: string) => ({ id, title, description: '', status: 'published', lessonCount: 2, enrolledCount: 2, createdAt: '2026-09-01T00:00:00.000Z' });
const COURSES = { 'GET /api/courses?limit=100': () => jsonResponse(200, { nextCursor: null, items: [course('paint', 'Watercolour for Beginners'), course('ink', 'Ink Drawing')] }) };
const queue = (courseId: string, status = 'submitted') => `GET /api/courses/${courseId}/submissions?status=${status}`;
const page = (items: Submission[], nextCursor: string | null = null) => () => jsonResponse(200, { items, nextCursor });

const sub = (over: Partial<Submission>): Submission => ({
  id: 's1', courseId: 'paint', lessonId: 'l2', lessonTitle: 'Paint a wash', learnerEmail: 'ada@example.com',
  text: 'I painted it. <script>alert(1)</script>', files: [], status: 'submitted', submittedAt: '2026-11-21T10:00:00.000Z', feedback: null, gradedAt: null, ...over,
});
const ada = sub({});
const bob = sub({ id: 's2', courseId: 'ink', lessonId: 'l7', lessonTitle: 'Cross-hatching', learnerEmail: 'bob@example.com', submittedAt: '2026-11-20T09:00:00.000Z' });

/** Each row's learner (the cell's first line: on a phone the others fold under it), course and lesson. */
const rows = () =>
  screen.getAllByTestId('submission-row').map((row) => {
    const [learner, course, lesson] = within(row).getAllByRole('cell');
    return [learner!.firstChild!.textContent, course!.textContent, lesson!.textContent];
  });

describe('SubmissionsScreen', () => {
  it("lists what waits for review across the creator's courses, oldest first, with learner, course, lesson and time", async () => {
    fakeApi({ ...COURSES, [queue('paint')]: page([ada]), [queue('ink')]: page([bob]) });
    renderWithProviders(<SubmissionsScreen />);
    await screen.findAllByTestId('submission-row');
    expect(screen.getByLabelText('Status')).toHaveValue('submitted');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Learner', 'Course', 'Lesson', 'Submitted', 'Actions']);
    expect(rows()).toEqual([
      ['bob@example.com', 'Ink Drawing', 'Cross-hatching'],
      ['ada@example.com', 'Watercolour for Beginners', 'Paint a wash'],
    ]);
    expect(screen.getAllByTestId('submission-row')[0]).toHaveTextContent('20 Nov 2026');
  });

  it('filters by course and by status through the server', async () => {
    const passed = sub({ id: 's9', status: 'passed', feedback: 'Lovely.', gradedAt: '2026-11-22T10:00:00.000Z' });
    const fetchMock = fakeApi({ ...COURSES, [queue('paint')]: page([ada]), [queue('ink')]: page([bob]), [queue('paint', 'passed')]: page([passed]) });
    const { user } = renderWithProviders(<SubmissionsScreen />);
    await screen.findAllByTestId('submission-row');
    await user.selectOptions(screen.getByLabelText('Course'), 'Watercolour for Beginners');
    await vi.waitFor(() => expect(rows()).toEqual([['ada@example.com', 'Watercolour for Beginners', 'Paint a wash']]));
    await user.selectOptions(screen.getByLabelText('Status'), 'Passed');
    expect(await screen.findByRole('region', { name: 'Submissions: Passed' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/courses/paint/submissions?status=passed')).toHaveLength(1);
    expect(callsTo(fetchMock, 'GET', '/api/courses/ink/submissions?status=passed')).toHaveLength(0);
  });

  it('says so when nothing waits for review', async () => {
    fakeApi({ ...COURSES, [queue('paint')]: page([]), [queue('ink')]: page([]) });
    renderWithProviders(<SubmissionsScreen />);
    expect(await screen.findByText('Nothing is waiting for review. When a learner hands in an assignment, it appears here.')).toBeInTheDocument();
  });

  it('shows the answer as text, refuses a revision without feedback, and asks for one with it', async () => {
    let waiting = [ada];
    const fetchMock = fakeApi({
      ...COURSES,
      [queue('paint')]: () => jsonResponse(200, { items: waiting, nextCursor: null }),
      [queue('ink')]: page([]),
      'POST /api/submissions/s1/grade': () => {
        waiting = [];
        return jsonResponse(200, { ...ada, status: 'needs_revision', feedback: 'Let it dry first.', gradedAt: '2026-11-22T10:00:00.000Z' });
      },
    });
    const { user } = renderWithProviders(<SubmissionsScreen />);
    await user.click(await screen.findByRole('button', { name: 'Open the submission of ada@example.com for Paint a wash' }));
    const sheet = await screen.findByRole('dialog');
    expect(within(sheet).getByTestId('submission-text')).toHaveTextContent('I painted it. <script>alert(1)</script>');

    await user.click(within(sheet).getByRole('button', { name: 'Ask for revision' }));
    expect(within(sheet).getByText('Say what the learner should change.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/submissions/s1/grade')).toHaveLength(0);

    await user.type(within(sheet).getByRole('textbox', { name: /Feedback for the learner/ }), 'Let it dry first.');
    await user.click(within(sheet).getByRole('button', { name: 'Ask for revision' }));
    expect(await within(sheet).findByText(/Revision asked for .*\. We emailed ada@example\.com\./)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/submissions/s1/grade')[0]?.body).toEqual({ status: 'needs_revision', feedback: 'Let it dry first.' });
    expect(within(sheet).queryByRole('button', { name: 'Mark as passed' })).not.toBeInTheDocument();
    // It has left the queue of what waits for review.
    await vi.waitFor(() => expect(screen.queryByTestId('submission-row')).not.toBeInTheDocument());
  });

  it("passes a submission without feedback, and shows the server's refusal where the creator acted", async () => {
    let answer = () => errorResponse(409, 'CONFLICT', 'This submission was graded already.');
    fakeApi({
      ...COURSES,
      [queue('paint')]: page([ada]),
      [queue('ink')]: page([]),
      'POST /api/submissions/s1/grade': () => answer(),
    });
    const { user } = renderWithProviders(<SubmissionsScreen />);
    await user.click(await screen.findByRole('button', { name: /Open the submission of ada@example.com/ }));
    const sheet = await screen.findByRole('dialog');
    await user.click(within(sheet).getByRole('button', { name: 'Mark as passed' }));
    expect(await within(sheet).findByRole('alert')).toHaveTextContent('This submission was graded already.');

    answer = () => jsonResponse(200, { ...ada, status: 'passed', feedback: '', gradedAt: '2026-11-22T10:00:00.000Z' });
    await user.click(within(sheet).getByRole('button', { name: 'Mark as passed' }));
    expect(await within(sheet).findByText(/^Passed .*\. We emailed ada@example\.com\.$/)).toBeInTheDocument();
    expect(within(sheet).getByTestId('submission-status')).toHaveTextContent('Passed');
  });

  it("shows every payload of the XSS corpus in a learner's answer and in the feedback as text, never as markup", async () => {
    const hostile = sub({ text: everyPayload, status: 'needs_revision', feedback: everyPayload, gradedAt: '2026-11-22T10:00:00.000Z' });
    fakeApi({ ...COURSES, [queue('paint')]: page([]), [queue('ink')]: page([]), [queue('paint', 'needs_revision')]: page([hostile]), [queue('ink', 'needs_revision')]: page([]) });
    const { user } = renderWithProviders(<SubmissionsScreen />);
    await user.selectOptions(await screen.findByLabelText('Status'), 'Needs revision');
    await user.click(await screen.findByRole('button', { name: 'Open the submission of ada@example.com for Paint a wash' }));
    const sheet = await screen.findByRole('dialog');
    expectPlainText(within(sheet).getByTestId('submission-text'), everyPayload);
    expect(within(within(sheet).getByRole('region', { name: 'Grade' })).getByText((_, node) => node?.textContent === everyPayload && node.children.length === 0)).toBeInTheDocument();
    expectNoInjectedMarkup();
  });
});
