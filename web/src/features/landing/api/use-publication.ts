import { useMutation, useQueryClient } from '@tanstack/react-query';
import { landingPage, type LandingPage } from '@contracts/landing.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { ApiError } from '@/lib/api-error.ts';
import { landingMessages as m } from '../landing-messages.ts';
import { publicPageUrl } from '../public-url.ts';
import { landingPageQueryOptions } from './landing-queries.ts';

const PUBLICATION = '/api/landing-page/publication';

/** Both answer the whole page: it replaces the cached one, so the screen shows the new publication at once. */
function useStorePage() {
  const queryClient = useQueryClient();
  return (page: LandingPage) => queryClient.setQueryData(landingPageQueryOptions().queryKey, page);
}

/**
 * PUT /api/landing-page/publication {slug}: publishes a snapshot of the saved page at /p/<slug>, or moves it there.
 * A taken address (409) and a refused one (400) are the caller's to show on the field (`onFieldError`); anything
 * else is a toast.
 */
export function usePublishLandingPage({ onFieldError }: { onFieldError: (message: string) => void }) {
  const store = useStorePage();
  return useMutation({
    mutationFn: (slug: string) => apiClient.put(PUBLICATION, landingPage, { body: { slug } }),
    onSuccess: (page) => {
      store(page);
      toast.success(m.published.title, { description: page.publication ? `Your page is live at ${publicPageUrl(page.publication.path)}.` : undefined });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) onFieldError(m.slugTaken);
      else if (error instanceof ApiError && error.status === 400 && error.message) onFieldError(error.message);
      else if (error instanceof ApiError && error.status === 404) toast.error(m.publishNeedsSave.title, { description: m.publishNeedsSave.description });
      else toast.error(m.publishFailed.title, { description: m.publishFailed.description });
    },
  });
}

/** DELETE /api/landing-page/publication: the public address stops serving the page (and is free again). */
export function useUnpublishLandingPage() {
  const store = useStorePage();
  return useMutation({
    mutationFn: () => apiClient.delete(PUBLICATION, landingPage),
    onSuccess: (page) => {
      store(page);
      toast.success(m.unpublished.title, { description: m.unpublished.description });
    },
    onError: () => toast.error(m.unpublishFailed.title, { description: m.unpublishFailed.description }),
  });
}
