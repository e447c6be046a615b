import type { License, Member } from '@contracts/licenses.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { useRemoveMember } from '../api/leader-queries.ts';
import { leaderMessages as m } from '../leader-messages.ts';

/**
 * 'Remove', confirmed: the member loses access to the course (their progress is kept, should they come back) and
 * the seat is free for someone else. A refusal is toasted with the server's reason.
 */
export function RemoveMemberDialog({ license, member, onDone }: { license: License; member: Member | undefined; onDone: () => void }) {
  const remove = useRemoveMember(license.id);
  const confirm = () => {
    if (!member) return;
    remove.mutate(member.email, {
      onSuccess: () => {
        toast.success(m.remove.done, { description: `${member.email} no longer has ${license.courseTitle}. Their seat is free.` });
        onDone();
      },
      onError: (error) => {
        toastError(error, m.remove.failed);
        onDone();
      },
    });
  };
  return (
    <ConfirmDialog
      open={member !== undefined}
      onOpenChange={(open) => !open && onDone()}
      title={member ? m.remove.title(member.email, license.courseTitle) : ''}
      action={m.remove.action}
      busy={remove.isPending}
      onConfirm={confirm}
    >
      {member ? m.remove.body(member.email) : ''}
    </ConfirmDialog>
  );
}
