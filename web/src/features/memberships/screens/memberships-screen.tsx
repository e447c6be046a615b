import { useQuery } from '@tanstack/react-query';
import { Check, Plus, Repeat, RotateCw, Sparkles } from 'lucide-react';
import { useState } from 'react';
import type { Membership } from '@contracts/memberships.ts';
import { plans } from '@contracts/plans.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { useEntitlements } from '@/lib/entitlements.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { requestUpgrade } from '@/lib/upgrade-requests.ts';
import { membershipsQueryOptions } from '../api/memberships-queries.ts';
import { DeleteMembershipDialog } from '../components/delete-membership-dialog.tsx';
import { MembersDialog } from '../components/members-dialog.tsx';
import { MembershipDialog } from '../components/membership-dialog.tsx';
import { MembershipsTable } from '../components/memberships-table.tsx';
import { membershipsMessages as m } from '../memberships-messages.ts';

/**
 * /dashboard/creator/memberships (Marketing, Pro): a monthly or yearly subscription to the creator's courses (issue 34
 * point 2). On Pro, 'Create membership' opens the form; off Pro, a card says what Pro unlocks and opens the upgrade
 * path, and memberships made on Pro stay listed read-only (their members keep access until Stripe ends them). Each row
 * has its On sale switch, its public link, 'Members' (with MRR and churn), 'Edit', and 'Delete' behind a confirmation.
 */
export function MembershipsScreen() {
  const memberships = useQuery(membershipsQueryOptions());
  const items = memberships.data?.items ?? [];
  const entitlements = useEntitlements();
  const locked = entitlements.locked('memberships');
  // The dialog: closed, creating (null) or editing a membership.
  const [editing, setEditing] = useState<Membership | null>();
  const [deleting, setDeleting] = useState<Membership>();
  const [viewing, setViewing] = useState<Membership>();

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader
        title={m.title}
        description={m.description}
        actions={
          !locked && (
            <Button onClick={() => setEditing(null)}>
              <Plus aria-hidden="true" />
              {m.create}
            </Button>
          )
        }
      />
      {locked && <ProPlanCard hasMemberships={items.length > 0} />}
      {memberships.isPending ? (
        <TableSkeleton label={m.loading} />
      ) : memberships.isError ? (
        <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border px-4 py-10 text-center">
          <p className="font-medium">{m.loadFailed}</p>
          <Button variant="outline" loading={memberships.isRefetching} onClick={() => void memberships.refetch()}>
            {!memberships.isRefetching && <RotateCw aria-hidden="true" />}
            {m.retry}
          </Button>
        </div>
      ) : items.length === 0 ? (
        !locked && (
          <EmptyState icon={Repeat} title={m.empty.title}>
            {m.empty.description}
          </EmptyState>
        )
      ) : (
        <Card className="max-sm:border-0 max-sm:bg-transparent max-sm:shadow-none">
          <CardContent className="grid gap-4 pt-6 max-sm:p-0">
            <MembershipsTable memberships={items} readOnly={locked} onMembers={setViewing} onEdit={setEditing} onDelete={setDeleting} />
          </CardContent>
        </Card>
      )}
      <MembershipDialog open={editing !== undefined} membership={editing ?? undefined} onOpenChange={(open) => !open && setEditing(undefined)} />
      <DeleteMembershipDialog membership={deleting} onDone={() => setDeleting(undefined)} />
      <MembersDialog membership={viewing} onClose={() => setViewing(undefined)} />
    </div>
  );
}

/** What a creator off Pro sees instead of 'Create membership': why, what Pro unlocks, and 'Upgrade to Pro'. */
function ProPlanCard({ hasMemberships }: { hasMemberships: boolean }) {
  return (
    <Card data-testid="pro-plan-card" className="border-primary/30">
      <CardHeader className="gap-2 px-4 sm:px-6">
        <div className="flex items-center gap-2">
          <Sparkles aria-hidden="true" className="size-5 shrink-0 text-primary" />
          <CardTitle className="text-lg">{m.plan.title}</CardTitle>
        </div>
        <CardDescription>{m.plan.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 px-4 sm:px-6">
        <ul className="grid gap-2 text-sm">
          {m.plan.unlocks.map((line) => (
            <li key={line} className="flex gap-2">
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-700" />
              {line}
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <Button onClick={() => requestUpgrade({ plan: 'pro', reason: `${m.plan.title}. ${m.plan.description}` })}>{m.plan.upgrade}</Button>
          <span className="text-sm text-muted-foreground">
            {plans.pro.name} is {formatPounds(plans.pro.pricePence)} a month.
          </span>
        </div>
        {hasMemberships && <p className="text-sm text-muted-foreground">{m.plan.earlier}</p>}
      </CardContent>
    </Card>
  );
}
