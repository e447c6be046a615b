import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RedirectResponse } from '@contracts/billing.ts';
import { ApiError } from './api-error.ts';
import { useLeaveFor } from './use-leave-for.ts';

const hostedPage: RedirectResponse = { url: 'http://127.0.0.1:12111/checkout/cs_test_1' };
const lost = () => new ApiError(0, 'NETWORK_FAILED', 'The server could not be reached.');
const gatewayTimeout = () => new ApiError(504, 'UPSTREAM_FAILED', 'Request failed (504)');

const request = vi.fn<(plan: string, idempotencyKey: string) => Promise<RedirectResponse>>();
const onError = vi.fn<(error: Error) => void>();
const assign = vi.fn<(url: string) => void>();

function renderLeave() {
  // The app's default: mutations are not retried unless they say so (lib/query-client.ts).
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return renderHook(() => useLeaveFor<string>({ request, onError }), { wrapper });
}

/** The Idempotency-Key of each request made so far, in order. */
const keys = () => request.mock.calls.map(([, key]) => key);

beforeEach(() => vi.stubGlobal('location', { origin: 'http://app.test', assign }));
afterEach(() => {
  vi.unstubAllGlobals();
  request.mockReset();
  onError.mockReset();
  assign.mockReset();
});

describe('useLeaveFor: one Idempotency-Key per purchase intent', () => {
  it('sends a key the server accepts (8-200 of [\\w.:-]) and leaves for the hosted page', async () => {
    request.mockResolvedValue(hostedPage);
    const { result } = renderLeave();

    act(() => result.current.mutate('starter'));

    await waitFor(() => expect(assign).toHaveBeenCalledExactlyOnceWith(hostedPage.url));
    expect(request).toHaveBeenCalledExactlyOnceWith('starter', expect.stringMatching(/^[\w.:-]{8,200}$/));
    expect(result.current.busy).toBe(true);
    expect(result.current.variables).toBe('starter');
  });

  it('retries an intent whose answer was lost with the same key, so the server can hand back what it made', async () => {
    request.mockRejectedValueOnce(lost()).mockRejectedValueOnce(gatewayTimeout()).mockResolvedValueOnce(hostedPage);
    const { result } = renderLeave();

    act(() => result.current.mutate('starter'));

    await waitFor(() => expect(assign).toHaveBeenCalledExactlyOnceWith(hostedPage.url), { timeout: 3_000 });
    expect(request).toHaveBeenCalledTimes(3);
    expect(new Set(keys()).size).toBe(1);
    expect(onError).not.toHaveBeenCalled();
  });

  it('gives up after two retries and reports the failure once', async () => {
    request.mockRejectedValue(lost());
    const { result } = renderLeave();

    act(() => result.current.mutate('pro'));

    await waitFor(() => expect(onError).toHaveBeenCalledOnce(), { timeout: 3_000 });
    expect(request).toHaveBeenCalledTimes(3);
    expect(new Set(keys()).size).toBe(1);
    expect(result.current.busy).toBe(false);
  });

  it('does not retry an answer that would come back the same (a refusal, a server error)', async () => {
    request.mockRejectedValueOnce(new ApiError(409, 'CONFLICT', 'A checkout is already under way.'));
    const { result } = renderLeave();

    act(() => result.current.mutate('starter'));

    await waitFor(() => expect(onError).toHaveBeenCalledOnce());
    expect(onError.mock.calls[0]![0]).toHaveProperty('message', 'A checkout is already under way.');
    expect(request).toHaveBeenCalledOnce();
  });

  it('makes a new key for a new click after a failure', async () => {
    request.mockRejectedValueOnce(new ApiError(403, 'FORBIDDEN', 'Not now.')).mockResolvedValueOnce(hostedPage);
    const { result } = renderLeave();

    act(() => result.current.mutate('starter'));
    await waitFor(() => expect(onError).toHaveBeenCalledOnce());
    act(() => result.current.mutate('starter'));
    await waitFor(() => expect(assign).toHaveBeenCalledOnce());

    const [first, second] = keys();
    expect(first).not.toBe(second);
  });

  it('is ready again, with a new key for the next click, when the visitor comes back from the hosted page', async () => {
    request.mockResolvedValue(hostedPage);
    const { result } = renderLeave();

    act(() => result.current.mutate('starter'));
    await waitFor(() => expect(assign).toHaveBeenCalledOnce());
    expect(result.current.busy).toBe(true);

    // The back button restores the page from the back-forward cache.
    act(() => void window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
    await waitFor(() => expect(result.current.busy).toBe(false));
    act(() => result.current.mutate('starter'));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(2));

    const [first, second] = keys();
    expect(first).not.toBe(second);
  });
});
