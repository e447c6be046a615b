import { redirectResponse } from '@contracts/billing.ts';
import { CREDIT_TOP_UP } from '@contracts/credits.ts';
import { toastError } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { IDEMPOTENCY_HEADER } from '@/lib/idempotency-key.ts';
import { paths, urlOf } from '@/lib/paths.ts';
import { useLeaveFor } from '@/lib/use-leave-for.ts';

export const PURCHASE_FAILED = 'Failed to purchase credits';

/**
 * The top-up (SPEC.md section 7): POST /api/credits/purchase for 100 credits, both return addresses /dashboard,
 * then the hosted checkout. The credits arrive with the paid session's webhook, never from the return visit.
 */
export function usePurchaseCredits() {
  return useLeaveFor({
    request: (_: void, idempotencyKey) => {
      const back = urlOf(paths.dashboard);
      return apiClient.post('/api/credits/purchase', redirectResponse, {
        body: { creditAmount: CREDIT_TOP_UP, successUrl: back, cancelUrl: back },
        headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
      });
    },
    onError: (error) => toastError(error, PURCHASE_FAILED),
  });
}
