import { useMutation } from '@tanstack/react-query';
import { generateLandingResponse, type LandingSettings } from '@contracts/landing.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { ApiError } from '@/lib/api-error.ts';
import { IDEMPOTENCY_HEADER, newIdempotencyKey } from '@/lib/idempotency-key.ts';
import { landingMessages as m } from '../landing-messages.ts';

/** SPEC.md sections 5 and 8: which toast a failed generation shows. */
export function toastGenerationError(error: unknown): void {
  if (error instanceof ApiError && (error.status === 402 || error.code === 'INSUFFICIENT_CREDITS')) {
    toast.error(m.insufficientCredits.title, { description: m.insufficientCredits.description });
  } else if (error instanceof ApiError && error.status === 409) {
    toast.error(m.generationRunning.title, { description: m.generationRunning.description });
  } else {
    toast.error(m.generationFailed.title, { description: m.generationFailed.description });
  }
}

/**
 * POST /api/landing-pages/generate: 15 credits, then the model's page (sanitized by the server). Each call is one
 * generate intent with its own Idempotency-Key, so a request that arrives twice is charged and generated once; no
 * automatic retry (a 502 has already been refunded, a second try is the creator's choice).
 *
 * `onCreditsChanged` hears of every outcome that may have moved the balance (charged, refunded, or found short),
 * with the new balance when the answer carries it: the caller refreshes the credits it shows.
 */
export function useGenerateLandingPage({ onCreditsChanged }: { onCreditsChanged: (creditsRemaining?: number) => void }) {
  return useMutation({
    mutationFn: (settings: LandingSettings) =>
      apiClient.post('/api/landing-pages/generate', generateLandingResponse, {
        body: settings,
        headers: { [IDEMPOTENCY_HEADER]: newIdempotencyKey() },
      }),
    onSuccess: ({ creditsRemaining }) => {
      toast.success(m.generated.title, { description: m.generated.description });
      onCreditsChanged(creditsRemaining);
    },
    onError: (error) => {
      toastGenerationError(error);
      onCreditsChanged();
    },
  });
}
