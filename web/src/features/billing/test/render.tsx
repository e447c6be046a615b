import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster.tsx';
import type { SubscriptionResponse } from '@contracts/billing.ts';

/** Renders billing UI with a fresh query client (no retries), a router and the toast outlet. */
export function renderWithProviders(ui: ReactNode, { path = '/' }: { path?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), queryClient, router };
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const errorResponse = (status: number, code: string, message: string): Response =>
  jsonResponse(status, { error: { code, message } });

/** A fetch stand-in answering by `METHOD /path`; unknown calls fail the test loudly. */
export function fakeApi(routes: Record<string, (init?: RequestInit) => Response | Promise<Response>>) {
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const answer = routes[key];
    if (!answer) throw new Error(`unexpected request ${key}`);
    return answer(init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The toast carrying this description (sonner keeps earlier tests' toasts in its module state). */
export async function findToast(description: string): Promise<HTMLElement> {
  const text = await screen.findByText(description);
  const toast = text.closest<HTMLElement>('[data-sonner-toast]');
  if (!toast) throw new Error(`'${description}' is not inside a toast`);
  return toast;
}

/** jsdom's location cannot be spied on; the hooks only need origin and assign. */
export function stubLocation() {
  const assign = vi.fn<(url: string) => void>();
  vi.stubGlobal('location', { origin: 'http://app.test', assign, hash: '', href: 'http://app.test/dashboard/creator' });
  return assign;
}

/**
 * GET /api/me/subscription answers: no subscription (the trial still on offer), a Starter trial with 14 days left,
 * and a creator who has had their trial (canceled, then back on Starter with no trial: active and billed).
 */
export const noSubscription: SubscriptionResponse = {
  status: 'none',
  subscribed: false,
  tier: null,
  trialEnd: null,
  onTrial: false,
  trialDaysLeft: 0,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  trialAvailable: true,
};

export const starterTrial: SubscriptionResponse = {
  status: 'trialing',
  subscribed: true,
  tier: 'starter',
  trialEnd: '2026-12-05T12:00:00.000Z',
  onTrial: true,
  trialDaysLeft: 14,
  currentPeriodEnd: '2026-12-05T12:00:00.000Z',
  cancelAtPeriodEnd: false,
  trialAvailable: false,
};

export const starterCanceled: SubscriptionResponse = {
  ...starterTrial,
  status: 'canceled',
  subscribed: false,
  trialEnd: null,
  onTrial: false,
  trialDaysLeft: 0,
  currentPeriodEnd: null,
};

export const starterPaidNoTrial: SubscriptionResponse = {
  ...starterTrial,
  status: 'active',
  trialEnd: null,
  onTrial: false,
  trialDaysLeft: 0,
  currentPeriodEnd: '2027-01-05T12:00:00.000Z',
};
