import { useInfiniteQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronUp, Inbox } from 'lucide-react';
import { useState } from 'react';
import type { AdminSupportRequest, SupportStatus } from '@contracts/support.ts';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { supportInboxQueryOptions } from '../api/support-queries.ts';
import { PriorityBadge } from '../components/priority-badge.tsx';
import { ReplyForm } from '../components/reply-form.tsx';
import { SupportThread } from '../components/support-thread.tsx';
import { ageOf, formatMoment } from '../support-format.ts';
import { supportMessages } from '../support-messages.ts';

const m = supportMessages.admin;

/**
 * /dashboard/admin/support: the Support inbox. Open requests first (Open / Closed tabs), priority (Pro) before
 * standard, then the longest waiting, each with its age and priority; 'Open' shows the conversation and the reply
 * form ('Send reply', or 'Reply and close' after a confirmation). A page at a time: 'Load more' for the next.
 */
export function AdminSupportScreen() {
  const [status, setStatus] = useState<SupportStatus>('open');
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title={m.title} description={m.description} />
      <Tabs value={status} onValueChange={(value) => setStatus(value as SupportStatus)}>
        <TabsList aria-label="Requests by status">
          <TabsTrigger value="open">{m.open}</TabsTrigger>
          <TabsTrigger value="closed">{m.closed}</TabsTrigger>
        </TabsList>
        {(['open', 'closed'] as const).map((value) => (
          <TabsContent key={value} value={value} className="mt-6">
            <InboxPanel status={value} />
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}

/** One tab's requests: loading, error, empty, or the list a page at a time ('Load more'). */
function InboxPanel({ status }: { status: SupportStatus }) {
  const inbox = useInfiniteQuery(supportInboxQueryOptions(status));
  const items = inbox.data?.pages.flatMap((page) => page.items) ?? [];
  const [opened, setOpened] = useState<string>();

  if (inbox.isPending) return <TableSkeleton label={m.loading} />;
  if (inbox.isError) return <LoadFailed message={m.loadFailed} onRetry={() => void inbox.refetch()} retrying={inbox.isRefetching} retryLabel={supportMessages.retry} />;
  if (items.length === 0) {
    return (
      <EmptyState icon={Inbox} title={m.empty[status].title}>
        {m.empty[status].description}
      </EmptyState>
    );
  }
  return (
    <div className="grid gap-4">
      <ul className="grid gap-3" aria-label={status === 'open' ? 'Open requests' : 'Closed requests'}>
        {items.map((request) => (
          <InboxRow key={request.id} request={request} open={opened === request.id} onToggle={() => setOpened(opened === request.id ? undefined : request.id)} onReplied={() => setOpened(undefined)} />
        ))}
      </ul>
      {inbox.hasNextPage && (
        <Button variant="outline" className="justify-self-center" loading={inbox.isFetchingNextPage} onClick={() => void inbox.fetchNextPage()}>
          {supportMessages.loadMore}
        </Button>
      )}
    </div>
  );
}

function InboxRow({ request, open, onToggle, onReplied }: { request: AdminSupportRequest; open: boolean; onToggle: () => void; onReplied: () => void }) {
  const panelId = `support-${request.id}`;
  const replies = request.replies.filter((reply) => reply.from === 'support').length;
  const age = ageOf(request.createdAt);
  return (
    <li className="grid gap-4 rounded-xl border bg-card p-4 sm:p-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="min-w-0 break-words font-medium">{request.subject}</h2>
            <PriorityBadge priority={request.priority} showStandard />
          </div>
          <p className="break-all text-sm text-muted-foreground">{request.creatorEmail || request.creatorId}</p>
          <p className="text-xs text-muted-foreground">
            {request.status === 'open' ? 'Waiting ' : 'Asked '}
            <time dateTime={request.createdAt} title={formatMoment(request.createdAt)}>
              {age}
            </time>
            {request.status === 'closed' && age !== 'just now' ? ' ago' : ''} · {replies === 1 ? '1 reply' : `${replies} replies`}
          </p>
        </div>
        <Button
          variant="outline"
          className="shrink-0 max-sm:w-full"
          aria-label={`${open ? m.hide : m.openRequest}: ${request.subject}`}
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={onToggle}
        >
          {open ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
          {open ? m.hide : m.openRequest}
        </Button>
      </div>
      {open && (
        <div id={panelId} className="grid gap-4 border-t pt-4">
          <SupportThread request={request} names={{ creator: request.creatorEmail || 'Creator', support: 'Support' }} />
          {request.status === 'open' && <ReplyForm request={request} onReplied={onReplied} />}
        </div>
      )}
    </li>
  );
}
