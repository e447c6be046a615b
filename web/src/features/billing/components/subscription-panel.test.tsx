import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionResponse } from '@contracts/billing.ts';
import { errorResponse, fakeApi, findToast, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { noSubscription as none, starterCanceled, starterTrial as trialing, stubLocation } from '../test/render.tsx';
import { SubscriptionPanel } from './subscription-panel.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

const active: SubscriptionResponse = { ...trialing, status: 'active', tier: 'pro', trialEnd: null, onTrial: false, trialDaysLeft: 0 };

/** Stands in for the pricing cards app/ composes in; says whether it was asked to offer the trial. */
const pricing = ({ trialAvailable }: SubscriptionResponse) => (
  <div data-testid="pricing-cards">{trialAvailable ? 'Starter and Pro, trial on offer' : 'Starter and Pro, no trial'}</div>
);
const renderPanel = () => renderWithProviders(<SubscriptionPanel pricing={pricing} />);
const panel = () => screen.getByTestId('subscription-panel');

let assign: ReturnType<typeof stubLocation>;
beforeEach(() => {
  assign = stubLocation();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.unstubAllGlobals());

describe('SubscriptionPanel', () => {
  it('shows a busy skeleton while the subscription loads', () => {
    fakeApi({ 'GET /api/me/subscription': () => new Promise<Response>(() => undefined) });
    renderPanel();

    expect(screen.getByRole('region', { name: 'Your plan' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByTestId('subscription-skeleton')).toHaveTextContent('Loading your subscription...');
  });

  it('offers the pricing cards, with the 14-day trial, to a creator who never subscribed', async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, none) });
    renderPanel();

    expect(await screen.findByRole('region', { name: 'Choose your plan' })).toBeInTheDocument();
    expect(panel()).toHaveTextContent('Starter starts with a 14-day free trial.');
    expect(within(panel()).getByTestId('pricing-cards')).toHaveTextContent('Starter and Pro, trial on offer');
    expect(within(panel()).queryByRole('button', { name: 'Manage billing' })).not.toBeInTheDocument();
  });

  it('offers the plans again without any trial to a creator who canceled after theirs', async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, starterCanceled) });
    renderPanel();

    expect(await screen.findByRole('region', { name: 'Your subscription has been canceled' })).toBeInTheDocument();
    expect(panel()).toHaveTextContent('Your Starter Plan has ended.');
    expect(panel()).not.toHaveTextContent(/free trial/i);
    expect(within(panel()).getByTestId('pricing-cards')).toHaveTextContent('Starter and Pro, no trial');
  });

  it("shows 'Starter Plan' on trial with '14 days left in your trial' and when the trial ends", async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, trialing) });
    renderPanel();

    expect(await screen.findByTestId('subscription-plan')).toHaveTextContent('Starter Plan');
    expect(within(panel()).getByTestId('subscription-status')).toHaveTextContent('Trial');
    expect(within(panel()).getByTestId('trial-days-left')).toHaveTextContent('14 days left in your trial');
    expect(panel()).toHaveTextContent('Free until Dec 5, 2026, then £28/month');
    expect(within(panel()).queryByTestId('pricing-cards')).not.toBeInTheDocument();
  });

  it("says '1 day left in your trial' on the last day", async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, { ...trialing, trialDaysLeft: 1 }) });
    renderPanel();

    expect(await screen.findByTestId('trial-days-left')).toHaveTextContent('1 day left in your trial');
  });

  it('shows an active plan with its renewal date, or the date it cancels on', async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, active) });
    renderPanel();

    expect(await screen.findByTestId('subscription-plan')).toHaveTextContent('Pro Plan');
    expect(within(panel()).getByTestId('subscription-status')).toHaveTextContent('Active');
    expect(panel()).toHaveTextContent('Renews on Dec 5, 2026 at £67/month');
    expect(within(panel()).queryByTestId('trial-days-left')).not.toBeInTheDocument();
  });

  it("says 'Cancels on <date>' when the plan ends at the period's end", async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, { ...active, cancelAtPeriodEnd: true }) });
    renderPanel();

    expect(await screen.findByText('Cancels on Dec 5, 2026')).toBeInTheDocument();
  });

  it('asks a creator whose payment failed to update their payment method', async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, { ...active, status: 'past_due' }) });
    renderPanel();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your last payment failed. Please update your payment method to keep your plan.');
    expect(within(alert).getByRole('button', { name: 'Update payment method' })).toBeEnabled();
    expect(within(panel()).getByTestId('subscription-status')).toHaveTextContent('Past due');
  });

  it('says a canceled subscription has ended and offers the plans again, and the billing portal', async () => {
    fakeApi({ 'GET /api/me/subscription': () => jsonResponse(200, { ...active, status: 'canceled', subscribed: false }) });
    renderPanel();

    expect(await screen.findByRole('region', { name: 'Your subscription has been canceled' })).toBeInTheDocument();
    expect(within(panel()).getByTestId('subscription-status')).toHaveTextContent('Canceled');
    expect(panel()).toHaveTextContent('Your Pro Plan has ended.');
    expect(within(panel()).getByTestId('pricing-cards')).toBeInTheDocument();
    expect(within(panel()).getByRole('button', { name: 'Manage billing' })).toBeEnabled();
  });

  it('shows an error with a retry when the subscription cannot be loaded', async () => {
    let fail = true;
    fakeApi({ 'GET /api/me/subscription': () => (fail ? errorResponse(503, 'UPSTREAM_FAILED', 'Down') : jsonResponse(200, trialing)) });
    const { user } = renderPanel();

    expect(await screen.findByRole('alert')).toHaveTextContent('Your subscription could not be loaded.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('trial-days-left')).toHaveTextContent('14 days left in your trial');
  });

  it("opens the billing portal with 'Manage billing', returning to the creator dashboard", async () => {
    const fetchMock = fakeApi({
      'GET /api/me/subscription': () => jsonResponse(200, trialing),
      'POST /api/billing/portal': () => jsonResponse(200, { url: 'http://127.0.0.1:12111/billing_portal/bps_1' }),
    });
    const { user } = renderPanel();

    await user.click(await screen.findByRole('button', { name: 'Manage billing' }));

    await vi.waitFor(() => expect(assign).toHaveBeenCalledExactlyOnceWith('http://127.0.0.1:12111/billing_portal/bps_1'));
    const [, init] = fetchMock.mock.calls.find(([path]) => path === '/api/billing/portal')!;
    expect(JSON.parse(init?.body as string)).toEqual({ returnUrl: 'http://app.test/dashboard/creator' });
    expect(new Headers(init?.headers).get('Idempotency-Key')).toMatch(/^[\w.:-]{8,200}$/);
    expect(screen.getByRole('button', { name: 'Opening...' })).toBeDisabled();
  });

  it("shows toast 'Error' with the server's message when the portal cannot be opened", async () => {
    fakeApi({
      'GET /api/me/subscription': () => jsonResponse(200, trialing),
      'POST /api/billing/portal': () => errorResponse(404, 'NOT_FOUND', 'No billing account yet.'),
    });
    const { user } = renderPanel();

    await user.click(await screen.findByRole('button', { name: 'Manage billing' }));

    const toast = await findToast('No billing account yet.');
    expect(within(toast).getByText('Error', { exact: true })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Manage billing' })).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
  });
});
