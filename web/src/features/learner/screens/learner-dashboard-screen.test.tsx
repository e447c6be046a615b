import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LearnerSummary } from '@contracts/courses.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { browserTimeZone } from '../api/learning-queries.ts';
import { LearnerDashboardScreen } from './learner-dashboard-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

/** No live session scheduled and no membership held (their sections are then absent). */
const noSessions = { 'GET /api/learner/sessions': () => jsonResponse(200, { items: [] }), 'GET /api/learner/memberships': () => jsonResponse(200, { items: [] }) };

const summaryPath = () => `/api/learner/summary?timeZone=${encodeURIComponent(browserTimeZone())}`;

afterEach(() => vi.unstubAllGlobals());

describe("LearnerDashboardScreen ('My Learning')", () => {
  it("shows the learner's figures for their time zone and links each course to its player", async () => {
    const summary: LearnerSummary = {
      enrolled: 2,
      completed: 1,
      certificates: 0,
      studyStreak: 3,
      continueLearning: [{ courseId: 'course-paint', title: 'Watercolour', progress: 50, lastActivity: '2026-11-20T10:00:00.000Z', completedAt: null }],
    };
    fakeApi({ [`GET ${summaryPath()}`]: () => jsonResponse(200, summary), 'GET /api/learner/browse': () => jsonResponse(200, { items: [] }), ...noSessions });
    renderWithProviders(<LearnerDashboardScreen />);

    const figures = await screen.findByRole('region', { name: 'Key figures' });
    expect(figures).toHaveTextContent('Enrolled Courses2');
    expect(figures).toHaveTextContent('Completed1');
    expect(figures).toHaveTextContent('Certificates0');
    expect(figures).toHaveTextContent('Study Streak3 days');
    expect(screen.getByRole('link', { name: 'Continue Watercolour' })).toHaveAttribute('href', '/dashboard/learner/courses/course-paint');
    expect(screen.getByRole('progressbar', { name: 'Watercolour: 50% complete' })).toBeInTheDocument();
  });

  it('says what will come when the learner is not enrolled anywhere', async () => {
    fakeApi({
      [`GET ${summaryPath()}`]: () => jsonResponse(200, { enrolled: 0, completed: 0, certificates: 0, studyStreak: 0, continueLearning: [] }),
      'GET /api/learner/browse': () => jsonResponse(200, { items: [] }),
      ...noSessions,
    });
    renderWithProviders(<LearnerDashboardScreen />);
    expect(await screen.findByRole('heading', { name: 'You are not enrolled in any course yet' })).toBeInTheDocument();
    expect(await screen.findByText(/No recommendations yet/)).toBeInTheDocument();
  });
});

