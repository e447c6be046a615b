import { useQuery } from '@tanstack/react-query';
import { Info, Users } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { leaderLicensesQueryOptions } from '../api/leader-queries.ts';
import { AddMembersForm } from '../components/add-members-form.tsx';
import { GroupMembers } from '../components/group-members.tsx';
import { GroupPicker } from '../components/group-picker.tsx';
import { GroupSummary } from '../components/group-summary.tsx';
import { isEnded } from '../license-format.ts';
import { leaderMessages } from '../leader-messages.ts';

const m = leaderMessages.groups;

/**
 * /dashboard/leader/groups: one group per licence, chosen with 'Group' (`?license=<id>`, so Licenses' 'Manage seats'
 * and a reload open the same one; else the newest). For it: the course and the seats in use, 'Add members' by email
 * or CSV file, and the members with their progress, each removable (or added again).
 */
export function LeaderGroupsScreen() {
  const licenses = useQuery(leaderLicensesQueryOptions());
  const [params, setParams] = useSearchParams();
  const items = licenses.data?.items ?? [];
  const chosen = items.find((license) => license.id === params.get('license')) ?? items[0];

  const choose = (licenseId: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('license', licenseId);
        return next;
      },
      { replace: true },
    );

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title={m.title} description={m.description} />
      {licenses.isPending ? (
        <TableSkeleton label={m.loading} />
      ) : licenses.isError ? (
        <LoadFailed message={m.loadFailed} onRetry={() => void licenses.refetch()} retrying={licenses.isRefetching} retryLabel={m.retry} />
      ) : !chosen ? (
        <EmptyState icon={Users} title={m.empty.title}>
          {m.empty.description}
        </EmptyState>
      ) : (
        <>
          {items.length > 1 && <GroupPicker licenses={items} value={chosen.id} onChange={choose} />}
          <GroupSummary license={chosen} />
          {isEnded(chosen) ? (
            <p role="note" className="flex items-start gap-3 rounded-lg border border-dashed bg-muted/40 p-4 text-sm">
              <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
              {m.ended}
            </p>
          ) : (
            // Keyed: another group starts with an empty form and no results.
            <AddMembersForm key={`add-${chosen.id}`} license={chosen} />
          )}
          <GroupMembers key={`members-${chosen.id}`} license={chosen} />
        </>
      )}
    </div>
  );
}
