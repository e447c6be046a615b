import { UserMinus, UserPlus } from 'lucide-react';
import type { License, Member } from '@contracts/licenses.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { formatDay } from '@/lib/format-date.ts';
import { cn } from '@/lib/utils.ts';
import { useAssignSeat } from '../api/leader-queries.ts';
import { leaderMessages as m } from '../leader-messages.ts';

/*
 * Below 1280 px the table folds into cards, as the licences' table does: the email across the top, then status,
 * progress, last activity and completion (two by two on phones, in a row above 640 px) under their column's names (the cell's data-label, shown by
 * CSS; the header row stays for screen readers), and the button across the card's width.
 */
const folded = {
  table: 'max-xl:block',
  header: 'max-xl:sr-only',
  body: 'max-xl:grid max-xl:gap-3',
  row: 'max-xl:grid max-xl:grid-cols-2 sm:max-xl:grid-cols-4 max-xl:gap-x-4 max-xl:gap-y-3 max-xl:rounded-lg max-xl:border! max-xl:bg-card max-xl:p-4 max-xl:hover:bg-card',
  cell: 'max-xl:block max-xl:min-w-0 max-xl:p-0 max-xl:before:mb-0.5 max-xl:before:block max-xl:before:text-xs max-xl:before:text-muted-foreground max-xl:before:content-[attr(data-label)]',
  unlabelled: 'max-xl:before:hidden',
};

/**
 * The group's members: email, status (Active / Removed), progress in the course, last activity, completion, and
 * 'Remove' (an active member) or 'Add again' (a removed one) while the licence gives access (`actions`).
 */
export function MembersTable({
  license,
  members,
  actions,
  onRemove,
}: {
  license: License;
  members: Member[];
  actions: boolean;
  onRemove: (member: Member) => void;
}) {
  return (
    <Table label={m.members.title} className={folded.table}>
      <TableHeader className={folded.header}>
        <TableRow>
          <TableHead>Member</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Progress</TableHead>
          <TableHead>Last activity</TableHead>
          <TableHead>Completed</TableHead>
          {actions && (
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          )}
        </TableRow>
      </TableHeader>
      <TableBody className={folded.body}>
        {members.map((member) => (
          <MemberRow key={member.email} license={license} member={member} actions={actions} onRemove={() => onRemove(member)} />
        ))}
      </TableBody>
    </Table>
  );
}

function MemberRow({ license, member, actions, onRemove }: { license: License; member: Member; actions: boolean; onRemove: () => void }) {
  const active = member.status === 'active';
  return (
    <TableRow className={folded.row}>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'min-w-48 max-xl:col-span-2 sm:max-xl:col-span-4')}>
        <span className="font-medium [overflow-wrap:anywhere] max-xl:text-base">{member.email}</span>
      </TableCell>
      <TableCell data-label="Status" className={folded.cell}>
        {active ? (
          <Badge className="border-transparent bg-emerald-100 text-emerald-900">Active</Badge>
        ) : (
          <Badge className="border-transparent bg-muted text-muted-foreground">Removed</Badge>
        )}
      </TableCell>
      <TableCell data-label="Progress" className={folded.cell}>
        <div className="flex items-center gap-2">
          <Progress value={member.progress} aria-label={`${member.email}: ${member.progress}% complete`} className="w-24 max-xl:min-w-0 max-xl:flex-1" />
          <span className="w-10 shrink-0 text-right text-xs tabular-nums text-muted-foreground">{member.progress}%</span>
        </div>
      </TableCell>
      <TableCell data-label="Last activity" className={cn(folded.cell, 'whitespace-nowrap')}>
        {member.lastActivity === null ? <span className="text-muted-foreground">{m.members.noActivity}</span> : formatDay(member.lastActivity)}
      </TableCell>
      <TableCell data-label="Completed" className={cn(folded.cell, 'whitespace-nowrap')}>
        {member.completedAt === null ? <span className="text-muted-foreground">{m.members.notCompleted}</span> : formatDay(member.completedAt)}
      </TableCell>
      {actions && (
        <TableCell className={cn(folded.cell, folded.unlabelled, 'text-right max-xl:col-span-2 sm:max-xl:col-span-4')}>
          {active ? (
            <Button variant="outline" size="sm" className="max-xl:h-10 max-sm:w-full" aria-label={`Remove ${member.email}`} onClick={onRemove}>
              <UserMinus aria-hidden="true" />
              Remove
            </Button>
          ) : (
            <AddAgain license={license} email={member.email} />
          )}
        </TableCell>
      )}
    </TableRow>
  );
}

/** 'Add again': a removed member gets a seat again (and their progress back); a refusal, such as no seat left, is toasted. */
function AddAgain({ license, email }: { license: License; email: string }) {
  const assign = useAssignSeat(license.id);
  const addAgain = () =>
    assign.mutate(email, {
      onSuccess: () => toast.success(m.again.done, { description: `${email} has ${license.courseTitle} again, with their progress.` }),
      onError: (error) => toastError(error, m.again.failed),
    });
  return (
    <Button variant="outline" size="sm" className="max-xl:h-10 max-sm:w-full" aria-label={`Add ${email} again`} loading={assign.isPending} onClick={addAgain}>
      {!assign.isPending && <UserPlus aria-hidden="true" />}
      Add again
    </Button>
  );
}
