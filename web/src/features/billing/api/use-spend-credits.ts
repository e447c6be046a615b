import { useMutation, useQueryClient } from '@tanstack/react-query';
import { creditsResponse, type UseCreditsBody } from '@contracts/credits.ts';
import { toastError } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { IDEMPOTENCY_HEADER, newIdempotencyKey } from '@/lib/idempotency-key.ts';
import { creditsQueryKey } from './billing-queries.ts';

export const SPEND_FAILED = 'Failed to use AI credits';

export interface SpendCreditsInput extends UseCreditsBody {
  /**
   * One key per attempt: the server charges a key once, however often the request arrives. A caller that retries
   * the same attempt itself passes the key again; by default every call is a new attempt.
   */
  idempotencyKey?: string;
}

/**
 * Spends AI credits (POST /api/credits/use, SPEC.md section 7 "use-ai-credits"). On success the credits and their
 * last transaction are refreshed from the answer; on failure toast 'Error' with the server's message or
 * 'Failed to use AI credits'. For the landing-page generator and any later paid action.
 */
export function useSpendCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey = newIdempotencyKey(), ...body }: SpendCreditsInput) =>
      apiClient.post('/api/credits/use', creditsResponse, { body, headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } }),
    onSuccess: (credits) => {
      queryClient.setQueryData(creditsQueryKey, credits);
      void queryClient.invalidateQueries({ queryKey: creditsQueryKey });
    },
    onError: (error) => toastError(error, SPEND_FAILED),
  });
}
