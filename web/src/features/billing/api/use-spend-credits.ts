import { useMutation, useQueryClient } from '@tanstack/react-query';
import { creditsResponse, type UseCreditsBody } from '@contracts/credits.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { creditsQueryKey } from './billing-queries.ts';
import { errorMessage } from '@/lib/error-message.ts';

export const SPEND_FAILED = 'Failed to use AI credits';

export interface SpendCreditsInput extends UseCreditsBody {
  /**
   * One key per attempt: the server charges a key once, however often the request arrives. A caller that retries
   * the same attempt itself passes the key again; by default every call is a new attempt.
   */
  idempotencyKey?: string;
}

export function newIdempotencyKey(): string {
  // randomUUID needs a secure context (https or localhost); a dev server reached by LAN address is neither.
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `k-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
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
      apiClient.post('/api/credits/use', creditsResponse, { body, headers: { 'Idempotency-Key': idempotencyKey } }),
    onSuccess: (credits) => {
      queryClient.setQueryData(creditsQueryKey, credits);
      void queryClient.invalidateQueries({ queryKey: creditsQueryKey });
    },
    onError: (error) => toast.error('Error', { description: errorMessage(error, SPEND_FAILED) }),
  });
}
