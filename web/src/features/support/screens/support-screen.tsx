import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { LifeBuoy, Zap } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { planQueryOptions, supportRequestsQueryOptions } from '../api/support-queries.ts';
import { FollowUpForm } from '../components/follow-up-form.tsx';
import { PriorityBadge, StatusBadge } from '../components/priority-badge.tsx';
import { SupportRequestForm } from '../components/support-request-form.tsx';
import { SupportThread } from '../components/support-thread.tsx';
import { formatMoment } from '../support-format.ts';
import { supportMessages } from '../support-messages.ts';

const m = supportMessages.creator;

/**
 * /dashboard/creator/support: the form to ask for help, then the creator's requests, newest first, each as its thread
 * (their message, then our replies), with its status and, for a request made on Pro, the Priority badge. The reply
 * email links here.
 */
export function SupportScreen() {
  const requests = useInfiniteQuery(supportRequestsQueryOptions());
  const plan = useQuery(planQueryOptions());
  const items = requests.data?.pages.flatMap((page) => page.items) ?? [];
  const onPriority = plan.data?.features.includes('prioritySupport') === true;

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title={m.title} description={m.description} />
      <Card>
        <CardHeader>
          <CardTitle>{m.form.title}</CardTitle>
          {onPriority && (
            <CardDescription className="flex items-center gap-1.5">
              <Zap aria-hidden="true" className="size-4 text-amber-600" />
              {m.priorityNote}
            </CardDescription>
          )}
        </CardHeader>
        <CardContent>
          <SupportRequestForm />
        </CardContent>
      </Card>

      <section aria-labelledby="support-requests" className="grid gap-4">
        <h2 id="support-requests" className="text-lg font-semibold tracking-tight">
          {m.list.title}
        </h2>
        {requests.isPending ? (
          <TableSkeleton label={m.list.loading} rows={3} />
        ) : requests.isError ? (
          <LoadFailed message={m.list.loadFailed} onRetry={() => void requests.refetch()} retrying={requests.isRefetching} retryLabel={supportMessages.retry} />
        ) : items.length === 0 ? (
          <EmptyState icon={LifeBuoy} title={m.list.empty.title}>
            {m.list.empty.description}
          </EmptyState>
        ) : (
          <ul className="grid gap-4">
            {items.map((request) => (
              <li key={request.id}>
                <article aria-labelledby={`request-${request.id}`} className="grid gap-3 rounded-xl border bg-card p-4 sm:p-5">
                  <header className="grid gap-1.5">
                    <div className="flex flex-wrap items-center gap-2">
                      <h3 id={`request-${request.id}`} className="min-w-0 break-words font-medium">
                        {request.subject}
                      </h3>
                      <StatusBadge status={request.status} />
                      <PriorityBadge priority={request.priority} />
                    </div>
                    <p className="text-xs text-muted-foreground">
                      Sent <time dateTime={request.createdAt}>{formatMoment(request.createdAt)}</time>
                    </p>
                  </header>
                  <SupportThread request={request} names={{ creator: m.list.you, support: m.list.support }} />
                  {!request.replies.some((reply) => reply.from === 'support') && request.status === 'open' && <p className="text-sm text-muted-foreground">{m.list.noReplies}</p>}
                  {request.status === 'open' && <FollowUpForm request={request} />}
                </article>
              </li>
            ))}
          </ul>
        )}
        {requests.hasNextPage && (
          <Button variant="outline" className="justify-self-center" loading={requests.isFetchingNextPage} onClick={() => void requests.fetchNextPage()}>
            {supportMessages.loadMore}
          </Button>
        )}
      </section>
    </div>
  );
}
