import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LearnerSummary } from '@contracts/courses.ts';
import { fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { browserTimeZone } from '../api/learning-queries.ts';
import { LearnerDashboardScreen } from './learner-dashboard-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

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
    fakeApi({ [`GET ${summaryPath()}`]: () => jsonResponse(200, summary) });
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
    fakeApi({ [`GET ${summaryPath()}`]: () => jsonResponse(200, { enrolled: 0, completed: 0, certificates: 0, studyStreak: 0, continueLearning: [] }) });
    renderWithProviders(<LearnerDashboardScreen />);
    expect(await screen.findByRole('heading', { name: 'You are not enrolled in any course yet' })).toBeInTheDocument();
  });
});
