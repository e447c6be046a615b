import { toastError } from '@/components/ui/toaster.tsx';
import { useLeaveFor } from '@/lib/use-leave-for.ts';
import type { CheckoutRequest } from './create-checkout.ts';

export const CHECKOUT_FAILED = 'Failed to create checkout session';

/**
 * Creates the checkout session for a plan and sends the browser to the hosted checkout ('Processing...' while it
 * leaves; toast 'Error' with the server's message or 'Failed to create checkout session'). One click is one
 * intent: its Idempotency-Key is the same on every automatic retry (lib/use-leave-for.ts).
 * The request module (with zod) loads on the first checkout: anonymous visitors of the landing page never need it.
 */
export function useCreateCheckout() {
  return useLeaveFor<CheckoutRequest>({
    request: async (body, idempotencyKey) => (await import('./create-checkout.ts')).createCheckout(body, idempotencyKey),
    onError: (error) => toastError(error, CHECKOUT_FAILED),
  });
}
