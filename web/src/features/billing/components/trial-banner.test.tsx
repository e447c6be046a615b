import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionResponse } from '@contracts/billing.ts';
import { fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { starterTrial } from '../test/render.tsx';
import { TrialBanner } from './trial-banner.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

const trialing: SubscriptionResponse = { ...starterTrial, trialDaysLeft: 9 };

afterEach(() => vi.unstubAllGlobals());

describe('TrialBanner', () => {
  it('tells a creator on trial how many days are left, with a link to their plan', async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, trialing) });
    renderWithProviders(<TrialBanner planPath="/dashboard/creator" />);

    expect(await screen.findByTestId('trial-banner')).toHaveTextContent('Starter Plan: 9 days left in your trial.');
    expect(screen.getByRole('link', { name: 'View plan' })).toHaveAttribute('href', '/dashboard/creator');
  });

  it('alerts a creator whose payment failed', async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, { ...trialing, status: 'past_due', trialDaysLeft: 0 }) });
    renderWithProviders(<TrialBanner planPath="/dashboard/creator" />);

    expect(await screen.findByRole('alert')).toHaveTextContent('Your last payment failed.');
    expect(screen.getByRole('link', { name: 'Update payment method' })).toHaveAttribute('href', '/dashboard/creator');
  });

  it('stays silent for an active plan', async () => {
    const fetchMock = fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, { ...trialing, status: 'active', trialDaysLeft: 0 }) });
    renderWithProviders(<TrialBanner planPath="/dashboard/creator" />);

    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('trial-banner')).not.toBeInTheDocument();
  });
});
