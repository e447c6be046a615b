import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { errorResponse, fakeApi, jsonResponse, renderWithProviders, statCard } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { adminStatsFixture as stats } from '../test/fixtures.ts';
import { AdminAnalyticsScreen } from './admin-analytics-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const figure = statCard;

describe('AdminAnalyticsScreen', () => {
  it("says 'Loading analytics...' until the figures arrive", async () => {
    fakeApi({ 'GET /api/admin/stats': () => new Promise(() => undefined) });
    renderWithProviders(<AdminAnalyticsScreen />);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading analytics...');
  });

  it("shows the platform's real figures: users, the estimate beside the MRR, no affiliates yet, the breakdown and the activity", async () => {
    fakeApi({ 'GET /api/admin/stats': () => jsonResponse(200, stats) });
    renderWithProviders(<AdminAnalyticsScreen />);

    await screen.findByRole('heading', { name: 'Total Users' });
    expect(figure('Total Users')).toHaveTextContent('14');
    expect(figure('Total Users')).toHaveTextContent('5 creators · 6 learners · 1 disabled');
    expect(figure('Platform Revenue')).toHaveTextContent('£87');
    expect(figure('Platform Revenue')).toHaveTextContent('MRR £95');
    expect(figure('Affiliate Network')).toHaveTextContent('No affiliates yet');
    expect(figure('Commissions')).toHaveTextContent('£0 pending');
  });

  it("shows the affiliate network's figures once creators have affiliates", async () => {
    const affiliates = { affiliates: 3, clicks: 1200, sales: 1, commissionsTotal: 2500, pending: 1000, approved: 500, paidOut: 1000 };
    fakeApi({ 'GET /api/admin/stats': () => jsonResponse(200, { ...stats, affiliates }) });
    renderWithProviders(<AdminAnalyticsScreen />);
    await screen.findByRole('heading', { name: 'Total Users' });
    expect(figure('Affiliate Network')).toHaveTextContent('3 affiliates');
    expect(figure('Affiliate Network')).toHaveTextContent('1,200 clicks · 1 sale through their links');
    expect(figure('Commissions')).toHaveTextContent('£25');
    expect(figure('Commissions')).toHaveTextContent('£10 pending · £5 approved · £10 paid out');
  });

  it('reads the rest of the figures', async () => {
    fakeApi({ 'GET /api/admin/stats': () => jsonResponse(200, stats) });
    renderWithProviders(<AdminAnalyticsScreen />);
    await screen.findByRole('heading', { name: 'Total Users' });
    expect(screen.getByText('70% · £60.90')).toBeInTheDocument();
    expect(screen.getByText('25% · £21.75')).toBeInTheDocument();
    expect(screen.getByText('5% · £4.35')).toBeInTheDocument();
    expect(screen.getByText('A creator subscribed to Pro')).toBeInTheDocument();
    expect(screen.getByText('New creator: maya@example.com')).toBeInTheDocument();
    expect(screen.queryByText('Sample data')).not.toBeInTheDocument();
  });

  it('describes both trend charts in words for readers who cannot see them', async () => {
    fakeApi({ 'GET /api/admin/stats': () => jsonResponse(200, stats) });
    renderWithProviders(<AdminAnalyticsScreen />);
    expect(await screen.findByText('Sign-ups per week over the last 12 weeks: 14 in total, 3 this week.')).toBeInTheDocument();
    expect(screen.getByText('Monthly recurring revenue at the end of each of the last 12 weeks: from £28 to £95 now.')).toBeInTheDocument();
  });

  it("toasts 'Error' / 'Failed to load admin statistics' and offers to try again when the figures cannot be loaded", async () => {
    fakeApi({ 'GET /api/admin/stats': () => errorResponse(500, 'INTERNAL', 'boom') });
    renderWithProviders(<AdminAnalyticsScreen />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load admin statistics');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Failed to load admin statistics' }));
  });
});
