import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from '@/components/ui/toaster.tsx';
import { adminMessages as m } from '../admin-messages.ts';
import { adminStatsQueryOptions } from './admin-stats.ts';

/** The stats query, with the spec's failure toast ('Error' / 'Failed to load admin statistics') once per failure. */
export function useAdminStats() {
  const stats = useQuery(adminStatsQueryOptions());
  useEffect(() => {
    if (stats.isError) toast.error(m.loadFailed.title, { description: m.loadFailed.description });
  }, [stats.isError]);
  return stats;
}
