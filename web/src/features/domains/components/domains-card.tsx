import { useQuery } from '@tanstack/react-query';
import { Globe, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { DomainStatus, DomainView } from '@contracts/domains.ts';
import { PlanRequiredCard } from '@/components/plan-gate.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { useEntitlements } from '@/lib/entitlements.ts';
import { formatDay } from '@/lib/format-date.ts';
import { planRequiredBy } from '@/lib/plan-required.ts';
import { domainsQueryOptions, useAddDomain, useRemoveDomain, useVerifyDomain } from '../api/domains-queries.ts';
import { domainsMessages as m } from '../domains-messages.ts';

const statusTone: Record<DomainStatus, string> = {
  pending_verification: 'border-amber-300 bg-amber-50 text-amber-950',
  issuing_certificate: 'border-sky-300 bg-sky-50 text-sky-950',
  active: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  failed: 'border-destructive/40 bg-destructive/5 text-destructive',
};

/**
 * Custom domains (issue 32 point 2): 'Add domain' (a hostname; the server checks it), then for each domain its status,
 * the TXT and CNAME records to set, what the last check found missing, a failure's reason, the periodic check's flag,
 * 'Verify' and 'Remove' (confirmed). A plan without `customDomains` (or a 403 PLAN_REQUIRED) shows the plan card
 * instead of the form; the list stays, so a creator who left Pro still sees and removes their domains.
 */
export function DomainsCard() {
  const domains = useQuery(domainsQueryOptions());
  const locked = useEntitlements().locked('customDomains');
  const [planNeeded, setPlanNeeded] = useState<string>();
  const [removing, setRemoving] = useState<DomainView>();

  return (
    <Card className="*:min-w-0">
      <CardHeader className="grid gap-1.5 px-4 sm:px-6">
        <CardTitle className="flex items-center gap-2">
          <Globe aria-hidden="true" className="size-5 text-muted-foreground" />
          {m.card.title}
        </CardTitle>
        <CardDescription>{m.card.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 px-4 sm:px-6">
        {planNeeded !== undefined || locked ? <PlanRequiredCard title={m.card.plan} reason={planNeeded || m.card.planReason} /> : <AddDomainForm onPlanRequired={setPlanNeeded} />}
        {domains.isPending ? (
          <TableSkeleton label={m.card.loading} rows={2} />
        ) : domains.isError ? (
          <LoadFailed message={m.card.loadFailed} retrying={domains.isRefetching} onRetry={() => void domains.refetch()} />
        ) : domains.data.items.length === 0 ? (
          <EmptyState icon={Globe} title={m.card.emptyTitle}>
            {m.card.emptyBody}
          </EmptyState>
        ) : (
          <ul aria-label="Custom domains" className="grid gap-3">
            {domains.data.items.map((domain) => (
              <DomainItem key={domain.hostname} domain={domain} canVerify={!locked && planNeeded === undefined} onRemove={() => setRemoving(domain)} />
            ))}
          </ul>
        )}
      </CardContent>
      <RemoveDomainDialog domain={removing} onDone={() => setRemoving(undefined)} />
    </Card>
  );
}

function AddDomainForm({ onPlanRequired }: { onPlanRequired: (reason: string) => void }) {
  const add = useAddDomain();
  const [hostname, setHostname] = useState('');
  const [problem, setProblem] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (hostname.trim() === '') return setProblem('Enter a hostname, like learn.example.com.');
    setProblem(undefined);
    add.mutate(
      { hostname },
      {
        onSuccess: (added) => {
          setHostname('');
          toast.success(m.add.done, { description: m.add.doneBody(added.hostname) });
        },
        onError: (error) => {
          if (planRequiredBy(error)) return onPlanRequired(error instanceof Error ? error.message : m.card.planReason);
          // The server's reason (not a DNS name, the platform's own, claimed by someone else) is the field's.
          if (error instanceof ApiError && (error.code === 'VALIDATION_FAILED' || error.code === 'CONFLICT')) return setProblem(error.message);
          toastError(error, m.add.failed);
        },
      },
    );
  };
  return (
    <form noValidate aria-label={m.add.action} className="flex flex-wrap items-end gap-3" onSubmit={submit}>
      <FormField label={m.add.label} description={m.add.hint} error={problem} className="min-w-0 flex-1 basis-64">
        <Input value={hostname} inputMode="url" autoComplete="off" spellCheck={false} placeholder={m.add.placeholder} onChange={(event) => setHostname(event.target.value)} />
      </FormField>
      <Button type="submit" loading={add.isPending} className="max-sm:w-full">
        {!add.isPending && <Plus aria-hidden="true" />}
        {m.add.action}
      </Button>
    </form>
  );
}

function DomainItem({ domain, canVerify, onRemove }: { domain: DomainView; canVerify: boolean; onRemove: () => void }) {
  const verify = useVerifyDomain();
  const onVerify = () =>
    verify.mutate(domain.hostname, {
      onSuccess: (checked) => {
        if (checked.status === 'active' && domain.status !== 'active') toast.success(m.verify.active, { description: `Your storefront answers at https://${checked.hostname}.` });
      },
      onError: (error) => toastError(error, m.verify.failed),
    });
  const records = [domain.verification, { type: domain.target.type, name: domain.hostname, value: domain.target.value }];
  return (
    <li aria-label={domain.hostname} className="grid gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-sm font-medium [overflow-wrap:anywhere]">{domain.hostname}</span>
        <Badge variant="outline" className={statusTone[domain.status]}>
          {m.status[domain.status]}
        </Badge>
        {domain.flaggedAt && (
          <Badge variant="outline" className={statusTone.failed}>
            {m.flagged}
          </Badge>
        )}
      </div>
      {domain.status !== 'active' && (
        <table className="w-full text-left text-sm" aria-label={`${m.records.title} for ${domain.hostname}`}>
          <thead className="text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="pr-3 font-medium">{m.records.type}</th>
              <th scope="col" className="pr-3 font-medium">{m.records.name}</th>
              <th scope="col" className="font-medium">{m.records.value}</th>
            </tr>
          </thead>
          <tbody className="font-mono [overflow-wrap:anywhere]">
            {records.map((record) => (
              <tr key={record.type}>
                <td className="pr-3 align-top">{record.type}</td>
                <td className="pr-3 align-top">{record.name}</td>
                <td className="align-top">{record.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {domain.status === 'pending_verification' && domain.problem && <p className="text-sm text-muted-foreground">{domain.problem}</p>}
      {domain.failureReason && <p className="text-sm text-destructive">{domain.failureReason}</p>}
      {domain.flagReason && <p className="text-sm text-destructive">{domain.flagReason}</p>}
      <div className="flex flex-wrap items-center gap-2 max-sm:*:flex-1">
        {canVerify && domain.status !== 'active' && (
          <Button variant="outline" size="sm" className="max-sm:h-10" loading={verify.isPending} aria-label={`Verify ${domain.hostname}`} onClick={onVerify}>
            {!verify.isPending && <RefreshCw aria-hidden="true" />}
            {m.verify.action}
          </Button>
        )}
        <Button variant="outline" size="sm" className="max-sm:h-10" aria-label={`Remove ${domain.hostname}`} onClick={onRemove}>
          <Trash2 aria-hidden="true" />
          {m.remove.action}
        </Button>
        <span className="text-xs text-muted-foreground">Added {formatDay(domain.createdAt)}</span>
      </div>
    </li>
  );
}

/** 'Remove', confirmed, naming the hostname. */
function RemoveDomainDialog({ domain, onDone }: { domain: DomainView | undefined; onDone: () => void }) {
  const remove = useRemoveDomain();
  const confirm = () => {
    if (!domain) return;
    remove.mutate(domain.hostname, {
      onSuccess: () => {
        toast.success(m.remove.done, { description: `${domain.hostname} no longer serves your storefront.` });
        onDone();
      },
      onError: (error) => {
        toastError(error, m.remove.failed);
        onDone();
      },
    });
  };
  return (
    <ConfirmDialog open={domain !== undefined} onOpenChange={(open) => !open && onDone()} title={domain ? m.remove.title(domain.hostname) : ''} action={m.remove.action} busy={remove.isPending} onConfirm={confirm}>
      {m.remove.body}
    </ConfirmDialog>
  );
}