describe("'My Learning''s recommended list", () => {
  const summary: LearnerSummary = { enrolled: 1, completed: 0, certificates: 0, studyStreak: 0, continueLearning: [] };
  const course = (n: number) => ({
    id: `course-${n}`,
    title: `Course ${n}`,
    description: '',
    priceAmount: 1500 + n,
    lessonCount: n,
    creatorName: 'Ada Baker',
    creatorSlug: 'ada',
  });

  it('shows the first courses on sale from the creators the learner learns with, each linking to its page, and Browse for the rest', async () => {
    fakeApi({ [`GET ${summaryPath()}`]: () => jsonResponse(200, summary), 'GET /api/learner/browse': () => jsonResponse(200, { items: [1, 2, 3, 4].map(course) }), ...noSessions });
    renderWithProviders(<LearnerDashboardScreen />);
    const list = await screen.findByRole('list', { name: 'Recommended courses' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringContaining('Course 1by Ada Baker · 1 lesson · £15.01'),
      expect.stringContaining('Course 2by Ada Baker · 2 lessons · £15.02'),
      expect.stringContaining('Course 3by Ada Baker · 3 lessons · £15.03'),
    ]);
    expect(within(list).getByRole('link', { name: 'View course: Course 2' })).toHaveAttribute('href', '/c/course-2');
    expect(screen.getByRole('link', { name: 'Browse all 4' })).toHaveAttribute('href', '/dashboard/learner/browse');
  });

  it('says it is loading on its own while the figures are already shown', async () => {
    fakeApi({ [`GET ${summaryPath()}`]: () => jsonResponse(200, summary), 'GET /api/learner/browse': () => new Promise<Response>(() => undefined), ...noSessions });
    renderWithProviders(<LearnerDashboardScreen />);
    await screen.findByRole('region', { name: 'Key figures' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading recommendations...');
  });

  it('offers a retry when the recommendations cannot be loaded, without hiding the rest of the page', async () => {
    let calls = 0;
    fakeApi({
      [`GET ${summaryPath()}`]: () => jsonResponse(200, summary),
      'GET /api/learner/browse': () => (++calls === 1 ? errorResponse(503, 'SERVICE_UNAVAILABLE', 'Try again.') : jsonResponse(200, { items: [course(1)] })),
      ...noSessions,
    });
    const { user } = renderWithProviders(<LearnerDashboardScreen />);
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'View course: Course 1' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Key figures' })).toBeInTheDocument();
  });
});

describe("'My Learning''s memberships", () => {
  const summary: LearnerSummary = { enrolled: 1, completed: 0, certificates: 0, studyStreak: 0, continueLearning: [] };
  const held = (membershipId: string, title: string, changes: Record<string, unknown> = {}) => ({
    membershipId,
    title,
    interval: 'month',
    priceAmount: 1200,
    status: 'active',
    currentPeriodEnd: '2026-12-20T10:00:00.000Z',
    cancelAtPeriodEnd: false,
    ...changes,
  });

  it("lists each membership held with its price and renewal or end, and 'Manage membership' opens Stripe's billing portal, back to My Learning", async () => {
    const assign = vi.fn<(url: string) => void>();
    vi.stubGlobal('location', { origin: 'http://app.test', href: 'http://app.test/dashboard/learner', assign });
    const fetchMock = fakeApi({
      [`GET ${summaryPath()}`]: () => jsonResponse(200, summary),
      'GET /api/learner/browse': () => jsonResponse(200, { items: [] }),
      'GET /api/learner/sessions': () => jsonResponse(200, { items: [] }),
      'GET /api/learner/memberships': () =>
        jsonResponse(200, {
          items: [
            held('ms-ink', 'Ink club', { cancelAtPeriodEnd: true }),
            held('ms-paint', 'Painting club', { interval: 'year', priceAmount: 9900 }),
            held('ms-gone', 'A membership no longer sold', { interval: null, priceAmount: null, status: 'past_due' }),
          ],
        }),
      'POST /api/learner/memberships/ms-paint/portal': () => jsonResponse(200, { url: 'https://billing.stripe.test/p/1' }),
    });
    renderWithProviders(<LearnerDashboardScreen />);
    const region = await screen.findByRole('region', { name: 'Your memberships' });
    expect(within(region).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Ink club£12 a month · Ends on 20 Dec 2026Manage membership',
      'Painting club£99 a year · Renews on 20 Dec 2026Manage membership',
      'A membership no longer soldPayment overdue: update your card to keep accessManage membership',
    ]);
    await userEvent.click(within(region).getByRole('button', { name: 'Manage membership: Painting club' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/1'));
    expect(callsTo(fetchMock, 'POST', '/api/learner/memberships/ms-paint/portal').map((call) => call.body)).toEqual([{ returnUrl: 'http://app.test/dashboard/learner' }]);
  });

  it('shows no memberships section to a learner without one', async () => {
    fakeApi({ [`GET ${summaryPath()}`]: () => jsonResponse(200, summary), 'GET /api/learner/browse': () => jsonResponse(200, { items: [] }), ...noSessions });
    renderWithProviders(<LearnerDashboardScreen />);
    await screen.findByRole('region', { name: 'Key figures' });
    expect(screen.queryByRole('region', { name: 'Your memberships' })).not.toBeInTheDocument();
  });
});
