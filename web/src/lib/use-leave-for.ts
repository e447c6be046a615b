import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { RedirectResponse } from '@contracts/billing.ts';
import { ApiError } from './api-error.ts';
import { newIdempotencyKey } from './idempotency-key.ts';

/** One purchase intent: what was asked for, and the Idempotency-Key every attempt of it carries. */
interface Intent<TVariables> {
  variables: TVariables;
  idempotencyKey: string;
}

/** Automatic retries of one intent, and the pause before each. */
export const LEAVE_RETRIES = 2;
export const LEAVE_RETRY_DELAY_MS = 400;

/**
 * Whether the answer may simply have been lost (no connection, a gateway that gave up): then the same intent is
 * sent again, with the same key, so the server hands back what it already made instead of making it twice. A 4xx
 * or a 500 would only come back the same.
 */
export function isTransient(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'NETWORK_FAILED' || error.status === 502 || error.status === 503 || error.status === 504);
}

/**
 * A mutation that asks the API for a hosted page (checkout, portal, top-up) and sends the browser there.
 *
 * Each `mutate` is one purchase intent with its own Idempotency-Key (handed to `request`); the automatic retries of
 * a transient failure reuse it, a later click (after an error, or back from the hosted page) makes a new one.
 * `busy` stays true while the browser leaves, so the button keeps its busy label. A failure the retries did not
 * cure goes to `onError`: the caller says it (lib/ shows no UI; typically `toastError` of components/ui/toaster).
 */
export function useLeaveFor<TVariables = void>({
  request,
  onError,
}: {
  request: (variables: TVariables, idempotencyKey: string) => Promise<RedirectResponse>;
  onError: (error: Error) => void;
}) {
  const mutation = useMutation<RedirectResponse, Error, Intent<TVariables>>({
    mutationFn: ({ variables, idempotencyKey }) => request(variables, idempotencyKey),
    retry: (failures, error) => failures < LEAVE_RETRIES && isTransient(error),
    retryDelay: (failures) => LEAVE_RETRY_DELAY_MS * 2 ** failures,
    onSuccess: ({ url }) => window.location.assign(url),
    onError,
  });
  const { reset, mutate } = mutation;

  // Back from the hosted page through the back-forward cache: the page is as it was left, busy included,
  // though nothing is pending any more.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);

  return {
    /** Starts a new intent (a click): a new Idempotency-Key. */
    mutate: (variables: TVariables) => mutate({ variables, idempotencyKey: newIdempotencyKey() }),
    /** What the intent under way asked for (e.g. which plan is 'Processing...'). */
    variables: mutation.variables?.variables,
    busy: mutation.isPending || mutation.isSuccess,
  };
}
