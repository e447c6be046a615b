import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CreatorStats } from '@contracts/courses.ts';
import { errorResponse, fakeApi, jsonResponse, planLoaded, renderWithProviders, statCard } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { CreatorDashboardScreen, NO_PLAN_ACTIONS } from './creator-dashboard-screen.tsx';

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

// The unanswered questions card (its own tests: components/unanswered-questions-card.test.tsx) asks for its first page.
const noQuestions = { 'GET /api/creator/questions': () => jsonResponse(200, { items: [], nextCursor: null }) };

describe('CreatorDashboardScreen', () => {
  it("shows the creator's real figures, revenue £0, and the recent courses linking to their editors", async () => {
    fakeApi({ ...noQuestions, 'GET /api/creator/stats': () => jsonResponse(200, stats) });
    renderWithProviders(<CreatorDashboardScreen />);

    const recent = await screen.findByRole('link', { name: 'Watercolour for Beginners' });
    expect(recent).toHaveAttribute('href', '/dashboard/creator/courses/course-1');
    expect(figure('My Courses')).toHaveTextContent('2');
    expect(figure('Total Students')).toHaveTextContent('12');
    expect(figure('Completion Rate')).toHaveTextContent('25%');
    expect(figure('Completion Rate')).toHaveTextContent('2 certificates issued');
    expect(figure('Revenue')).toHaveTextContent('£0');
    expect(screen.queryByText('Sample data')).not.toBeInTheDocument();
    expect(await within(screen.getByRole('region', { name: 'Unanswered questions' })).findByText('No unanswered questions. Nice work.')).toBeInTheDocument();
  });

  it('invites a creator without courses to create one', async () => {
    fakeApi({ ...noQuestions, 'GET /api/creator/stats': () => jsonResponse(200, { ...stats, courses: 0, students: 0, recentCourses: [] }) });
    renderWithProviders(<CreatorDashboardScreen />);
    expect(await screen.findByRole('link', { name: 'Create your first course' })).toHaveAttribute('href', '/dashboard/creator/create');
  });

  it('says when the figures could not be loaded', async () => {
    fakeApi({ ...noQuestions, 'GET /api/creator/stats': () => errorResponse(500, 'INTERNAL', 'boom') });
    renderWithProviders(<CreatorDashboardScreen />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('CreatorDashboardScreen without a plan (issue 29)', () => {
  const quickActions = () => screen.getByRole('region', { name: 'Quick Actions' });

  it('leads from the quick actions to the plan picker: no action that ends in a refused write', async () => {
    fakeApi({
      ...noQuestions,
      'GET /api/creator/stats': () => jsonResponse(200, { ...stats, courses: 0, students: 0, recentCourses: [] }),
      'GET /api/me/subscription': () => jsonResponse(200, subscription(null)),
    });
    renderWithProviders(<CreatorDashboardScreen billing={<section aria-label="Choose your plan">plans</section>} />);

    expect(await screen.findByRole('link', { name: 'Choose a plan to create your first course' })).toHaveAttribute('href', '#choose-plan');
    const actions = within(quickActions());
    expect(actions.getByRole('note')).toHaveTextContent(NO_PLAN_ACTIONS);
    expect(actions.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute('href', '#choose-plan');
    for (const name of ['Create Course', 'Generate Landing Page', 'Connect Integrations']) expect(actions.queryByRole('link', { name })).not.toBeInTheDocument();
    // Reading stays open.
    expect(actions.getByRole('link', { name: 'View Learners' })).toHaveAttribute('href', '/dashboard/creator/crm');
    expect(actions.getByRole('link', { name: 'See analytics' })).toBeInTheDocument();
    // The way leads to the picker on this page.
    expect(screen.getByRole('region', { name: 'Choose your plan' }).closest('#choose-plan')).not.toBeNull();
    expect(screen.queryByRole('link', { name: 'Create your first course' })).not.toBeInTheDocument();
  });

  it('keeps every quick action for a creator on a plan', async () => {
    fakeApi({
      ...noQuestions,
      'GET /api/creator/stats': () => jsonResponse(200, stats),
      'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')),
    });
    const { queryClient } = renderWithProviders(<CreatorDashboardScreen />);
    await planLoaded(queryClient);
    const actions = within(quickActions());
    for (const name of ['Create Course', 'Generate Landing Page', 'View Learners', 'Connect Integrations']) expect(actions.getByRole('link', { name })).toBeInTheDocument();
    expect(actions.queryByRole('note')).not.toBeInTheDocument();
  });
});
