import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LearnerCourseDetail, LearnerLesson } from '@contracts/courses.ts';
import { callsTo, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { outlineOf, playerRoutes } from '../test/fixtures.ts';
import { CoursePlayerScreen } from './course-player-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

/** Drip release in the player (issue 33): a locked lesson shows its lock and opening date, nothing else, and opens on time. */

const BASE = '/api/learner/courses/course-paint';

const open: LearnerLesson = { id: 'l1', title: 'Your first wash', kind: 'text', body: '<p>Brushes</p>', videoUrl: null, position: 0, files: [], completed: true, quiz: null, locked: false, availableAt: null };
const lockedLesson = (availableAt: string): LearnerLesson => ({
  id: 'l2',
  title: 'Wet on wet',
  kind: 'text',
  body: null,
  videoUrl: null,
  position: 1,
  files: [],
  completed: false,
  quiz: null,
  locked: true,
  availableAt,
});

const courseWith = (second: LearnerLesson): LearnerCourseDetail => ({
  courseId: 'course-paint',
  title: 'Watercolour for Beginners',
  description: 'Paint with water.',
  creatorName: 'Maya Green',
  progress: 100,
  lastActivity: '2026-11-20T10:00:00.000Z',
  completedAt: null,
  branding: null,
  lessons: [open, second],
});

afterEach(() => vi.unstubAllGlobals());

describe('a drip lesson in the player', () => {
  it('is listed with a lock and its opening date, shows only that, is never read while locked, and opens when its time comes', { timeout: 20_000 }, async () => {
    const availableAt = new Date(Date.now() + 6000).toISOString();
    const locked = courseWith(lockedLesson(availableAt));
    const opened = courseWith({ ...lockedLesson(availableAt), locked: false, body: '<p>Now wet the paper.</p>' });
    const fetchMock = fakeApi({
      ...playerRoutes(BASE, locked),
      // The server's outline as the clock moves: locked until availableAt, open after.
      [`GET ${BASE}/outline`]: () => jsonResponse(200, outlineOf(Date.now() >= Date.parse(availableAt) ? opened : locked)),
      [`GET ${BASE}/lessons/l2`]: () => jsonResponse(200, opened.lessons[1]),
    });
    renderWithProviders(
      <Routes>
        <Route path="/dashboard/learner/courses/:courseId" element={<CoursePlayerScreen />} />
      </Routes>,
      { path: '/dashboard/learner/courses/course-paint' },
    );

    // The first lesson not completed is locked: the player shows it locked, not the completed one.
    expect(await screen.findByRole('heading', { level: 2, name: 'Wet on wet' })).toBeInTheDocument();
    const panel = screen.getByTestId('lesson-locked');
    expect(panel).toHaveTextContent('This lesson is locked');
    expect(panel).toHaveTextContent(/It opens on .*2026/);
    expect(within(screen.getByRole('navigation', { name: 'Lessons' })).getByRole('link', { name: /^2\. Wet on wet, locked until / })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark complete' })).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', `${BASE}/lessons/l2`)).toHaveLength(0);
    // Every open lesson done is not the course done.
    expect(screen.getByTestId('course-progress')).toHaveTextContent('100% of open lessons done');

    // Its time comes: the outline is read again and the lesson opens on screen.
    expect(await screen.findByText('Now wet the paper.', {}, { timeout: 12_000 })).toBeInTheDocument();
    expect(screen.queryByTestId('lesson-locked')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark complete' })).toBeInTheDocument();
  });
});
