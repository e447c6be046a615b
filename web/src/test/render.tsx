import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster.tsx';

// What every screen test needs: the app's providers around the UI, and a fetch stand-in answering by route.

/** Renders UI with a fresh query client (no retries), a router and the toast outlet. */
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

export const errorResponse = (status: number, code: string, message: string, details?: unknown): Response =>
  jsonResponse(status, { error: { code, message, ...(details === undefined ? {} : { details }) } });

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

/** The calls made to one `METHOD /path`, with their headers and parsed bodies. */
export function callsTo(fetchMock: ReturnType<typeof fakeApi>, method: string, path: string) {
  return fetchMock.mock.calls
    .filter(([input, init]) => String(input) === path && (init?.method ?? 'GET') === method)
    .map(([, init]) => ({ headers: new Headers(init?.headers), body: init?.body ? (JSON.parse(init.body as string) as unknown) : undefined }));
}

/** A StatCard by its label: the card holding the figure, its detail and its label (components/ui/stat-card.tsx). */
export const statCard = (label: string): HTMLElement => screen.getByRole('heading', { name: label }).closest('div')!.parentElement!;

/** Waits until the creator's plan (GET /api/me/subscription, lib/entitlements.ts) has loaded: locks are decided from then on. */
export async function planLoaded(queryClient: QueryClient): Promise<void> {
  await vi.waitFor(() => {
    if (queryClient.getQueryState(['billing', 'subscription'])?.status !== 'success') throw new Error('the plan has not loaded yet');
  });
}
