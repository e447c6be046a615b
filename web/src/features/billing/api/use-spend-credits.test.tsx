import { useQuery } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Credits } from '@contracts/credits.ts';
import { errorResponse, fakeApi, findToast, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { creditsQueryOptions } from './billing-queries.ts';
import { useSpendCredits } from './use-spend-credits.ts';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

const before: Credits = {
  creditsRemaining: 50,
  creditsUsed: 0,
  monthlyAllocation: 50,
  planType: 'starter',
  billingPeriodEnd: '2026-12-05T12:00:00.000Z',
  low: false,
  lastTransaction: { actionType: 'monthly_allocation', credits: 50, createdAt: '2026-11-21T12:00:00.000Z' },
};
const after: Credits = {
  ...before,
  creditsRemaining: 35,
  creditsUsed: 15,
  lastTransaction: { actionType: 'landing_page_generation', credits: -15, createdAt: '2026-11-22T12:00:00.000Z' },
};

/** A stand-in for the generator: shows the balance and spends 15 credits per click. */
function Spender({ idempotencyKey }: { idempotencyKey?: string }) {
  const credits = useQuery(creditsQueryOptions());
  const spend = useSpendCredits();
  return (
    <div>
      <p data-testid="balance">{credits.data?.creditsRemaining}</p>
      <p data-testid="last">{credits.data?.lastTransaction?.actionType}</p>
      <button type="button" onClick={() => spend.mutate({ creditsToUse: 15, actionType: 'landing_page_generation', ...(idempotencyKey ? { idempotencyKey } : {}) })}>
        Spend
      </button>
    </div>
  );
}

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => vi.unstubAllGlobals());

describe('useSpendCredits', () => {
  it('spends with a fresh Idempotency-Key per attempt and refreshes the credits and the last transaction', async () => {
    let spent = false;
    const fetchMock = fakeApi({
      'GET /api/me/credits': () => jsonResponse(200, spent ? after : before),
      'POST /api/credits/use': () => {
        spent = true;
        return jsonResponse(200, after);
      },
    });
    const { user } = renderWithProviders(<Spender />);
    await vi.waitFor(() => expect(screen.getByTestId('balance')).toHaveTextContent('50'));

    await user.click(screen.getByRole('button', { name: 'Spend' }));
    await vi.waitFor(() => expect(screen.getByTestId('balance')).toHaveTextContent('35'));
    expect(screen.getByTestId('last')).toHaveTextContent('landing_page_generation');
    await user.click(screen.getByRole('button', { name: 'Spend' }));

    const spends = () => fetchMock.mock.calls.filter(([path]) => path === '/api/credits/use');
    await vi.waitFor(() => expect(spends()).toHaveLength(2));
    const keys = spends().map(([, init]) => new Headers(init?.headers).get('Idempotency-Key'));
    expect(keys[0]).toMatch(/^[\w.:-]{8,200}$/);
    expect(keys[1]).toMatch(/^[\w.:-]{8,200}$/);
    expect(keys[0]).not.toBe(keys[1]);
    expect(JSON.parse(spends()[0]![1]?.body as string)).toEqual({ creditsToUse: 15, actionType: 'landing_page_generation' });
  });

  it("reuses the caller's key when it retries the same attempt", async () => {
    const fetchMock = fakeApi({
      'GET /api/me/credits': () => jsonResponse(200, before),
      'POST /api/credits/use': () => jsonResponse(200, after),
    });
    const { user } = renderWithProviders(<Spender idempotencyKey="generation-attempt-1" />);

    await user.click(await screen.findByRole('button', { name: 'Spend' }));

    await vi.waitFor(() => {
      const spend = fetchMock.mock.calls.find(([path]) => path === '/api/credits/use');
      expect(new Headers(spend?.[1]?.headers).get('Idempotency-Key')).toBe('generation-attempt-1');
    });
  });

  it("shows toast 'Error' with the server's message when the spend is refused", async () => {
    fakeApi({
      'GET /api/me/credits': () => jsonResponse(200, before),
      'POST /api/credits/use': () => errorResponse(402, 'INSUFFICIENT_CREDITS', 'You need 15 credits; you have 5.'),
    });
    const { user } = renderWithProviders(<Spender />);

    await user.click(await screen.findByRole('button', { name: 'Spend' }));

    const toast = await findToast('You need 15 credits; you have 5.');
    expect(within(toast).getByText('Error', { exact: true })).toBeInTheDocument();
    expect(screen.getByTestId('balance')).toHaveTextContent('50');
  });

  it("falls back to toast 'Error' / 'Failed to use AI credits' when the failure carries no message", async () => {
    fakeApi({
      'GET /api/me/credits': () => jsonResponse(200, before),
      'POST /api/credits/use': () => errorResponse(500, 'INTERNAL', ''),
    });
    const { user } = renderWithProviders(<Spender />);

    await user.click(await screen.findByRole('button', { name: 'Spend' }));

    const toast = await findToast('Failed to use AI credits');
    expect(within(toast).getByText('Error', { exact: true })).toBeInTheDocument();
  });
});
