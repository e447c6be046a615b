import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { noSubscription as none, starterPaidNoTrial, starterTrial as trialing } from '../test/render.tsx';
import { CheckoutPlanStatus, POLL_INTERVAL_MS, POLL_TIMEOUT_MS } from './checkout-plan-status.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('CheckoutPlanStatus', () => {
  it("asks again until the webhook has recorded the plan, then shows 'Starter Plan — 14 days left in your trial'", async () => {
    let calls = 0;
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, ++calls < 3 ? none : trialing) });
    renderWithProviders(<CheckoutPlanStatus awaitingPayment />);

    expect(await screen.findByRole('status')).toHaveTextContent('Confirming your plan...');
    await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3));

    expect(await screen.findByTestId('checkout-plan')).toHaveTextContent('Starter Plan — 14 days left in your trial');
    expect(screen.getByTestId('checkout-plan-billing')).toHaveTextContent('Free until Dec 5, 2026, then £28/month');
    const settled = calls;
    await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3));
    expect(calls).toBe(settled);
  });

  it('says a plan that started without a trial (the creator had theirs) is active and billed from today', async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, starterPaidNoTrial) });
    renderWithProviders(<CheckoutPlanStatus awaitingPayment />);

    expect(await screen.findByTestId('checkout-plan')).toHaveTextContent('Starter Plan — active');
    expect(screen.getByTestId('checkout-plan-billing')).toHaveTextContent('Billed £28/month from today; next payment on Jan 5, 2027');
    expect(screen.getByRole('status')).not.toHaveTextContent(/trial/i);
  });

  it('says the plan will appear shortly when the webhook takes longer, and stops asking', async () => {
    let calls = 0;
    fakeApi({ 'GET /api/me/subscription': () => (calls++, jsonResponse(200, none)) });
    renderWithProviders(<CheckoutPlanStatus awaitingPayment />);

    await act(() => vi.advanceTimersByTimeAsync(POLL_TIMEOUT_MS + POLL_INTERVAL_MS));

    expect(screen.getByRole('status')).toHaveTextContent('Your plan will appear on your dashboard in a minute or two.');
    const settled = calls;
    await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 4));
    expect(calls).toBe(settled);
  });

  it('asks only once when the page was opened without a checkout session, and says nothing without a plan', async () => {
    let calls = 0;
    fakeApi({ 'GET /api/me/subscription': () => (calls++, jsonResponse(200, none)) });
    renderWithProviders(<CheckoutPlanStatus awaitingPayment={false} />);

    await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 4));

    expect(calls).toBe(1);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });
});
