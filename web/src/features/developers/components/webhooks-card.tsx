import { useQuery } from '@tanstack/react-query';
import { ListChecks, Plus, Power, Trash2, Webhook } from 'lucide-react';
import { useState } from 'react';
import {
  createWebhookEndpointBody,
  webhookEventLabels,
  webhookEventTypes,
  type CreatedWebhookEndpoint,
  type WebhookEndpointView,
  type WebhookEventType,
} from '@contracts/webhooks.ts';
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
import { useEntitlements } from '@/lib/entitlements.ts';
import { formatDay } from '@/lib/format-date.ts';
import { useCreateWebhookEndpoint, useDeleteWebhookEndpoint, useEnableWebhookEndpoint, webhookEndpointsQueryOptions } from '../api/developers-queries.ts';
import { developersMessages } from '../developers-messages.ts';
import { CreateOnceDialog, CreateOnceFooter, useCreateOnceForm } from './create-once.tsx';
import { DeliveriesDialog } from './deliveries-dialog.tsx';
import { CheckboxGroup } from './scope-checkboxes.tsx';
import { VerifySignatures } from './verify-signatures.tsx';

const m = developersMessages.webhooks;

/**
 * Webhook endpoints (issue 31 point 4): each endpoint's URL, events and (after days of failures) its Disabled badge;
 * 'Add endpoint' (URL and events, checked with the contract; then the signing secret, shown once, with Copy);
 * 'Deliveries' (the log, with 'Retry now'); 'Delete' behind a confirmation; and how to verify the signatures. A plan
 * without `webhooks` (or a 403 PLAN_REQUIRED on add) shows the plan card instead of 'Add endpoint'.
 */
export function WebhooksCard() {
  const endpoints = useQuery(webhookEndpointsQueryOptions());
  const locked = useEntitlements().locked('webhooks');
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<WebhookEndpointView>();
  const [viewing, setViewing] = useState<WebhookEndpointView>();
  const [planNeeded, setPlanNeeded] = useState<string>();

  return (
    <Card className="*:min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 px-4 sm:px-6">
        <div className="grid min-w-0 flex-1 basis-64 gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <Webhook aria-hidden="true" className="size-5 text-muted-foreground" />
            {m.title}
          </CardTitle>
          <CardDescription>{m.description}</CardDescription>
        </div>
        {!planNeeded && !locked && (
          <Button onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" />
            {m.add}
          </Button>
        )}
      </CardHeader>
      <CardContent className="grid gap-6 px-4 sm:px-6">
        {(planNeeded !== undefined || locked) && <PlanRequiredCard title={m.plan} reason={planNeeded || m.planReason} />}
        {endpoints.isPending ? (
          <TableSkeleton label={m.loading} rows={2} />
        ) : endpoints.isError ? (
          <LoadFailed message={m.loadFailed} retrying={endpoints.isRefetching} onRetry={() => void endpoints.refetch()} />
        ) : endpoints.data.items.length === 0 ? (
          <EmptyState icon={Webhook} title={m.emptyTitle}>
            {m.emptyBody}
          </EmptyState>
        ) : (
          <ul aria-label="Webhook endpoints" className="grid gap-3">
            {endpoints.data.items.map((endpoint) => (
              <EndpointItem key={endpoint.id} endpoint={endpoint} onDeliveries={() => setViewing(endpoint)} onDelete={() => setDeleting(endpoint)} />
            ))}
          </ul>
        )}
        <VerifySignatures />
      </CardContent>
      <AddEndpointDialog
        open={adding}
        onOpenChange={setAdding}
        onPlanRequired={(reason) => {
          setAdding(false);
          setPlanNeeded(reason);
        }}
      />
      <DeleteEndpointDialog endpoint={deleting} onDone={() => setDeleting(undefined)} />
      <DeliveriesDialog endpoint={viewing} onClose={() => setViewing(undefined)} />
    </Card>
  );
}

function EndpointItem({ endpoint, onDeliveries, onDelete }: { endpoint: WebhookEndpointView; onDeliveries: () => void; onDelete: () => void }) {
  return (
    <li aria-label={endpoint.url} className="grid gap-3 rounded-lg border p-4 sm:grid-cols-[1fr_auto] sm:items-start">
      <div className="grid min-w-0 gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-sm font-medium [overflow-wrap:anywhere]">{endpoint.url}</span>
          {endpoint.disabledAt && (
            <Badge variant="outline" className="border-destructive/40 bg-destructive/5 text-destructive">
              {m.disabled} {formatDay(endpoint.disabledAt)}
            </Badge>
          )}
        </div>
        <ul className="flex flex-wrap gap-1" aria-label={`Events of ${endpoint.url}`}>
          {endpoint.events.map((event) => (
            <li key={event}>
              <Badge variant="secondary" title={webhookEventLabels[event]}>
                {event}
              </Badge>
            </li>
          ))}
        </ul>
        {endpoint.disabledAt && <p className="text-sm text-destructive">{m.disabledHint}</p>}
        <p className="text-xs text-muted-foreground">Added {formatDay(endpoint.createdAt)}</p>
      </div>
      <div className="flex flex-wrap gap-2 max-sm:*:flex-1">
        {endpoint.disabledAt && <EnableButton endpoint={endpoint} />}
        <Button variant="outline" size="sm" className="max-sm:h-10" aria-label={`Deliveries to ${endpoint.url}`} onClick={onDeliveries}>
          <ListChecks aria-hidden="true" />
          {m.deliveries.open}
        </Button>
        <Button variant="outline" size="sm" className="max-sm:h-10" aria-label={`Delete ${endpoint.url}`} onClick={onDelete}>
          <Trash2 aria-hidden="true" />
          {m.remove.action}
        </Button>
      </div>
    </li>
  );
}

