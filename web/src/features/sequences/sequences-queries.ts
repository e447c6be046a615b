import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod';
import { sequenceList, sequenceStats, sequenceView, type CreateSequenceBody, type UpdateSequenceBody } from '@contracts/sequences.ts';
import { apiClient } from '@/lib/api-client.ts';

const sequencesKey = ['sequences'] as const;
const sequencePath = (id: string): string => `/api/sequences/${encodeURIComponent(id)}`;

/** GET /api/sequences: the creator's sequences, oldest first. */
export const sequencesQueryOptions = () => queryOptions({ queryKey: sequencesKey, queryFn: ({ signal }) => apiClient.get('/api/sequences', sequenceList, { signal }) });

/** GET /api/sequences/{id}/stats: entered, sent per step, unsubscribed. */
export const sequenceStatsQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...sequencesKey, id, 'stats'] as const, queryFn: ({ signal }) => apiClient.get(`${sequencePath(id)}/stats`, sequenceStats, { signal }) });

/** POST, PATCH and DELETE: the list is read again after each (a handful of sequences: one small request). */
export function useSaveSequence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: CreateSequenceBody | UpdateSequenceBody }) =>
      id ? apiClient.patch(sequencePath(id), sequenceView, { body }) : apiClient.post('/api/sequences', sequenceView, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sequencesKey }),
  });
}

export function useDeleteSequence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiClient.delete(sequencePath(id), z.null()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sequencesKey }),
  });
}
