import { redirectResponse } from '@contracts/billing.ts';
import { CREDIT_TOP_UP } from '@contracts/credits.ts';
import { apiClient } from '@/lib/api-client.ts';
import { useLeaveFor } from '@/lib/use-leave-for.ts';

export const PURCHASE_FAILED = 'Failed to purchase credits';

/**
 * The top-up (SPEC.md section 7): POST /api/credits/purchase for 100 credits, both return addresses /dashboard,
 * then the hosted checkout. The credits arrive with the paid session's webhook, never from the return visit.
 */
export function usePurchaseCredits() {
  return useLeaveFor<void>({
    fallback: PURCHASE_FAILED,
    request: () => {
      const back = `${window.location.origin}/dashboard`;
      return apiClient.post('/api/credits/purchase', redirectResponse, {
        body: { creditAmount: CREDIT_TOP_UP, successUrl: back, cancelUrl: back },
      });
    },
  });
}
