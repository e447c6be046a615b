import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CreatorStats } from '@contracts/courses.ts';
import { errorResponse, fakeApi, jsonResponse, renderWithProviders, statCard } from '@/test/render.tsx';
import { CreatorDashboardScreen } from './creator-dashboard-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
afterEach(() => vi.unstubAllGlobals());

const stats: CreatorStats = {
  courses: 2,
  students: 12,
  completionRate: 25,
  certificates: 2,
  revenuePence: 0,
  recentCourses: [
    { id: 'course-1', title: 'Watercolour for Beginners', description: '', status: 'published', lessonCount: 3, enrolledCount: 12, priceAmount: 0, seatPriceAmount: 0, createdAt: '2026-11-20T10:00:00.000Z' },
  ],
};

const figure = statCard;

describe('CreatorDashboardScreen', () => {
  it("shows the creator's real figures, revenue £0, and the recent courses linking to their editors", async () => {
    fakeApi({ 'GET /api/creator/stats': () => jsonResponse(200, stats) });
    renderWithProviders(<CreatorDashboardScreen />);

    const recent = await screen.findByRole('link', { name: 'Watercolour for Beginners' });
    expect(recent).toHaveAttribute('href', '/dashboard/creator/courses/course-1');
    expect(figure('My Courses')).toHaveTextContent('2');
    expect(figure('Total Students')).toHaveTextContent('12');
    expect(figure('Completion Rate')).toHaveTextContent('25%');
    expect(figure('Completion Rate')).toHaveTextContent('2 certificates issued');
    expect(figure('Revenue')).toHaveTextContent('£0');
    expect(screen.queryByText('Sample data')).not.toBeInTheDocument();
  });

  it('invites a creator without courses to create one', async () => {
    fakeApi({ 'GET /api/creator/stats': () => jsonResponse(200, { ...stats, courses: 0, students: 0, recentCourses: [] }) });
    renderWithProviders(<CreatorDashboardScreen />);
    expect(await screen.findByRole('link', { name: 'Create your first course' })).toHaveAttribute('href', '/dashboard/creator/create');
  });

  it('says when the figures could not be loaded', async () => {
    fakeApi({ 'GET /api/creator/stats': () => errorResponse(500, 'INTERNAL', 'boom') });
    renderWithProviders(<CreatorDashboardScreen />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
