import { useQuery } from '@tanstack/react-query';
import { Package, Plus, RotateCw } from 'lucide-react';
import { useState } from 'react';
import type { Bundle } from '@contracts/bundles.ts';
import { PlanGate } from '@/components/plan-gate.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { bundlesQueryOptions } from '../api/bundles-queries.ts';
import { BundleDialog } from '../components/bundle-dialog.tsx';
import { BundlesTable } from '../components/bundles-table.tsx';
import { DeleteBundleDialog } from '../components/delete-bundle-dialog.tsx';
import { bundlesMessages as m } from '../bundles-messages.ts';

/**
 * /dashboard/creator/bundles (Marketing): several of the creator's courses sold together (issue 34). 'Create bundle'
 * opens the form; each row has its On sale switch, its public link to copy, 'Edit', and 'Delete' behind a
 * confirmation. Newest first; a creator has at most 100, so one answer holds them all.
 */
export function BundlesScreen() {
  const bundles = useQuery(bundlesQueryOptions());
  const items = bundles.data?.items ?? [];
  // The dialog: closed, creating (null) or editing a bundle.
  const [editing, setEditing] = useState<Bundle | null>();
  const [deleting, setDeleting] = useState<Bundle>();

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader
        title={m.title}
        description={m.description}
        actions={
          // Without a plan: 'Choose a plan to create bundles' (issue 29); the bundles made stay listed.
          <PlanGate feature="sales" label={m.create} action="create bundles" variant="default">
            <Button onClick={() => setEditing(null)}>
              <Plus aria-hidden="true" />
              {m.create}
            </Button>
          </PlanGate>
        }
      />
      {bundles.isPending ? (
        <TableSkeleton label={m.loading} />
      ) : bundles.isError ? (
        <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border px-4 py-10 text-center">
          <p className="font-medium">{m.loadFailed}</p>
          <Button variant="outline" loading={bundles.isRefetching} onClick={() => void bundles.refetch()}>
            {!bundles.isRefetching && <RotateCw aria-hidden="true" />}
            {m.retry}
          </Button>
        </div>
      ) : items.length === 0 ? (
        <EmptyState icon={Package} title={m.empty.title}>
          {m.empty.description}
        </EmptyState>
      ) : (
        <Card className="max-sm:border-0 max-sm:bg-transparent max-sm:shadow-none">
          <CardContent className="grid gap-4 pt-6 max-sm:p-0">
            <BundlesTable bundles={items} onEdit={setEditing} onDelete={setDeleting} />
          </CardContent>
        </Card>
      )}
      <BundleDialog open={editing !== undefined} bundle={editing ?? undefined} onOpenChange={(open) => !open && setEditing(undefined)} />
      <DeleteBundleDialog bundle={deleting} onDone={() => setDeleting(undefined)} />
    </div>
  );
}
