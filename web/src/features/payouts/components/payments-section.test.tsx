import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PayoutsResponse } from '@contracts/payouts.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, planLoaded, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { PaymentsSection } from './payments-section.tsx';
import { PayoutsBanner } from './payouts-banner.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

const none: PayoutsResponse = { status: 'none', chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false, requirements: [] };
const pending: PayoutsResponse = { ...none, status: 'pending', detailsSubmitted: true, requirements: ['external_account', 'tos_acceptance.date', 'tos_acceptance.ip'] };
const ready: PayoutsResponse = { status: 'enabled', chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true, requirements: [] };
const onboarding = { url: 'https://connect.stripe.test/setup/acct_1' };

const assign = vi.fn<(url: string) => void>();
beforeEach(() => vi.stubGlobal('location', { origin: 'http://app.test', assign }));
afterEach(() => {
  vi.unstubAllGlobals();
  assign.mockReset();
});

const section = async () => within(await screen.findByRole('region', { name: 'Payments' }));

describe('PaymentsSection', () => {
  it("shows 'Not connected' and sends the creator to Stripe's onboarding, coming back to the profile", async () => {
    const api = fakeApi({
      'GET /api/creator/payouts': () => jsonResponse(200, none),
      'POST /api/creator/payouts/connect': () => jsonResponse(200, onboarding),
    });
    const { user } = renderWithProviders(<PaymentsSection />);
    const card = await section();
    expect(await card.findByText('Not connected')).toBeInTheDocument();
    await user.click(card.getByRole('button', { name: 'Connect Stripe' }));
    await waitFor(() => expect(assign).toHaveBeenCalledExactlyOnceWith(onboarding.url));
    expect(callsTo(api, 'POST', '/api/creator/payouts/connect')[0]?.body).toEqual({
      returnUrl: 'http://app.test/dashboard/creator/profile?payouts=return',
      refreshUrl: 'http://app.test/dashboard/creator/profile?payouts=refresh',
    });
  });

  it('says what Stripe still needs while pending, each thing once, and offers to continue', async () => {
    fakeApi({ 'GET /api/creator/payouts': () => jsonResponse(200, pending) });
    renderWithProviders(<PaymentsSection />);
    const card = await section();
    expect(await card.findByText('Pending')).toBeInTheDocument();
    const needs = within(card.getByTestId('payouts-requirements')).getAllByRole('listitem').map((li) => li.textContent);
    expect(needs).toEqual(['a bank account for your payouts', "acceptance of Stripe's terms"]);
    expect(card.getByRole('button', { name: 'Continue onboarding' })).toBeEnabled();
  });

  it("shows 'Ready' once the account can take payments, with no button", async () => {
    fakeApi({ 'GET /api/creator/payouts': () => jsonResponse(200, ready) });
    renderWithProviders(<PaymentsSection />);
    const card = await section();
    expect(await card.findByText('Ready')).toBeInTheDocument();
    expect(card.getByText(/can take payments/)).toBeInTheDocument();
    expect(card.queryByRole('button')).toBeNull();
  });

  it('asks for a new onboarding link at once when Stripe sends the creator back for a refresh', async () => {
    const api = fakeApi({
      'GET /api/creator/payouts': () => jsonResponse(200, pending),
      'POST /api/creator/payouts/connect': () => jsonResponse(200, onboarding),
    });
    renderWithProviders(<PaymentsSection />, { path: '/dashboard/creator/profile?payouts=refresh' });
    await waitFor(() => expect(assign).toHaveBeenCalledExactlyOnceWith(onboarding.url));
    expect(callsTo(api, 'POST', '/api/creator/payouts/connect')).toHaveLength(1);
  });

  it('offers to try again when the account cannot be loaded', async () => {
    fakeApi({ 'GET /api/creator/payouts': () => errorResponse(500, 'INTERNAL', 'Something went wrong.') });
    renderWithProviders(<PaymentsSection />);
    const card = await section();
    expect(await card.findByRole('alert')).toHaveTextContent('could not be loaded');
    expect(card.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('PaymentsSection without a plan (issue 29)', () => {
  it("offers 'Choose a plan to connect Stripe' to the plan picker instead of 'Connect Stripe'", async () => {
    const api = fakeApi({
      'GET /api/creator/payouts': () => jsonResponse(200, none),
      'GET /api/me/subscription': () => jsonResponse(200, subscription(null)),
    });
    renderWithProviders(<PaymentsSection />);
    const card = await section();
    expect(await card.findByRole('link', { name: 'Choose a plan to connect Stripe' })).toHaveAttribute('href', '/dashboard/creator');
    expect(card.queryByRole('button', { name: 'Connect Stripe' })).not.toBeInTheDocument();
    expect(callsTo(api, 'POST', '/api/creator/payouts/connect')).toEqual([]);
  });

  it("keeps 'Connect Stripe' for a creator on a plan", async () => {
    fakeApi({
      'GET /api/creator/payouts': () => jsonResponse(200, none),
      'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')),
    });
    const { queryClient } = renderWithProviders(<PaymentsSection />);
    await planLoaded(queryClient);
    const card = await section();
    expect(await card.findByRole('button', { name: 'Connect Stripe' })).toBeEnabled();
  });
});

describe('PayoutsBanner', () => {
  it('asks a creator without payments to set them up', async () => {
    fakeApi({ 'GET /api/creator/payouts': () => jsonResponse(200, none) });
    renderWithProviders(<PayoutsBanner />);
    expect(await screen.findByTestId('payouts-banner')).toHaveTextContent('Connect Stripe to sell your courses.');
    expect(screen.getByRole('link', { name: 'Set up payments' })).toHaveAttribute('href', '/dashboard/creator/profile#payments');
  });

  it('asks a pending creator to finish setting up', async () => {
    fakeApi({ 'GET /api/creator/payouts': () => jsonResponse(200, pending) });
    renderWithProviders(<PayoutsBanner />);
    expect(await screen.findByTestId('payouts-banner')).toHaveTextContent('Finish setting up payments.');
  });

  it('says nothing once payments work', async () => {
    fakeApi({ 'GET /api/creator/payouts': () => jsonResponse(200, ready) });
    const { queryClient } = renderWithProviders(<PayoutsBanner />);
    await waitFor(() => expect(queryClient.getQueryData(['payouts'])).toEqual(ready));
    expect(screen.queryByTestId('payouts-banner')).toBeNull();
  });
});
