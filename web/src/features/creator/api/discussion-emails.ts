import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { discussionEmails, type DiscussionEmails } from '@contracts/comments.ts';
import { toastError } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';

/** GET /api/creator/discussion-emails: whether the daily digest of the learners' comments comes. */
export const discussionEmailsQueryOptions = () =>
  queryOptions({
    queryKey: ['creator', 'discussion-emails'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/creator/discussion-emails', discussionEmails, { signal }),
  });

/**
 * PUT /api/creator/discussion-emails: the switch moves at once (optimistic); a failure puts it back and toasts
 * `failed` with the server's reason.
 */
export function useSaveDiscussionEmails(failed: string) {
  const queryClient = useQueryClient();
  const key = discussionEmailsQueryOptions().queryKey;
  return useMutation({
    mutationFn: (body: DiscussionEmails) => apiClient.put('/api/creator/discussion-emails', discussionEmails, { body }),
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<DiscussionEmails>(key);
      queryClient.setQueryData(key, body);
      return { before };
    },
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
    onError: (error, _body, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      toastError(error, failed);
    },
  });
}
