import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { callsTo, errorResponse, fakeApi, jsonResponse, planLoaded, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { spyOnToasts } from '@/test/toasts.ts';
import { crmMessages as m } from '../crm-messages.ts';
import { crmRow, detailsOf } from '../test/fixtures.ts';
import { CrmScreen } from './crm-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

const ada = crmRow();
const bob = crmRow({ id: 'learner-bob', email: 'bob@example.com', progress: 10, lastActivity: '2026-10-01T10:00:00.000Z', stalled: true });
const courses = { nextCursor: null, items: [{ id: 'course-paint', title: 'Watercolour for Beginners', description: '', status: 'published', lessonCount: 2, enrolledCount: 2, createdAt: '2026-09-01T00:00:00.000Z' }] };
const page = (items: unknown[], nextCursor: string | null = null) => jsonResponse(200, { items, nextCursor });

const learnerRows = () => within(screen.getByRole('region', { name: 'Enrolled learners' })).getAllByRole('row').slice(1);
const notesBox = () => screen.getByRole('textbox', { name: 'Notes' });

spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

describe('CrmScreen: the list', () => {
  it("says 'Loading learner data...' until the learners arrive", async () => {
    fakeApi({ 'GET /api/crm/learners': () => new Promise<Response>(() => undefined), 'GET /api/courses?limit=100': () => jsonResponse(200, courses) });
    renderWithProviders(<CrmScreen />);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading learner data...');
  });

  it("shows the spec's empty state when nobody is enrolled", async () => {
    fakeApi({ 'GET /api/crm/learners': () => page([]), 'GET /api/courses?limit=100': () => jsonResponse(200, { nextCursor: null, items: [] }) });
    renderWithProviders(<CrmScreen />);
    expect(await screen.findByText('No enrolled learners found. Create some courses to start getting learners!')).toBeInTheDocument();
  });

  it("toasts 'Error' / 'Failed to load learner data' when the list cannot be loaded", async () => {
    fakeApi({ 'GET /api/crm/learners': () => errorResponse(500, 'INTERNAL', 'boom'), 'GET /api/courses?limit=100': () => jsonResponse(200, courses) });
    renderWithProviders(<CrmScreen />);
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Failed to load learner data' }));
  });

  it("has the spec's columns: Learner with the 'Joined' date, Course, Progress bar and percent, Last Activity, 'View Details'", async () => {
    fakeApi({ 'GET /api/crm/learners': () => page([ada, bob]), 'GET /api/courses?limit=100': () => jsonResponse(200, courses) });
    renderWithProviders(<CrmScreen />);

    await screen.findByRole('region', { name: 'Enrolled learners' });
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Learner', 'Course', 'Progress', 'Last Activity', 'Actions']);
    const [first] = learnerRows();
    const cells = within(first!).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('ada@example.com');
    expect(cells[0]).toHaveTextContent('Joined 1 Oct 2026');
    expect(cells[1]).toHaveTextContent('Watercolour for Beginners');
    expect(within(cells[2]!).getByRole('progressbar', { name: /50% complete/ })).toBeInTheDocument();
    expect(cells[2]).toHaveTextContent('50%');
    expect(cells[3]).toHaveTextContent('20 Nov 2026');
    expect(within(cells[4]!).getByRole('button', { name: /^View Details/ })).toBeInTheDocument();
  });

  it("marks a learner idle for 14 days as 'Stalled', and only them", async () => {
    fakeApi({ 'GET /api/crm/learners': () => page([ada, bob]), 'GET /api/courses?limit=100': () => jsonResponse(200, courses) });
    renderWithProviders(<CrmScreen />);
    await screen.findByRole('region', { name: 'Enrolled learners' });
    const [adaRow, bobRow] = learnerRows();
    expect(within(adaRow!).queryByText('Stalled')).not.toBeInTheDocument();
    expect(within(bobRow!).getByText('Stalled')).toBeInTheDocument();
  });

  it('sorts the loaded rows by progress or by last activity', async () => {
    const cy = crmRow({ id: 'learner-cy', email: 'cy@example.com', progress: 80, lastActivity: '2026-11-01T10:00:00.000Z' });
    fakeApi({ 'GET /api/crm/learners': () => page([ada, bob, cy]), 'GET /api/courses?limit=100': () => jsonResponse(200, courses) });
    const { user } = renderWithProviders(<CrmScreen />);
    await screen.findByRole('region', { name: 'Enrolled learners' });
    const emails = () => learnerRows().map((row) => within(row).getAllByRole('cell')[0]!.textContent?.split('Joined')[0]);

    expect(emails()).toEqual(['ada@example.com', 'bob@example.com', 'cy@example.com']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'progress');
    expect(emails()).toEqual(['bob@example.com', 'ada@example.com', 'cy@example.com']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'activity');
    expect(emails()).toEqual(['bob@example.com', 'cy@example.com', 'ada@example.com']);
  });

  it("asks the server for one course's learners when filtered, and follows the cursor on 'Load more'", async () => {
    const fetchMock = fakeApi({
      'GET /api/crm/learners': () => page([ada], 'next-page'),
      'GET /api/crm/learners?cursor=next-page': () => page([bob]),
      'GET /api/crm/learners?courseId=course-paint': () => page([bob]),
      'GET /api/courses?limit=100': () => jsonResponse(200, courses),
    });
    const { user } = renderWithProviders(<CrmScreen />);
    await screen.findByRole('region', { name: 'Enrolled learners' });
    expect(learnerRows()).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await vi.waitFor(() => expect(learnerRows()).toHaveLength(2));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Course' }), 'course-paint');
    await vi.waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/crm/learners?courseId=course-paint')).toHaveLength(1));
    await vi.waitFor(() => expect(learnerRows()).toHaveLength(1));
    expect(learnerRows()[0]).toHaveTextContent('bob@example.com');
  });
});

describe('CrmScreen: the details panel', () => {
  async function openAda(routes: Parameters<typeof fakeApi>[0] = {}) {
    const fetchMock = fakeApi({
      'GET /api/crm/learners': () => page([{ ...ada, notes: 'Prefers video' }]),
      'GET /api/courses?limit=100': () => jsonResponse(200, courses),
      'GET /api/crm/learners/learner-ada': () =>
        jsonResponse(200, detailsOf({ ...ada, notes: 'Prefers video' }, { timeline: [{ kind: 'recommendation', text: 'Motivational message', sentAt: '2026-11-18T10:00:00.000Z' }] })),
      ...routes,
    });
    const rendered = renderWithProviders(<CrmScreen />);
    await rendered.user.click(await screen.findByRole('button', { name: 'View Details of ada@example.com' }));
    await screen.findByRole('dialog');
    return { ...rendered, fetchMock };
  }

  it('shows the progress per course, the notes in a 4-row textarea, the quick actions and the timeline', async () => {
    await openAda();
    const panel = screen.getByRole('dialog');
    expect(await within(panel).findByRole('progressbar', { name: 'Watercolour for Beginners: 50% complete' })).toBeInTheDocument();
    expect(notesBox()).toHaveAttribute('rows', '4');
    expect(notesBox()).toHaveValue('Prefers video');
    expect(within(panel).getByRole('button', { name: 'Save Notes' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Send Resources' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Send Encouragement' })).toBeInTheDocument();
    expect(within(panel).getByText('Motivational message')).toBeInTheDocument();
  });

  it("lists each enrolment's quiz scores: title, best score, passed or not and attempts; nothing for a course without quizzes", async () => {
    const quizzes = [
      { lessonId: 'l3', title: 'Check your colours', attempts: 2, bestScore: 80, passed: true },
      { lessonId: 'l5', title: 'Brush control', attempts: 3, bestScore: 40, passed: false },
      { lessonId: 'l7', title: 'Final check', attempts: 0, bestScore: null, passed: false },
    ];
    const details = detailsOf(ada);
    const painting = { ...details.enrollments[0]!, quizzes };
    const sketching = { ...painting, courseId: 'course-sketch', courseName: 'Sketching Basics', quizzes: [] };
    await openAda({ 'GET /api/crm/learners/learner-ada': () => jsonResponse(200, { ...details, enrollments: [painting, sketching] }) });
    const panel = within(screen.getByRole('dialog'));

    const scores = await panel.findByRole('list', { name: 'Quiz scores in Watercolour for Beginners' });
    const rows = within(scores).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Check your coloursPassedBest score 80%·2 attempts',
      'Brush controlNot passedBest score 40%·3 attempts',
      'Final checkNot takenNo score yet·0 attempts',
    ]);
    expect(panel.getAllByText('Quiz scores')).toHaveLength(1);
    expect(panel.queryByRole('list', { name: 'Quiz scores in Sketching Basics' })).not.toBeInTheDocument();
    expect(panel.getByRole('progressbar', { name: 'Sketching Basics: 50% complete' })).toBeInTheDocument();
  });

  it("saves the notes, toasts 'Notes saved', and the list keeps them without reloading", async () => {
    const { user, fetchMock } = await openAda({
      'PUT /api/crm/learners/learner-ada/notes': (init) =>
        jsonResponse(200, { notes: (JSON.parse(init!.body as string) as { notes: string }).notes, updatedAt: '2026-11-21T10:00:00.000Z' }),
    });
    await user.clear(notesBox());
    await user.type(notesBox(), 'Call on Friday');
    await user.click(screen.getByRole('button', { name: 'Save Notes' }));

    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.notesSaved.title, { description: 'Learner notes have been updated successfully.' }));
    expect(callsTo(fetchMock, 'PUT', '/api/crm/learners/learner-ada/notes')[0]?.body).toEqual({ notes: 'Call on Friday' });
    expect(callsTo(fetchMock, 'GET', '/api/crm/learners')).toHaveLength(1);

    // Closed and opened again: the draft starts from the list's row, which now holds the saved notes.
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'View Details of ada@example.com' }));
    expect(await screen.findByRole('textbox', { name: 'Notes' })).toHaveValue('Call on Friday');
  });

  it("toasts 'Save failed' / 'Failed to save notes' when saving fails", async () => {
    const { user } = await openAda({ 'PUT /api/crm/learners/learner-ada/notes': () => errorResponse(500, 'INTERNAL', 'boom') });
    await user.click(screen.getByRole('button', { name: 'Save Notes' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Save failed', { description: 'Failed to save notes' }));
  });

  it.each([
    ['Send Resources', 'Additional resources for your learning journey'],
    ['Send Encouragement', 'Motivational message'],
  ])("'%s' sends '%s' and toasts 'Recommendation sent'", async (button, text) => {
    const { user, fetchMock } = await openAda({ 'POST /api/crm/learners/learner-ada/recommendations': () => jsonResponse(201, { sent: true }) });
    await user.click(screen.getByRole('button', { name: button }));
    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Recommendation sent', { description: 'Your recommendation has been sent to the learner.' }),
    );
    expect(callsTo(fetchMock, 'POST', '/api/crm/learners/learner-ada/recommendations')[0]?.body).toEqual({ recommendation: text });
  });

  it("toasts 'Send failed' / 'Failed to send recommendation' when sending fails", async () => {
    const { user } = await openAda({ 'POST /api/crm/learners/learner-ada/recommendations': () => errorResponse(502, 'UPSTREAM_FAILED', 'ses down') });
    await user.click(screen.getByRole('button', { name: 'Send Encouragement' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Send failed', { description: 'Failed to send recommendation' }));
  });

  it('leads a creator whose email is not verified to verify it, without a toast', async () => {
    const { user } = await openAda({
      'POST /api/crm/learners/learner-ada/recommendations': () => errorResponse(403, 'EMAIL_NOT_VERIFIED', 'Verify your email address first.'),
    });
    await user.click(screen.getByRole('button', { name: 'Send Encouragement' }));
    const panel = await screen.findByRole('region', { name: 'Verify your email' });
    expect(within(panel).getByText('Verify your email address first. Then send it again.')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Send verification code' })).toBeInTheDocument();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it("says a trial's daily cap in its own words", async () => {
    const { user } = await openAda({
      'POST /api/crm/learners/learner-ada/recommendations': () => errorResponse(429, 'RATE_LIMITED', 'On a trial you can send 50 invitations and recommendations a day.'),
    });
    await user.click(screen.getByRole('button', { name: 'Send Encouragement' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Send failed', { description: 'On a trial you can send 50 invitations and recommendations a day.' }));
  });
});

describe('CrmScreen without a plan (issue 29)', () => {
  async function openAdaOn(tier: 'starter' | null) {
    const fetchMock = fakeApi({
      'GET /api/crm/learners': () => page([{ ...ada, notes: 'Prefers video' }]),
      'GET /api/courses?limit=100': () => jsonResponse(200, courses),
      'GET /api/crm/learners/learner-ada': () => jsonResponse(200, detailsOf({ ...ada, notes: 'Prefers video' })),
      'GET /api/me/subscription': () => jsonResponse(200, subscription(tier)),
    });
    const rendered = renderWithProviders(<CrmScreen />);
    await rendered.user.click(await screen.findByRole('button', { name: 'View Details of ada@example.com' }));
    const panel = await screen.findByRole('dialog');
    return { ...rendered, fetchMock, panel };
  }

  it('lists the learners and shows their notes read-only, with the way to a plan: nothing to save or send', async () => {
    const { fetchMock, panel } = await openAdaOn(null);

    await vi.waitFor(() => expect(notesBox()).toBeDisabled());
    expect(notesBox()).toHaveValue('Prefers video');
    expect(within(panel).getByRole('button', { name: 'Save Notes' })).toBeDisabled();
    expect(within(panel).getByRole('button', { name: 'Send Resources' })).toBeDisabled();
    expect(within(panel).getByRole('button', { name: 'Send Encouragement' })).toBeDisabled();
    expect(within(panel).getByRole('note')).toHaveTextContent(m.noPlan);
    expect(within(panel).getByRole('button', { name: 'Choose a plan' })).toBeEnabled();
    expect(await within(panel).findByRole('progressbar', { name: 'Watercolour for Beginners: 50% complete' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET')).toEqual([]);
  });

  it('says so above the list too', async () => {
    fakeApi({
      'GET /api/crm/learners': () => page([ada]),
      'GET /api/courses?limit=100': () => jsonResponse(200, courses),
      'GET /api/me/subscription': () => jsonResponse(200, subscription(null)),
    });
    renderWithProviders(<CrmScreen />);
    expect(await screen.findByRole('note')).toHaveTextContent(m.noPlan);
    expect(screen.getByRole('button', { name: 'View Details of ada@example.com' })).toBeEnabled();
  });

  it('keeps notes and quick actions for a creator on a plan', async () => {
    const { panel, queryClient } = await openAdaOn('starter');
    await planLoaded(queryClient);
    await within(panel).findByRole('progressbar', { name: 'Watercolour for Beginners: 50% complete' });
    expect(notesBox()).toBeEnabled();
    expect(within(panel).getByRole('button', { name: 'Save Notes' })).toBeEnabled();
    expect(within(panel).getByRole('button', { name: 'Send Resources' })).toBeEnabled();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});
