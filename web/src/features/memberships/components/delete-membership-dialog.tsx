import type { Membership } from '@contracts/memberships.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { useDeleteMembership } from '../api/memberships-queries.ts';
import { membershipsMessages as m } from '../memberships-messages.ts';

/**
 * 'Delete', confirmed: the page and its checkout are gone at once; members keep access until Stripe ends their
 * subscriptions (they cancel in the billing portal). Taking it off sale is offered as the gentler way.
 */
export function DeleteMembershipDialog({ membership, onDone }: { membership: Membership | undefined; onDone: () => void }) {
  const remove = useDeleteMembership();
  const confirm = () => {
    if (!membership) return;
    remove.mutate(membership.id, {
      onSuccess: () => {
        toast.success(m.remove.done, { description: `${membership.title} takes no new members.` });
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
      open={membership !== undefined}
      onOpenChange={(open) => !open && onDone()}
      title={membership ? m.remove.title(membership.title) : ''}
      action={m.remove.action}
      busy={remove.isPending}
      onConfirm={confirm}
    >
      {membership
        ? 'Its page and checkout stop working. Members keep their courses until their subscriptions end; they cancel in Stripe as before. To pause it instead, switch it off.'
        : ''}
    </ConfirmDialog>
  );
}
