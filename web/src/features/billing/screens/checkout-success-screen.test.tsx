import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { starterPaidNoTrial, starterTrial } from '../test/render.tsx';
import { CheckoutSuccessScreen } from './checkout-success-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

afterEach(() => vi.unstubAllGlobals());

const backFromCheckout = '/checkout/success?session_id=cs_test_1';

describe('CheckoutSuccessScreen', () => {
  it('welcomes a creator back from Starter with the days of their trial and when it will be billed', async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, starterTrial) });
    renderWithProviders(<CheckoutSuccessScreen />, { path: backFromCheckout });

    expect(screen.getByRole('heading', { level: 1, name: 'Welcome to the Platform!' })).toBeInTheDocument();
    expect(await screen.findByTestId('checkout-plan')).toHaveTextContent('Starter Plan — 14 days left in your trial');
    expect(screen.getByTestId('checkout-plan-billing')).toHaveTextContent('Free until Dec 5, 2026, then £28/month');
  });

  it('tells a creator who already had their trial that Starter is active and billed now, with no trial', async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, starterPaidNoTrial) });
    renderWithProviders(<CheckoutSuccessScreen />, { path: backFromCheckout });

    expect(await screen.findByTestId('checkout-plan')).toHaveTextContent('Starter Plan — active');
    expect(screen.getByTestId('checkout-plan-billing')).toHaveTextContent('Billed £28/month from today; next payment on Jan 5, 2027');
    expect(screen.getByRole('main')).not.toHaveTextContent(/trial|days left/i);
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });
});
