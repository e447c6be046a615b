import { redirectResponse } from '@contracts/billing.ts';
import { toastError } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { IDEMPOTENCY_HEADER } from '@/lib/idempotency-key.ts';
import { paths, urlOf } from '@/lib/paths.ts';
import { useLeaveFor } from '@/lib/use-leave-for.ts';

export const PORTAL_FAILED = 'Failed to open the billing portal';

/** 'Manage billing': POST /api/billing/portal, then the provider's page; it returns to the creator dashboard. */
export function useBillingPortal() {
  return useLeaveFor({
    request: (_: void, idempotencyKey) =>
      apiClient.post('/api/billing/portal', redirectResponse, {
        body: { returnUrl: urlOf(paths.creator.dashboard) },
        headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
      }),
    onError: (error) => toastError(error, PORTAL_FAILED),
  });
}
