import { useQuery } from '@tanstack/react-query';
import { Package } from 'lucide-react';
import { useState } from 'react';
import type { Bundle } from '@contracts/bundles.ts';
import { SalesListScreen } from '@/components/sales-list-screen.tsx';
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
    <SalesListScreen
      messages={m}
      createAction="create bundles"
      onCreate={() => setEditing(null)}
      list={bundles}
      empty={items.length === 0}
      emptyIcon={Package}
      dialogs={
        <>
          <BundleDialog open={editing !== undefined} bundle={editing ?? undefined} onOpenChange={(open) => !open && setEditing(undefined)} />
          <DeleteBundleDialog bundle={deleting} onDone={() => setDeleting(undefined)} />
        </>
      }
    >
      <BundlesTable bundles={items} onEdit={setEditing} onDelete={setDeleting} />
    </SalesListScreen>
  );
}
