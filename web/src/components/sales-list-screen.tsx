import type { LucideIcon } from 'lucide-react';
import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { PlanGate } from '@/components/plan-gate.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';

/** What a list screen says (its feature's messages file). */
export interface SalesListMessages {
  title: string;
  description: string;
  create: string;
  loading: string;
  loadFailed: string;
  retry: string;
  empty: { title: string; description: string };
}

/**
 * A creator's screen of things they sell with (Coupons, Bundles): its title and the create button (without a plan:
 * 'Choose a plan to `createAction`', issue 29; what was made stays listed), then a skeleton while the list loads, the
 * failure with 'Try again', the empty state, or the list (`children`) in a card that folds away on phones. `dialogs`
 * are the screen's create/edit/delete dialogs.
 */
export function SalesListScreen({
  messages: m,
  createAction,
  onCreate,
  list,
  empty,
  emptyIcon,
  children,
  dialogs,
}: {
  messages: SalesListMessages;
  createAction: string;
  onCreate: () => void;
  list: { isPending: boolean; isError: boolean; isRefetching: boolean; refetch: () => Promise<unknown> };
  empty: boolean;
  emptyIcon: LucideIcon;
  children: ReactNode;
  dialogs: ReactNode;
}) {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader
        title={m.title}
        description={m.description}
        actions={
          <PlanGate feature="sales" label={m.create} action={createAction} variant="default">
            <Button onClick={onCreate}>
              <Plus aria-hidden="true" />
              {m.create}
            </Button>
          </PlanGate>
        }
      />
      {list.isPending ? (
        <TableSkeleton label={m.loading} />
      ) : list.isError ? (
        <LoadFailed message={m.loadFailed} onRetry={() => void list.refetch()} retrying={list.isRefetching} retryLabel={m.retry} />
      ) : empty ? (
        <EmptyState icon={emptyIcon} title={m.empty.title}>
          {m.empty.description}
        </EmptyState>
      ) : (
        <Card className="max-sm:border-0 max-sm:bg-transparent max-sm:shadow-none">
          <CardContent className="grid gap-4 pt-6 max-sm:p-0">{children}</CardContent>
        </Card>
      )}
      {dialogs}
    </div>
  );
}
