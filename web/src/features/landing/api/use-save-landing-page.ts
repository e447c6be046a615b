import { useMutation, useQueryClient } from '@tanstack/react-query';
import { landingPage, type SaveLandingBody } from '@contracts/landing.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { ApiError } from '@/lib/api-error.ts';
import { landingMessages as m } from '../landing-messages.ts';
import { landingPageQueryOptions } from './landing-queries.ts';

/**
 * PUT /api/landing-page (upsert of the creator's one page; the server sanitizes the content again). The answer is
 * the saved page: it replaces the cached one. Toasts as SPEC.md section 8 says; a signed-out creator (401) is told
 * to log in.
 */
export function useSaveLandingPage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveLandingBody) => apiClient.put('/api/landing-page', landingPage, { body }),
    onSuccess: (page) => {
      queryClient.setQueryData(landingPageQueryOptions().queryKey, page);
      toast.success(m.saved.title, { description: m.saved.description });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) {
        toast.error(m.authenticationRequired.title, { description: m.authenticationRequired.description });
      } else {
        toast.error(m.saveFailed.title, { description: m.saveFailed.description });
      }
    },
  });
}
