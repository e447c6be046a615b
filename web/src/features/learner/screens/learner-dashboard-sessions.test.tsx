import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LearnerSession } from '@contracts/live-sessions.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { formatSessionStart, formatTimeOfDay } from '@/lib/format-session.ts';
import { saveFile } from '@/lib/save-file.ts';
import { errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { browserTimeZone } from '../api/learning-queries.ts';
import { LearnerDashboardScreen } from './learner-dashboard-screen.tsx';

// 'My Learning''s upcoming live sessions (issue 30 point 2): Join live from 15 minutes before the start until the end,
// the calendar file downloaded with the learner's token.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
vi.mock('@/lib/save-file.ts', () => ({ saveFile: vi.fn() }));

const NOW = Date.parse('2030-03-04T09:00:00.000Z');
const minutes = (n: number) => n * 60_000;

const session = (id: string, title: string, startsAt: number, changes: Partial<LearnerSession> = {}): LearnerSession => ({
  id,
  courseId: 'course-paint',
  courseTitle: 'Watercolour',
  title,
  description: '',
  startsAt: new Date(startsAt).toISOString(),
  durationMinutes: 60,
  provider: 'zoom',
  joinUrl: `https://zoom.example/j/${id}`,
  ...changes,
});

function renderDashboard(items: LearnerSession[], extra: Parameters<typeof fakeApi>[0] = {}) {
  const fetchMock = fakeApi({
    [`GET /api/learner/summary?timeZone=${encodeURIComponent(browserTimeZone())}`]: () =>
      jsonResponse(200, { enrolled: 1, completed: 0, certificates: 0, studyStreak: 0, continueLearning: [] }),
    'GET /api/learner/browse': () => jsonResponse(200, { items: [] }),
    'GET /api/learner/memberships': () => jsonResponse(200, { items: [] }),
    'GET /api/learner/sessions': () => jsonResponse(200, { items }),
    ...extra,
  });
  return { ...renderWithProviders(<LearnerDashboardScreen />), fetchMock };
}

const sessionsRegion = async () => within(await screen.findByRole('region', { name: 'Upcoming live sessions' }));

spyOnToasts();
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.mocked(saveFile).mockClear();
});

describe("'My Learning': upcoming live sessions", () => {
  it('lists each session with its course, local time and zone, duration and tool; Join is closed until 15 minutes before, live until the end', async () => {
    // Only Date and the 30-second interval are faked: the fake server and Testing Library keep real timeouts.
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(NOW);
    const soon = session('s-1', 'Live Q&A', NOW + minutes(20), { durationMinutes: 30 });
    const later = session('s-2', 'Critique night', NOW + minutes(3 * 24 * 60), { provider: 'teams', durationMinutes: 90 });
    renderDashboard([soon, later]);

    const region = await sessionsRegion();
    const [first, second] = region.getAllByTestId('live-session').map((item) => within(item));
    expect(first!.getByText('Live Q&A')).toBeInTheDocument();
    expect(first!.getByText('Watercolour')).toBeInTheDocument();
    expect(first!.getByText(formatSessionStart(soon.startsAt))).toBeInTheDocument();
    expect(first!.getByText('30 min')).toBeInTheDocument();
    expect(first!.getByText('Zoom')).toBeInTheDocument();
    expect(second!.getByText('1 h 30 min')).toBeInTheDocument();
    expect(second!.getByText('Microsoft Teams')).toBeInTheDocument();

    // 20 minutes ahead: closed, saying when it opens (today: the time alone).
    const opensAt = formatTimeOfDay(NOW + minutes(5));
    const closed = first!.getByRole('button', { name: `Join Live Q&A: Opens at ${opensAt}` });
    expect(closed).toBeDisabled();
    expect(closed).toHaveTextContent(`Join · Opens at ${opensAt}`);
    expect(first!.queryByRole('link', { name: /Join/ })).toBeNull();
    // Days ahead: the day is said too.
    expect(second!.getByRole('button', { name: /^Join Critique night: Opens / })).toBeDisabled();

    // 4.5 minutes later: still closed; at 5 minutes (15 before the start) the next check opens it.
    act(() => vi.advanceTimersByTime(minutes(4.5)));
    expect(first!.getByRole('button', { name: /^Join Live Q&A: Opens/ })).toBeDisabled();
    act(() => vi.advanceTimersByTime(minutes(0.5)));
    const join = first!.getByRole('link', { name: 'Join Live Q&A (opens in a new tab)' });
    expect(join).toHaveAttribute('href', 'https://zoom.example/j/s-1');
    expect(join).toHaveAttribute('target', '_blank');

    // Still live during the session; gone once it has ended (the other one stays, closed).
    act(() => vi.advanceTimersByTime(minutes(15 + 29)));
    expect(region.getByRole('link', { name: 'Join Live Q&A (opens in a new tab)' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(minutes(1)));
    expect(region.queryByText('Live Q&A')).toBeNull();
    expect(region.getAllByTestId('live-session')).toHaveLength(1);
  });

  it("downloads the session's calendar file with the learner's token and saves it as session-<id>.ics", async () => {
    const ics = 'BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nEND:VCALENDAR\r\n';
    const { user, fetchMock } = renderDashboard([session('s-1', 'Live Q&A', Date.now() + minutes(120))], {
      'GET /api/learner/sessions/s-1/calendar.ics': () => new Response(ics, { status: 200, headers: { 'Content-Type': 'text/calendar' } }),
    });
    await user.click((await sessionsRegion()).getByRole('button', { name: 'Add Live Q&A to your calendar' }));

    await vi.waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    const [blob, name] = vi.mocked(saveFile).mock.calls[0]!;
    expect(name).toBe('session-s-1.ics');
    expect(await blob.text()).toBe(ics);
    const init = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/calendar.ics'))![1]!;
    const headers = new Headers(init.headers);
    expect(headers.get('Authorization')).toBe('Bearer access-token');
    expect(headers.get('Accept')).toBe('text/calendar');
  });

  it('says so when the calendar file cannot be had, and saves nothing', async () => {
    const { user } = renderDashboard([session('s-1', 'Live Q&A', Date.now() + minutes(120))], {
      'GET /api/learner/sessions/s-1/calendar.ics': () => errorResponse(404, 'NOT_FOUND', 'Session not found.'),
    });
    await user.click((await sessionsRegion()).getByRole('button', { name: 'Add Live Q&A to your calendar' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Session not found.' }));
    expect(saveFile).not.toHaveBeenCalled();
  });

  it('shows no section when no session is scheduled', async () => {
    renderDashboard([]);
    await screen.findByRole('region', { name: 'Key figures' });
    await vi.waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    expect(screen.queryByRole('region', { name: 'Upcoming live sessions' })).toBeNull();
    expect(screen.queryByText(/live session/i)).toBeNull();
  });

  it('offers to load the sessions again when they cannot be loaded, without hiding the rest', async () => {
    let calls = 0;
    const { user } = renderDashboard([], {
      'GET /api/learner/sessions': () =>
        ++calls === 1 ? errorResponse(503, 'SERVICE_UNAVAILABLE', 'Try again.') : jsonResponse(200, { items: [session('s-1', 'Live Q&A', Date.now() + minutes(60))] }),
    });
    expect(await screen.findByText('Your live sessions could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Key figures' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load live sessions again' }));
    expect(await (await sessionsRegion()).findByText('Live Q&A')).toBeInTheDocument();
  });
});
