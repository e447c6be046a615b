import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { errorResponse, fakeApi, jsonResponse, renderWithProviders, statCard } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { adminStatsFixture as stats } from '../test/fixtures.ts';
import { AdminDashboardScreen } from './admin-dashboard-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const figure = statCard;

describe('AdminDashboardScreen', () => {
  it("says 'Loading analytics...' until the figures arrive", async () => {
    fakeApi({ 'GET /api/admin/stats': () => new Promise(() => undefined) });
    renderWithProviders(<AdminDashboardScreen />);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading analytics...');
  });

  it("shows the spec's four cards with real figures (users, published courses, MRR, certificates) and the recent activity, with the quick actions", async () => {
    fakeApi({ 'GET /api/admin/stats': () => jsonResponse(200, stats) });
    renderWithProviders(<AdminDashboardScreen />);
    await screen.findByRole('heading', { name: 'Total Users' });
    expect(figure('Total Users')).toHaveTextContent('14');
    expect(figure('Active Courses')).toHaveTextContent('5');
    expect(figure('Active Courses')).toHaveTextContent('Published of 7 courses · 42 enrolled, 9 completed');
    expect(figure('Revenue')).toHaveTextContent('£95');
    expect(figure('Revenue')).toHaveTextContent('3 subscribed (1 on trial)');
    expect(figure('Certificates Issued')).toHaveTextContent('0');
    expect(screen.getByText('New creator: maya@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Analytics' })).toHaveAttribute('href', '/dashboard/admin/analytics');
    expect(screen.getByRole('link', { name: 'Billing Settings' })).toHaveAttribute('href', '/dashboard/admin/settings#billing');
  });

  it("says when there has been no activity rather than showing samples", async () => {
    fakeApi({ 'GET /api/admin/stats': () => jsonResponse(200, { ...stats, recentActivity: [] }) });
    renderWithProviders(<AdminDashboardScreen />);
    expect(await screen.findByText('No activity in the last 30 days.')).toBeInTheDocument();
  });

  it("toasts 'Error' / 'Failed to load admin statistics' when the figures cannot be loaded", async () => {
    fakeApi({ 'GET /api/admin/stats': () => errorResponse(500, 'INTERNAL', 'boom') });
    renderWithProviders(<AdminDashboardScreen />);
    await screen.findByRole('alert');
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Failed to load admin statistics' }));
  });
});
