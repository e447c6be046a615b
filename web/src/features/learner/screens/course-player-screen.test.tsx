import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LearnerCourseDetail } from '@contracts/courses.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { browserTimeZone } from '../api/learning-queries.ts';
import { playerRoutes } from '../test/fixtures.ts';
import { CoursePlayerScreen } from './course-player-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

const BASE = '/api/learner/courses/course-paint';

const course: LearnerCourseDetail = {
  courseId: 'course-paint',
  title: 'Watercolour for Beginners',
  description: 'Paint with water.',
  creatorName: 'Maya Green',
  progress: 0,
  lastActivity: '2026-11-20T10:00:00.000Z',
  completedAt: null,
  branding: null,
  lessons: [
    { id: 'l1', title: 'Your first wash', kind: 'text', body: '<h2>Brushes</h2><p>Use a <strong>round</strong> brush.</p>', videoUrl: null, position: 0, files: [], completed: false, quiz: null },
    { id: 'l2', title: 'Wet on wet', kind: 'video', body: null, videoUrl: 'https://youtu.be/dQw4w9WgXcQ', position: 1, files: [], completed: false, quiz: null },
  ],
};

function renderPlayer(path = '/dashboard/learner/courses/course-paint') {
  return renderWithProviders(
    <Routes>
      <Route path="/dashboard/learner/courses/:courseId" element={<CoursePlayerScreen />} />
    </Routes>,
    { path },
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('CoursePlayerScreen', () => {
  it("opens the first lesson not completed, shows its HTML, and 'Mark complete' ticks it and moves the bar to 50%", async () => {
    const fetchMock = fakeApi({
      ...playerRoutes(BASE, course),
      'POST /api/learner/courses/course-paint/lessons/l1/complete': () => jsonResponse(200, { progress: 50, completedAt: null }),
    });
    const { user } = renderPlayer();

    expect(await screen.findByRole('heading', { level: 2, name: 'Your first wash' })).toBeInTheDocument();
    // The lesson's own read brings its body.
    expect(await screen.findByRole('heading', { name: 'Brushes' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Course progress: 0% complete' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Mark complete' }));

    expect(await screen.findByRole('progressbar', { name: 'Course progress: 50% complete' })).toBeInTheDocument();
    expect(screen.getByTestId('course-progress')).toHaveTextContent('50% complete');
    expect(within(screen.getByRole('navigation', { name: 'Lessons' })).getByRole('link', { name: '1. Your first wash, completed' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Your first wash' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark complete' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Next lesson' })).toHaveAttribute('href', '/dashboard/learner/courses/course-paint?lesson=l2');
    expect(callsTo(fetchMock, 'POST', '/api/learner/courses/course-paint/lessons/l1/complete')[0]?.body).toEqual({ timeZone: browserTimeZone() });
  });

  it("wears a branded creator's school: its mark over the course, its colour on the player's buttons", async () => {
    const branding = { schoolName: 'Paint School', primaryColor: '#7c3aed', onPrimaryColor: '#ffffff' as const, logoUrl: null };
    fakeApi(playerRoutes(BASE, { ...course, branding }));
    renderPlayer();
    await screen.findByRole('heading', { level: 2, name: 'Your first wash' });
    const school = screen.getByTestId('player-school');
    expect(school).toHaveTextContent('Paint School');
    expect(school.parentElement!.style.getPropertyValue('--color-primary')).toBe('#7c3aed');
    expect(school.parentElement!.style.getPropertyValue('--color-primary-foreground')).toBe('#ffffff');
  });

  it('shows no school for a creator without branding', async () => {
    fakeApi(playerRoutes(BASE, course));
    renderPlayer();
    await screen.findByRole('heading', { level: 2, name: 'Your first wash' });
    expect(screen.queryByTestId('player-school')).not.toBeInTheDocument();
  });

  it('plays a YouTube lesson through youtube-nocookie.com in a titled frame', async () => {
    fakeApi(playerRoutes(BASE, course));
    renderPlayer('/dashboard/learner/courses/course-paint?lesson=l2');
    const frame = await screen.findByTitle('Wet on wet');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
  });

  it.each([
    ['https://vimeo.com/123456789', 'IFRAME', 'https://player.vimeo.com/video/123456789?dnt=1'],
    ['https://cdn.example.com/wash.mp4', 'VIDEO', 'https://cdn.example.com/wash.mp4'],
  ])('plays %s in a %s element', async (videoUrl, tag, src) => {
    const video = { ...course, lessons: [{ ...course.lessons[1]!, videoUrl }] };
    fakeApi(playerRoutes(BASE, video));
    renderPlayer();
    await screen.findByRole('heading', { level: 2, name: 'Wet on wet' });
    const player = tag === 'IFRAME' ? await screen.findByTitle('Wet on wet') : await screen.findByLabelText('Wet on wet');
    expect(player.tagName).toBe(tag);
    expect(player).toHaveAttribute('src', src);
  });

  it('says the course is not theirs when the server answers 404', async () => {
    fakeApi({ [`GET ${BASE}/outline`]: () => errorResponse(404, 'NOT_FOUND', 'Course not found') });
    renderPlayer();
    expect(await screen.findByRole('heading', { level: 1, name: 'Course not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to my courses' })).toHaveAttribute('href', '/dashboard/learner/courses');
  });

  it("says the access ended, in the server's words, when the team's licence has ended (403)", async () => {
    const message = "Your team's licence for this course has ended. Ask your group leader for access.";
    fakeApi({ [`GET ${BASE}/outline`]: () => errorResponse(403, 'FORBIDDEN', message) });
    renderPlayer();
    expect(await screen.findByRole('heading', { level: 1, name: 'Access ended' })).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to my courses' })).toBeInTheDocument();
  });

  it('reads the outline and the opened lesson only, never the whole course, and the next lesson once it is opened', async () => {
    const fetchMock = fakeApi(playerRoutes(BASE, course));
    const { user } = renderPlayer();
    await screen.findByRole('heading', { name: 'Brushes' });
    // The course's reads (besides them, its upcoming live sessions are asked for once: course-player-sessions.test.tsx,
    // and the opened lesson's discussion once it is on screen: components/discussion).
    const reads = () => fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => url.startsWith(BASE));
    const others = () => fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => !url.startsWith(BASE));
    expect(reads()).toEqual([`${BASE}/outline`, `${BASE}/lessons/l1`]);
    await vi.waitFor(() => expect(others()).toEqual(['/api/learner/sessions?courseId=course-paint', '/api/courses/course-paint/lessons/l1/comments']));

    await user.click(screen.getByRole('link', { name: 'Next lesson' }));
    expect(await screen.findByTitle('Wet on wet')).toBeInTheDocument();
    expect(reads()).toEqual([`${BASE}/outline`, `${BASE}/lessons/l1`, `${BASE}/lessons/l2`]);
    await vi.waitFor(() => expect(others().at(-1)).toBe('/api/courses/course-paint/lessons/l2/comments'));
  });

  it('shows the lesson loading under its title from the outline, then its body', async () => {
    let answer: (response: Response) => void = () => undefined;
    fakeApi(playerRoutes(BASE, course, { l1: () => new Promise<Response>((resolve) => (answer = resolve)) }));
    renderPlayer();
    expect(await screen.findByRole('heading', { level: 2, name: 'Your first wash' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the lesson...');
    // Nothing to complete before the lesson is on screen.
    expect(screen.queryByRole('button', { name: 'Mark complete' })).not.toBeInTheDocument();
    answer(jsonResponse(200, course.lessons[0]));
    expect(await screen.findByRole('heading', { name: 'Brushes' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark complete' })).toBeInTheDocument();
    expect(screen.queryByText('Loading the lesson...')).not.toBeInTheDocument();
  });

  it('says the lesson could not be loaded, keeps the lesson list, and loads it again on Try again', async () => {
    let fail = true;
    fakeApi(playerRoutes(BASE, course, { l1: () => (fail ? errorResponse(500, 'INTERNAL', 'Boom') : jsonResponse(200, course.lessons[0])) }));
    const { user } = renderPlayer();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The lesson could not be loaded.');
    expect(within(screen.getByRole('navigation', { name: 'Lessons' })).getAllByRole('link')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Mark complete' })).not.toBeInTheDocument();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Brushes' })).toBeInTheDocument();
  });

  it('says a lesson removed from the course meanwhile is no longer there (404)', async () => {
    fakeApi(playerRoutes(BASE, course, { l1: () => errorResponse(404, 'NOT_FOUND', 'Lesson not found.') }));
    renderPlayer();
    expect(await screen.findByText('This lesson is no longer in the course. Choose another one from the list.')).toBeInTheDocument();
  });
});
