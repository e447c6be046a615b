import { redirectResponse } from '@contracts/billing.ts';
import { apiClient } from '@/lib/api-client.ts';
import { useLeaveFor } from '@/lib/use-leave-for.ts';

export const PORTAL_FAILED = 'Failed to open the billing portal';

/** 'Manage billing': POST /api/billing/portal, then the provider's page; it returns to the creator dashboard. */
export function useBillingPortal() {
  return useLeaveFor<void>({
    fallback: PORTAL_FAILED,
    request: () =>
      apiClient.post('/api/billing/portal', redirectResponse, {
        body: { returnUrl: `${window.location.origin}/dashboard/creator` },
      }),
  });
}