/** Turns a disabled endpoint back on (after its owner fixed it): events from now on are sent to it again. */
function EnableButton({ endpoint }: { endpoint: WebhookEndpointView }) {
  const enable = useEnableWebhookEndpoint();
  const onEnable = () =>
    enable.mutate(endpoint.id, {
      onSuccess: () => toast.success(m.enable.done, { description: m.enable.doneBody }),
      onError: (error) => toastError(error, m.enable.failed),
    });
  return (
    <Button variant="outline" size="sm" className="max-sm:h-10" loading={enable.isPending} aria-label={`Enable ${endpoint.url}`} onClick={onEnable}>
      {!enable.isPending && <Power aria-hidden="true" />}
      {m.enable.action}
    </Button>
  );
}

const announceEndpoint = (created: CreatedWebhookEndpoint) => ({
  title: 'Endpoint added',
  description: `${created.url} will be told of ${created.events.length === 1 ? 'one event' : `${created.events.length} events`}.`,
});

function AddEndpointDialog({ open, onOpenChange, onPlanRequired }: { open: boolean; onOpenChange: (open: boolean) => void; onPlanRequired: (reason: string) => void }) {
  const create = useCreateWebhookEndpoint();
  return (
    <CreateOnceDialog<CreatedWebhookEndpoint> open={open} onOpenChange={onOpenChange} busy={create.isPending} words={m} secretOf={(created) => created.secret} announce={announceEndpoint}>
      {(cancel, onCreated) => <AddEndpointForm onCancel={cancel} onCreated={onCreated} onPlanRequired={onPlanRequired} create={create} />}
    </CreateOnceDialog>
  );
}

function AddEndpointForm({
  onCancel,
  onCreated,
  onPlanRequired,
  create,
}: {
  onCancel: () => void;
  onCreated: (created: CreatedWebhookEndpoint) => void;
  onPlanRequired: (reason: string) => void;
  create: ReturnType<typeof useCreateWebhookEndpoint>;
}) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const { problems, refusal, firstInput, submit } = useCreateOnceForm({
    schema: createWebhookEndpointBody,
    fieldOf: (path0) => (path0 === 'events' ? 'events' : 'url'),
    focusField: 'url',
    create,
    failed: m.form.failed,
    planReason: m.planReason,
    onCreated,
    onPlanRequired,
  });

  return (
    <form noValidate aria-label={m.form.title} className="grid gap-5" onSubmit={submit({ url, events })}>
      <FormField label={m.form.url} error={problems.url} description="Your server's https address. It must answer 2xx within 10 seconds." required>
        <Input
          ref={firstInput}
          autoFocus
          type="url"
          inputMode="url"
          value={url}
          autoComplete="off"
          spellCheck={false}
          placeholder="https://example.com/webhooks"
          onChange={(event) => setUrl(event.target.value)}
        />
      </FormField>
      <CheckboxGroup legend={m.form.events} options={webhookEventTypes} labels={webhookEventLabels} chosen={events} onChange={setEvents} error={problems.events} />
      <CreateOnceFooter refusal={refusal} busy={create.isPending} submit={m.form.submit} onCancel={onCancel} />
    </form>
  );
}

/** 'Delete', confirmed, naming the URL. */
function DeleteEndpointDialog({ endpoint, onDone }: { endpoint: WebhookEndpointView | undefined; onDone: () => void }) {
  const remove = useDeleteWebhookEndpoint();
  const confirm = () => {
    if (!endpoint) return;
    remove.mutate(endpoint.id, {
      onSuccess: () => {
        toast.success(m.remove.done, { description: `${endpoint.url} is told of nothing more.` });
        onDone();
      },
      onError: (error) => {
        toastError(error, m.remove.failed);
        onDone();
      },
    });
  };
  return (
    <ConfirmDialog open={endpoint !== undefined} onOpenChange={(open) => !open && onDone()} title={endpoint ? m.remove.title(endpoint.url) : ''} action={m.remove.action} busy={remove.isPending} onConfirm={confirm}>
      {m.remove.body}
    </ConfirmDialog>
  );
}
