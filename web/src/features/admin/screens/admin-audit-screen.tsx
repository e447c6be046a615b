import { useInfiniteQuery } from '@tanstack/react-query';
import { ScrollText } from 'lucide-react';
import { useState } from 'react';
import { roleNames } from '@contracts/admin-users.ts';
import { auditActionNames, auditActions, type AuditAction, type AuditEntry } from '@contracts/audit.ts';
import { roleSchema } from '@contracts/common.ts';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { SelectItem } from '@/components/ui/select.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { adminAuditQueryOptions } from '../api/audit-queries.ts';
import { EmailLoadFailed as LoadFailed, EmailLoading as Loading } from '../components/email-load-states.tsx';
import { SelectField } from '../components/select-field.tsx';

const ALL = 'all';

/** When, to the minute, in the viewer's zone ('21 Nov 2026, 10:04'). */
const formatWhen = (iso: string): string =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

const roleName = (role: string | undefined): string => {
  const parsed = roleSchema.safeParse(role);
  return parsed.success ? roleNames[parsed.data] : (role ?? '');
};

/** What the action was done to, in words: the account's email, the campaign's subject, the support request's. */
const targetText = ({ target, details }: AuditEntry): string => {
  if (target.kind === 'campaign') return details?.['subject'] ? `Campaign "${details['subject']}"` : `Campaign ${target.id}`;
  if (target.kind === 'support-request') return `Request "${details?.['subject'] ?? target.id}"${target.email ? ` from ${target.email}` : ''}`;
  return target.email ?? target.id;
};

/** A few words of what changed, under the action: a role change's roles, a new account's role, a closed request. */
const detailText = ({ action, details }: AuditEntry): string | undefined => {
  if (action === 'role-changed' && details) return `${roleName(details['from'])} to ${roleName(details['to'])}`;
  if (action === 'account-created' && details?.['role']) return `As ${roleName(details['role']).toLowerCase()}`;
  if (action === 'support-replied' && details?.['closed']) return 'Request closed';
  return undefined;
};

/**
 * /dashboard/admin/audit: every admin action (accounts created, roles changed, accounts disabled and enabled,
 * campaigns sent, support replies), newest first, with who did it and to what; filtered by action, 'Load more' for
 * the next page. Nothing here changes a line: the log is read only. On a phone the actor and time fold under the action.
 */
export function AdminAuditScreen() {
  const [action, setAction] = useState<AuditAction | undefined>(undefined);
  const lines = useInfiniteQuery(adminAuditQueryOptions(action));
  const rows = lines.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Audit" description="Every action an admin has taken, newest first. Entries cannot be changed and are kept for 400 days." />
      <div className="max-w-xs">
        <SelectField label="Action" value={action ?? ALL} error={undefined} onValueChange={(value) => setAction(value === ALL ? undefined : (value as AuditAction))}>
          <SelectItem value={ALL}>All actions</SelectItem>
          {auditActions.map((a) => (
            <SelectItem key={a} value={a}>
              {auditActionNames[a]}
            </SelectItem>
          ))}
        </SelectField>
      </div>
      {lines.isPending ? (
        <Loading label="Loading the audit log..." />
      ) : lines.isError ? (
        <LoadFailed message="Failed to load the audit log" onRetry={() => void lines.refetch()} retrying={lines.isRefetching} />
      ) : rows.length === 0 ? (
        <EmptyState icon={ScrollText} title={action ? `No "${auditActionNames[action]}" entries` : 'No admin actions yet'}>
          {action ? 'No admin has taken this action in the last 400 days.' : 'Role changes, disabled accounts, campaigns and support replies appear here as admins make them.'}
        </EmptyState>
      ) : (
        <Card>
          <CardContent className="grid gap-4 pt-6">
            <Table label="Audit log">
              <TableHeader>
                <TableRow>
                  <TableHead className="hidden md:table-cell">Time</TableHead>
                  <TableHead className="hidden md:table-cell">Admin</TableHead>
                  <TableHead>Action</TableHead>
                  <TableHead>Target</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((line) => {
                  const detail = detailText(line);
                  return (
                    <TableRow key={`${line.at}#${line.action}#${line.target.id}`}>
                      <TableCell className="hidden whitespace-nowrap md:table-cell">{formatWhen(line.at)}</TableCell>
                      <TableCell className="hidden [overflow-wrap:anywhere] md:table-cell">{line.actor.email}</TableCell>
                      <TableCell>
                        <span className="font-medium">{auditActionNames[line.action]}</span>
                        {detail && <span className="block text-xs text-muted-foreground">{detail}</span>}
                        <span className="mt-1 block text-xs text-muted-foreground md:hidden">
                          <span className="[overflow-wrap:anywhere]">By {line.actor.email}</span>
                          <span className="block">{formatWhen(line.at)}</span>
                        </span>
                      </TableCell>
                      <TableCell className="[overflow-wrap:anywhere]">{targetText(line)}</TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
            <LoadMore pages={lines} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}
