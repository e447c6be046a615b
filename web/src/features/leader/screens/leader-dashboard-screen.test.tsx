import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LearnerSession } from '@contracts/live-sessions.ts';
import { formatSessionStart } from '@/lib/format-session.ts';
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
    'GET /api/leader/sessions': () => jsonResponse(200, { items: [] }),
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

const minutes = (n: number) => n * 60_000;
const teamSession = (id: string, title: string, courseTitle: string, startsAt: number): LearnerSession => ({
  id,
  courseId: `c-${id}`,
  courseTitle,
  title,
  description: '',
  startsAt: new Date(startsAt).toISOString(),
  durationMinutes: 45,
  provider: 'teams',
  joinUrl: `https://teams.example/j/${id}`,
});

describe("LeaderDashboardScreen: the team's live sessions (issue 30)", () => {
  it('lists the licensed courses\' upcoming sessions with their course, time and tool, and Join live from 15 minutes before the start', async () => {
    const soon = teamSession('s-1', 'Pivot tables live', 'Excel for Teams', Date.now() + minutes(10));
    const later = teamSession('s-2', 'Rehearsal', 'Public Speaking', Date.now() + minutes(2 * 24 * 60));
    api({ 'GET /api/leader/sessions': () => jsonResponse(200, { items: [soon, later] }) });
    renderWithProviders(<LeaderDashboardScreen />);
    const region = within(await screen.findByRole('region', { name: 'Team live sessions' }));
    const [first, second] = (await region.findAllByTestId('team-session')).map((item) => within(item));
    expect(first!.getByText('Pivot tables live')).toBeInTheDocument();
    expect(first!.getByText('Excel for Teams')).toBeInTheDocument();
    expect(first!.getByText(formatSessionStart(soon.startsAt))).toBeInTheDocument();
    expect(first!.getByText('45 min')).toBeInTheDocument();
    expect(first!.getByText('Microsoft Teams')).toBeInTheDocument();
    const join = first!.getByRole('link', { name: 'Join Pivot tables live (opens in a new tab)' });
    expect(join).toHaveAttribute('href', 'https://teams.example/j/s-1');
    expect(join).toHaveAttribute('target', '_blank');
    expect(second!.getByText('Public Speaking')).toBeInTheDocument();
    expect(second!.getByRole('button', { name: /^Join Rehearsal: Opens / })).toBeDisabled();
    expect(second!.queryByRole('link')).toBeNull();
  });

  it('says when no session is scheduled', async () => {
    api();
    renderWithProviders(<LeaderDashboardScreen />);
    const region = within(await screen.findByRole('region', { name: 'Team live sessions' }));
    expect(await region.findByText("No upcoming live sessions. When a course's creator schedules one, it appears here.")).toBeInTheDocument();
    expect(region.queryByTestId('team-session')).toBeNull();
  });

  it('offers to load them again when they cannot be loaded, leaving the figures on screen', async () => {
    let calls = 0;
    api({
      'GET /api/leader/sessions': () =>
        ++calls === 1 ? errorResponse(503, 'SERVICE_UNAVAILABLE', 'Try again.') : jsonResponse(200, { items: [teamSession('s-1', 'Pivot tables live', 'Excel for Teams', Date.now() + minutes(60))] }),
    });
    renderWithProviders(<LeaderDashboardScreen />);
    const region = within(await screen.findByRole('region', { name: 'Team live sessions' }));
    expect(await region.findByRole('alert')).toHaveTextContent("Your team's live sessions could not be loaded.");
    expect(statCard('Team Members')).toHaveTextContent('3');
    await userEvent.click(region.getByRole('button', { name: 'Load live sessions again' }));
    expect(await region.findByText('Pivot tables live')).toBeInTheDocument();
  });
});
