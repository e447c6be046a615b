import { useInfiniteQuery } from '@tanstack/react-query';
import { RotateCw } from 'lucide-react';
import type { WebhookDeliveryStatus, WebhookDeliveryView, WebhookEndpointView } from '@contracts/webhooks.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { LoadFailedInline } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { cn } from '@/lib/utils.ts';
import { deliveriesQueryOptions, useRetryDelivery } from '../api/developers-queries.ts';
import { developersMessages } from '../developers-messages.ts';
import { folded } from '@/components/ui/folded-table.ts';

const m = developersMessages.webhooks.deliveries;

const statusLabels: Record<WebhookDeliveryStatus, string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };
const statusTones: Record<WebhookDeliveryStatus, string> = {
  pending: 'border-amber-300 bg-amber-50 text-amber-950',
  delivered: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  failed: 'border-destructive/40 bg-destructive/5 text-destructive',
};

/** A moment as the log shows it ('25 Nov 2026, 10:00'), in the viewer's zone. */
const formatMoment = (iso: string): string =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/**
 * One endpoint's delivery log (issue 31 point 4), newest first: status, event, attempts, last status code, next
 * attempt, created; 'Load more' by cursor; 'Retry now' on a failed or pending delivery (202), then a toast and the
 * log loaded again.
 */
export function DeliveriesDialog({ endpoint, onClose }: { endpoint: WebhookEndpointView | undefined; onClose: () => void }) {
  return (
    <Dialog open={endpoint !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent fullScreenOnPhone className="sm:max-w-5xl">
        <DialogHeader>
          <DialogTitle>{m.title}</DialogTitle>
          <DialogDescription className="[overflow-wrap:anywhere]">{endpoint ? m.description(endpoint.url) : ''}</DialogDescription>
        </DialogHeader>
        {endpoint && <DeliveriesLog endpointId={endpoint.id} />}
      </DialogContent>
    </Dialog>
  );
}

function DeliveriesLog({ endpointId }: { endpointId: string }) {
  const deliveries = useInfiniteQuery(deliveriesQueryOptions(endpointId));
  const items = deliveries.data?.pages.flatMap((page) => page.items) ?? [];
  if (deliveries.isPending) return <TableSkeleton label={m.loading} rows={3} />;
  if (deliveries.isError) return <LoadFailedInline message={m.loadFailed} retrying={deliveries.isRefetching} onRetry={() => void deliveries.refetch()} />;
  if (items.length === 0) return <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">{m.empty}</p>;
  return (
    <div className="grid min-w-0 gap-4 overflow-y-auto">
      <Table label="Deliveries" className={folded.table}>
        <TableHeader className={folded.header}>
          <TableRow>
            <TableHead>Status</TableHead>
            <TableHead>Event</TableHead>
            <TableHead className="text-right">Attempts</TableHead>
            <TableHead>Last status</TableHead>
            <TableHead>Next attempt</TableHead>
            <TableHead>Created</TableHead>
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className={folded.body}>
          {items.map((delivery) => (
            <DeliveryRow key={delivery.id} endpointId={endpointId} delivery={delivery} />
          ))}
        </TableBody>
      </Table>
      <LoadMore pages={deliveries} label={m.loadMore} />
    </div>
  );
}

function DeliveryRow({ endpointId, delivery }: { endpointId: string; delivery: WebhookDeliveryView }) {
  const retry = useRetryDelivery(endpointId);
  const retryable = delivery.status === 'failed' || delivery.status === 'pending';
  const retryNow = () =>
    retry.mutate(delivery.id, {
      onSuccess: () => toast.success(m.retried, { description: `${delivery.event}: ${m.retriedBody}` }),
      onError: (error) => toastError(error, m.retryFailed),
    });
  return (
    <TableRow className={folded.row}>
      <TableCell className={cn(folded.cell, folded.unlabelled)}>
        <Badge variant="outline" className={statusTones[delivery.status]}>
          {statusLabels[delivery.status]}
        </Badge>
      </TableCell>
      <TableCell data-label="Event" className={cn(folded.cell, 'font-mono text-xs max-sm:col-span-2 max-sm:order-first')}>
        {delivery.event}
      </TableCell>
      <TableCell data-label="Attempts" className={cn(folded.cell, 'tabular-nums sm:text-right')}>
        {delivery.attempts}
      </TableCell>
      <TableCell data-label="Last status" className={cn(folded.cell, 'tabular-nums')}>
        {delivery.lastStatusCode ?? <span className="text-muted-foreground">None</span>}
      </TableCell>
      <TableCell data-label="Next attempt" className={folded.cell}>
        {delivery.nextAttemptAt ? formatMoment(delivery.nextAttemptAt) : <span className="text-muted-foreground">None</span>}
      </TableCell>
      <TableCell data-label="Created" className={folded.cell}>
        {formatMoment(delivery.createdAt)}
      </TableCell>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'text-right max-sm:col-span-2')}>
        {retryable && (
          <Button variant="outline" size="sm" className="max-sm:h-10 max-sm:w-full" loading={retry.isPending} aria-label={`Retry ${delivery.event} now`} onClick={retryNow}>
            {!retry.isPending && <RotateCw aria-hidden="true" />}
            {m.retry}
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}
