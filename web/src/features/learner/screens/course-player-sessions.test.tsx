import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LearnerCourseDetail } from '@contracts/courses.ts';
import type { LearnerSession } from '@contracts/live-sessions.ts';
import { formatSessionStart } from '@/lib/format-session.ts';
import { saveFile } from '@/lib/save-file.ts';
import { errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { playerRoutes } from '../test/fixtures.ts';
import { CoursePlayerScreen } from './course-player-screen.tsx';

// The course player's live sessions (issue 30 point 2): the course's upcoming sessions above its lessons, with the
// same Join rule and calendar file as on 'My Learning'; nothing when the course has none.

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
vi.mock('@/lib/save-file.ts', () => ({ saveFile: vi.fn() }));

const BASE = '/api/learner/courses/course-paint';
const SESSIONS = '/api/learner/sessions?courseId=course-paint';
const minutes = (n: number) => n * 60_000;

const course: LearnerCourseDetail = {
  courseId: 'course-paint',
  title: 'Watercolour for Beginners',
  description: 'Paint with water.',
  creatorName: 'Maya Green',
  progress: 0,
  lastActivity: '2026-11-20T10:00:00.000Z',
  completedAt: null,
  branding: null,
  lessons: [{ id: 'l1', title: 'Your first wash', kind: 'text', body: '<p>Use a round brush.</p>', videoUrl: null, position: 0, files: [], completed: false, quiz: null }],
};

const session = (id: string, title: string, startsAt: number): LearnerSession => ({
  id,
  courseId: 'course-paint',
  courseTitle: 'Watercolour for Beginners',
  title,
  description: '',
  startsAt: new Date(startsAt).toISOString(),
  durationMinutes: 60,
  provider: 'zoom',
  joinUrl: `https://zoom.example/j/${id}`,
});

function renderPlayer(sessions: () => Response) {
  const fetchMock = fakeApi({ ...playerRoutes(BASE, course), [`GET ${SESSIONS}`]: sessions });
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/dashboard/learner/courses/:courseId" element={<CoursePlayerScreen />} />
    </Routes>,
    { path: '/dashboard/learner/courses/course-paint' },
  );
  return { ...rendered, fetchMock };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(saveFile).mockClear();
});

describe("the course player's live sessions", () => {
  it("asks for this course's sessions only and lists them with Join (live from 15 minutes before) and the calendar file", async () => {
    const soon = session('s-1', 'Live Q&A', Date.now() + minutes(10));
    const later = session('s-2', 'Critique night', Date.now() + minutes(3 * 24 * 60));
    const { user } = renderPlayer(() => jsonResponse(200, { items: [soon, later] }));

    const region = within(await screen.findByRole('region', { name: 'Upcoming live sessions' }));
    const [first, second] = region.getAllByTestId('live-session').map((item) => within(item));
    expect(first!.getByText('Live Q&A')).toBeInTheDocument();
    expect(first!.getByText(formatSessionStart(soon.startsAt))).toBeInTheDocument();
    // The course's own page does not repeat its name under each session.
    expect(region.queryByText('Watercolour for Beginners')).toBeNull();
    expect(first!.getByRole('link', { name: 'Join Live Q&A (opens in a new tab)' })).toHaveAttribute('href', 'https://zoom.example/j/s-1');
    expect(second!.getByRole('button', { name: /^Join Critique night: Opens / })).toBeDisabled();
    // The lessons are there as before.
    expect(await screen.findByRole('heading', { level: 2, name: 'Your first wash' })).toBeInTheDocument();

    const ics = 'BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nEND:VCALENDAR\r\n';
    vi.unstubAllGlobals();
    fakeApi({ 'GET /api/learner/sessions/s-2/calendar.ics': () => new Response(ics, { status: 200, headers: { 'Content-Type': 'text/calendar' } }) });
    await user.click(second!.getByRole('button', { name: 'Add Critique night to your calendar' }));
    await vi.waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    expect(vi.mocked(saveFile).mock.calls[0]![1]).toBe('session-s-2.ics');
  });

  it('shows no section when the course has no upcoming session', async () => {
    renderPlayer(() => jsonResponse(200, { items: [] }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Your first wash' })).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryAllByRole('status')).toHaveLength(0));
    expect(screen.queryByRole('region', { name: 'Upcoming live sessions' })).toBeNull();
    expect(screen.queryByText(/live session/i)).toBeNull();
  });

  it('offers to load them again when they cannot be loaded, leaving the lesson on screen', async () => {
    let calls = 0;
    const { user } = renderPlayer(() =>
      ++calls === 1 ? errorResponse(503, 'SERVICE_UNAVAILABLE', 'Try again.') : jsonResponse(200, { items: [session('s-1', 'Live Q&A', Date.now() + minutes(60))] }),
    );
    expect(await screen.findByText("This course's live sessions could not be loaded.")).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Your first wash' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load live sessions again' }));
    expect(await within(await screen.findByRole('region', { name: 'Upcoming live sessions' })).findByText('Live Q&A')).toBeInTheDocument();
  });
});
