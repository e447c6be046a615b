import { useQuery } from '@tanstack/react-query';
import { BookOpen, KeyRound, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { API_KEY_NAME_MAX, apiScopeLabels, apiScopes, createApiKeyBody, type ApiKeyView, type ApiScope, type CreatedApiKey } from '@contracts/api-keys.ts';
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
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { useEntitlements } from '@/lib/entitlements.ts';
import { formatDay } from '@/lib/format-date.ts';
import { paths } from '@/lib/paths.ts';
import { cn } from '@/lib/utils.ts';
import { apiKeysQueryOptions, useCreateApiKey, useRevokeApiKey } from '../api/developers-queries.ts';
import { developersMessages } from '../developers-messages.ts';
import { developersAvailability } from '../availability.ts';
import { CreateOnceDialog, CreateOnceFooter, useCreateOnceForm } from './create-once.tsx';
import { folded } from '@/components/ui/folded-table.ts';
import { CheckboxGroup } from './scope-checkboxes.tsx';

const m = developersMessages.keys;

/**
 * API keys (issue 31 point 1): the creator's keys (name, scopes, `prefix…last4`, created, last used), 'Create API key'
 * (name and scopes, checked with the contract; then the key, shown once, with Copy) and 'Revoke' behind a
 * confirmation naming the key. A plan without `api` (or a 403 PLAN_REQUIRED on create) shows the plan card instead
 * of 'Create'; the keys made stay listed and revocable. `referenceShown`: the link to the API reference page, shown
 * once /v1/openapi.json is served (availability.ts).
 */
export function ApiKeysCard({ referenceShown = developersAvailability.apiReference }: { referenceShown?: boolean } = {}) {
  const keys = useQuery(apiKeysQueryOptions());
  const locked = useEntitlements().locked('api');
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyView>();
  const [planNeeded, setPlanNeeded] = useState<string>();

  return (
    <Card className="*:min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 px-4 sm:px-6">
        <div className="grid min-w-0 flex-1 basis-64 gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <KeyRound aria-hidden="true" className="size-5 text-muted-foreground" />
            {m.title}
          </CardTitle>
          <CardDescription>{m.description}</CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          {referenceShown && (
            <Button asChild variant="outline">
              <Link to={paths.apiReference}>
                <BookOpen aria-hidden="true" />
                {m.reference}
              </Link>
            </Button>
          )}
          {!planNeeded && !locked && (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" />
              {m.create}
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 px-4 sm:px-6">
        {(planNeeded !== undefined || locked) && <PlanRequiredCard title={m.plan} reason={planNeeded || m.planReason} />}
        {keys.isPending ? (
          <TableSkeleton label={m.loading} rows={2} />
        ) : keys.isError ? (
          <LoadFailed message={m.loadFailed} retrying={keys.isRefetching} onRetry={() => void keys.refetch()} />
        ) : keys.data.items.length === 0 ? (
          <EmptyState icon={KeyRound} title={m.emptyTitle}>
            {m.emptyBody}
          </EmptyState>
        ) : (
          <KeysTable keys={keys.data.items} onRevoke={setRevoking} />
        )}
      </CardContent>
      <CreateApiKeyDialog
        open={creating}
        onOpenChange={setCreating}
        onPlanRequired={(reason) => {
          setCreating(false);
          setPlanNeeded(reason);
        }}
      />
      <RevokeApiKeyDialog apiKey={revoking} onDone={() => setRevoking(undefined)} />
    </Card>
  );
}

function KeysTable({ keys, onRevoke }: { keys: ApiKeyView[]; onRevoke: (key: ApiKeyView) => void }) {
  return (
    <Table label={m.title} className={folded.table}>
      <TableHeader className={folded.header}>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Scopes</TableHead>
          <TableHead>Key</TableHead>
          <TableHead>Created</TableHead>
          <TableHead>Last used</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody className={folded.body}>
        {keys.map((key) => (
          <TableRow key={key.id} className={folded.row}>
            <TableCell className={cn(folded.cell, folded.unlabelled, 'font-medium [overflow-wrap:anywhere] max-sm:col-span-2 max-sm:text-base')}>{key.name}</TableCell>
            <TableCell data-label="Scopes" className={cn(folded.cell, 'max-sm:col-span-2')}>
              <ul className="flex flex-wrap gap-1" aria-label={`Scopes of ${key.name}`}>
                {key.scopes.map((scope) => (
                  <li key={scope}>
                    <Badge variant="secondary" title={apiScopeLabels[scope]}>
                      {scope}
                    </Badge>
                  </li>
                ))}
              </ul>
            </TableCell>
            <TableCell data-label="Key" className={cn(folded.cell, 'whitespace-nowrap font-mono text-sm max-sm:col-span-2')}>
              {key.prefix}…{key.last4}
            </TableCell>
            <TableCell data-label="Created" className={cn(folded.cell, 'whitespace-nowrap')}>
              {formatDay(key.createdAt)}
            </TableCell>
            <TableCell data-label="Last used" className={cn(folded.cell, 'whitespace-nowrap')}>
              {key.lastUsedAt ? formatDay(key.lastUsedAt) : <span className="text-muted-foreground">{m.neverUsed}</span>}
            </TableCell>
            <TableCell className={cn(folded.cell, folded.unlabelled, 'text-right max-sm:col-span-2')}>
              <Button variant="outline" size="sm" className="max-sm:h-10 max-sm:w-full" aria-label={`Revoke ${key.name}`} onClick={() => onRevoke(key)}>
                <Trash2 aria-hidden="true" />
                {m.revoke.action}
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const announceKey = (created: CreatedApiKey) => ({ title: 'API key created', description: `${created.name} is ready to use.` });

function CreateApiKeyDialog({ open, onOpenChange, onPlanRequired }: { open: boolean; onOpenChange: (open: boolean) => void; onPlanRequired: (reason: string) => void }) {
  const create = useCreateApiKey();
  return (
    <CreateOnceDialog<CreatedApiKey> open={open} onOpenChange={onOpenChange} busy={create.isPending} words={m} secretOf={(created) => created.key} announce={announceKey}>
      {(cancel, onCreated) => <CreateApiKeyForm onCancel={cancel} onCreated={onCreated} onPlanRequired={onPlanRequired} create={create} />}
    </CreateOnceDialog>
  );
}

function CreateApiKeyForm({
  onCancel,
  onCreated,
  onPlanRequired,
  create,
}: {
  onCancel: () => void;
  onCreated: (created: CreatedApiKey) => void;
  onPlanRequired: (reason: string) => void;
  create: ReturnType<typeof useCreateApiKey>;
}) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiScope[]>([]);
  const { problems, refusal, firstInput, submit } = useCreateOnceForm({
    schema: createApiKeyBody,
    fieldOf: (path0) => (path0 === 'scopes' ? 'scopes' : 'name'),
    focusField: 'name',
    create,
    failed: m.form.failed,
    planReason: m.planReason,
    onCreated,
    onPlanRequired,
  });

  return (
    <form noValidate aria-label={m.form.title} className="grid gap-5" onSubmit={submit({ name, scopes })}>
      <FormField label={m.form.name} error={problems.name} required>
        <Input
          ref={firstInput}
          autoFocus
          value={name}
          maxLength={API_KEY_NAME_MAX + 20}
          autoComplete="off"
          placeholder={m.form.namePlaceholder}
          onChange={(event) => setName(event.target.value)}
        />
      </FormField>
      <CheckboxGroup legend={m.form.scopes} options={apiScopes} labels={apiScopeLabels} chosen={scopes} onChange={setScopes} error={problems.scopes} />
      <CreateOnceFooter refusal={refusal} busy={create.isPending} submit={m.form.submit} onCancel={onCancel} />
    </form>
  );
}

/** 'Revoke', confirmed, naming the key: refused from the next call. */
function RevokeApiKeyDialog({ apiKey, onDone }: { apiKey: ApiKeyView | undefined; onDone: () => void }) {
  const revoke = useRevokeApiKey();
  const confirm = () => {
    if (!apiKey) return;
    revoke.mutate(apiKey.id, {
      onSuccess: () => {
        toast.success(m.revoke.done, { description: `${apiKey.name} no longer works.` });
        onDone();
      },
      onError: (error) => {
        toastError(error, m.revoke.failed);
        onDone();
      },
    });
  };
  return (
    <ConfirmDialog open={apiKey !== undefined} onOpenChange={(open) => !open && onDone()} title={apiKey ? m.revoke.title(apiKey.name) : ''} action={m.revoke.action} busy={revoke.isPending} onConfirm={confirm}>
      {apiKey ? m.revoke.body(apiKey.name) : ''}
    </ConfirmDialog>
  );
}
