import { useMutation } from '@tanstack/react-query';
import type { CheckoutRequest } from './create-checkout.ts';

/**
 * Creates the checkout session for a plan and sends the browser to the hosted checkout. The mutation stays
 * pending, then successful, while the browser leaves, so the button keeps reading 'Processing...'.
 * The request module (with zod) loads on the first checkout: anonymous visitors of the landing page never need it.
 */
export function useCreateCheckout({ onError }: { onError: (error: unknown) => void }) {
  return useMutation({
    mutationFn: async (body: CheckoutRequest) => (await import('./create-checkout.ts')).createCheckout(body),
    onSuccess: ({ url }) => window.location.assign(url),
    onError,
  });
}
