import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, fakeApi, jsonResponse, renderWithProviders, statCard } from '@/test/render.tsx';
import { LeaderDashboardScreen } from './leader-dashboard-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const license = (id: string, courseTitle: string, seatsUsed: number, seatsTotal: number, status: 'active' | 'ended' = 'active') => ({
  id,
  courseId: `c-${id}`,
  courseTitle,
  leaderEmail: 'lead@example.com',
  seatsTotal,
  seatsUsed,
  expiresAt: null,
  status,
  source: 'granted',
  createdAt: '2026-11-20T10:00:00.000Z',
});
const row = (email: string, licenseId: string, courseTitle: string, progress: number, lastActivity: string | null) => ({
  email,
  licenseId,
  courseId: `c-${licenseId}`,
  courseTitle,
  status: 'active',
  progress,
  lastActivity,
  completedAt: progress === 100 ? lastActivity : null,
  certificate: null,
});

const summary = {
  members: 3,
  activeLicenses: 2,
  seatsTotal: 15,
  completionRate: 33,
  completed: 1,
  certificates: 0,
  groups: 2,
  // The server's order: the most recently active first.
  recent: [
    row('cy@example.com', 'l2', 'Public Speaking', 50, '2026-11-25T09:00:00.000Z'),
    row('ann@example.com', 'l1', 'Excel for Teams', 100, '2026-11-24T10:00:00.000Z'),
    row('bob@example.com', 'l1', 'Excel for Teams', 0, null),
  ],
};

const api = (over: Parameters<typeof fakeApi>[0] = {}) =>
  fakeApi({
    'GET /api/leader/summary': () => jsonResponse(200, summary),
    'GET /api/leader/licenses': () => jsonResponse(200, { nextCursor: null, items: [license('l1', 'Excel for Teams', 2, 10), license('l2', 'Public Speaking', 1, 5)] }),
    ...over,
  });

describe('LeaderDashboardScreen', () => {
  it("shows the team's real figures, its most recently active members and each licence's seats", async () => {
    api();
    renderWithProviders(<LeaderDashboardScreen />);
    await screen.findByRole('heading', { name: 'Team Members' });
    expect(statCard('Team Members')).toHaveTextContent('3');
    expect(statCard('Team Members')).toHaveTextContent('In 2 groups');
    expect(statCard('Licenses')).toHaveTextContent('3 / 15');
    expect(statCard('Completion Rate')).toHaveTextContent('33%');
    expect(statCard('Completion Rate')).toHaveTextContent('1 of 3 completed');
    expect(statCard('Certificates')).toHaveTextContent('0');
    const progress = screen.getAllByRole('progressbar').map((bar) => bar.getAttribute('aria-label'));
    expect(progress.slice(0, 3)).toEqual(['cy@example.com: 50% complete', 'ann@example.com: 100% complete', 'bob@example.com: 0% complete']);
    expect(screen.getByRole('progressbar', { name: 'Excel for Teams: 2 of 10 seats used' })).toBeInTheDocument();
    expect(screen.queryByText('Sample data')).not.toBeInTheDocument();
  });

  it('tells a leader without a licence how their team arrives', async () => {
    api({ 'GET /api/leader/licenses': () => jsonResponse(200, { nextCursor: null, items: [] }), 'GET /api/leader/summary': () => jsonResponse(200, { ...summary, members: 0, groups: 0, recent: [] }) });
    renderWithProviders(<LeaderDashboardScreen />);
    expect(await screen.findByRole('heading', { name: 'No team yet' })).toBeInTheDocument();
  });

  it('says so when the figures cannot be loaded, and tries again', async () => {
    let fail = true;
    api({ 'GET /api/leader/summary': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { members: 0, activeLicenses: 1, seatsTotal: 5, completionRate: null, completed: 0, certificates: 0, groups: 0, recent: [] })) });
    renderWithProviders(<LeaderDashboardScreen />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Your team's figures could not be loaded.");
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Team Members' })).toBeInTheDocument();
    expect(statCard('Completion Rate')).toHaveTextContent('No members yet');
  });
});
