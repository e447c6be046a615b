import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { RedirectResponse } from '@contracts/billing.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/error-message.ts';

/**
 * A mutation that asks the API for a hosted page (checkout, portal) and sends the browser there. `busy` stays
 * true while the browser leaves, so the button keeps its busy label; on a failure: toast 'Error' with the server's
 * message or `fallback`.
 */
export function useLeaveFor<TVariables>({
  request,
  fallback,
}: {
  request: (variables: TVariables) => Promise<RedirectResponse>;
  fallback: string;
}) {
  const options: UseMutationOptions<RedirectResponse, Error, TVariables> = {
    mutationFn: request,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => toast.error('Error', { description: errorMessage(error, fallback) }),
  };
  const mutation = useMutation(options);
  const { reset } = mutation;

  // Back from the hosted page through the back-forward cache: the page is as it was left, busy included,
  // though nothing is pending any more.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);

  return { ...mutation, busy: mutation.isPending || mutation.isSuccess };
}
