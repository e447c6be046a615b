import { Inbox } from 'lucide-react';
import { recipientLabels, type CampaignStatus, type CampaignSummary } from '@contracts/campaigns.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { cn } from '@/lib/utils.ts';
import { emailMessages as m } from '../admin-messages.ts';

const when = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const number = (n: number) => n.toLocaleString('en-GB');

const statusLook: Record<CampaignStatus, { label: string; className?: string; variant: 'default' | 'secondary' | 'outline' }> = {
  queued: { label: 'Queued', variant: 'outline' },
  sending: { label: 'Sending', variant: 'secondary' },
  paused: { label: 'Paused: daily quota', variant: 'outline', className: 'border-amber-600 text-amber-700 dark:text-amber-400' },
  sent: { label: 'Sent', variant: 'default' },
  failed: { label: 'Failed', variant: 'outline', className: 'border-destructive text-destructive' },
};

/**
 * Analytics: every campaign, newest first, with its delivery counts (recipients when queued, sent, failed, and skipped
 * for unsubscribed or suppressed addresses). The list refreshes itself while a campaign is on its way.
 */
export function EmailCampaignsTable({ campaigns }: { campaigns: readonly CampaignSummary[] }) {
  if (campaigns.length === 0) {
    return (
      <EmptyState icon={Inbox} title={m.noCampaigns.title}>
        {m.noCampaigns.description}
      </EmptyState>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle asLevel={3} className="text-base">
          Campaigns
        </CardTitle>
        <CardDescription>Delivery of the latest campaigns, newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        <Table label="Campaigns">
          <TableHeader>
            <TableRow>
              <TableHead>Subject</TableHead>
              <TableHead>Recipients</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Audience</TableHead>
              <TableHead className="text-right">Sent</TableHead>
              <TableHead className="text-right">Failed</TableHead>
              <TableHead className="text-right">Skipped</TableHead>
              <TableHead>Created</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {campaigns.map((c) => {
              const look = statusLook[c.status];
              return (
                <TableRow key={c.id}>
                  <TableCell className="max-w-64 min-w-40 font-medium break-words">{c.subject}</TableCell>
                  <TableCell className="whitespace-nowrap">{recipientLabels[c.recipient]}</TableCell>
                  <TableCell>
                    <Badge variant={look.variant} className={cn(look.className)}>
                      {look.label}
                    </Badge>
                    {c.status === 'paused' && <p className="text-muted-foreground mt-1 max-w-48 text-xs">{m.pausedForQuota}</p>}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{number(c.recipientCount)}</TableCell>
                  <TableCell className="text-right tabular-nums">{number(c.sent)}</TableCell>
                  <TableCell className="text-right tabular-nums">{number(c.failed)}</TableCell>
                  <TableCell className="text-right tabular-nums">{number(c.skipped)}</TableCell>
                  <TableCell className="whitespace-nowrap">
                    <time dateTime={c.createdAt}>{when.format(new Date(c.createdAt))}</time>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
