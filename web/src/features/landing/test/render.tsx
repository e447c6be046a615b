import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import type { LandingPage, LandingSettings } from '@contracts/landing.ts';
import { Toaster } from '@/components/ui/toaster.tsx';

/** Renders landing UI with a fresh query client (no retries), a router and the toast outlet. */
export function renderWithProviders(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: ['/dashboard/creator/landing'] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), queryClient };
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const errorResponse = (status: number, code: string, message: string): Response => jsonResponse(status, { error: { code, message } });

type Route = (init?: RequestInit) => Response | Promise<Response>;

/** A fetch stand-in answering by `METHOD /path`; unknown calls fail the test loudly. */
export function fakeApi(routes: Record<string, Route>) {
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const answer = routes[key];
    if (!answer) throw new Error(`unexpected request ${key}`);
    return answer(init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The calls made to one `METHOD /path`, with their headers and parsed bodies. */
export function callsTo(fetchMock: ReturnType<typeof fakeApi>, method: string, path: string) {
  return fetchMock.mock.calls
    .filter(([input, init]) => String(input) === path && (init?.method ?? 'GET') === method)
    .map(([, init]) => ({ headers: new Headers(init?.headers), body: init?.body ? (JSON.parse(init.body as string) as unknown) : undefined }));
}

export const acmeSettings: LandingSettings = {
  companyName: 'Acme Academy',
  businessType: 'education',
  colorTheme: 'warm',
  missionStatement: 'Teach everyone to paint.',
  problemSolved: 'Art classes are expensive.',
};

export const generatedHtml = (companyName: string) =>
  `<!DOCTYPE html><html><head><style>h1{color:#b45309}</style></head><body><h1>${companyName}</h1><p>Welcome.</p></body></html>`;

export const savedPage: LandingPage = {
  content: generatedHtml('Acme Academy'),
  settings: acmeSettings,
  updatedAt: '2026-11-20T10:00:00.000Z',
  publication: null,
};
