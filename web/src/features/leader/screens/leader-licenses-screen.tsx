import { useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { leaderLicensesQueryOptions } from '../api/leader-queries.ts';
import { LicensesTable } from '../components/licenses-table.tsx';
import { leaderMessages } from '../leader-messages.ts';

const m = leaderMessages.licenses;

/**
 * /dashboard/leader/licenses: the course seats licensed to the leader's organisation (granted by a creator or bought
 * on a course's page), with the seats in use, the end date and the status; 'Manage seats' opens its group.
 */
export function LeaderLicensesScreen() {
  const licenses = useQuery(leaderLicensesQueryOptions());
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title={m.title} description={m.description} />
      {licenses.isPending ? (
        <TableSkeleton label={m.loading} />
      ) : licenses.isError ? (
        <LoadFailed message={m.loadFailed} onRetry={() => void licenses.refetch()} retrying={licenses.isRefetching} retryLabel={m.retry} />
      ) : licenses.data.items.length === 0 ? (
        <EmptyState icon={KeyRound} title={m.empty.title}>
          {m.empty.description}
        </EmptyState>
      ) : (
        // Below 1280 px the table folds into cards of its own (licenses-table.tsx): no card around them.
        <Card className="max-xl:border-0 max-xl:bg-transparent max-xl:shadow-none">
          <CardContent className="pt-6 max-xl:p-0">
            <LicensesTable licenses={licenses.data.items} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}
