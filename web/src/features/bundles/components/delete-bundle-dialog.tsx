import type { Bundle } from '@contracts/bundles.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { useDeleteBundle } from '../api/bundles-queries.ts';
import { bundlesMessages as m } from '../bundles-messages.ts';

/**
 * 'Delete', confirmed: the page and its checkout are gone at once; buyers keep their courses (their orders name the
 * bundle). Taking it off sale is offered as the gentler way. A refusal is toasted with the server's reason.
 */
export function DeleteBundleDialog({ bundle, onDone }: { bundle: Bundle | undefined; onDone: () => void }) {
  const remove = useDeleteBundle();
  const confirm = () => {
    if (!bundle) return;
    remove.mutate(bundle.id, {
      onSuccess: () => {
        toast.success(m.remove.done, { description: `${bundle.title} is no longer for sale.` });
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
      open={bundle !== undefined}
      onOpenChange={(open) => !open && onDone()}
      title={bundle ? m.remove.title(bundle.title) : ''}
      action={m.remove.action}
      busy={remove.isPending}
      onConfirm={confirm}
    >
      {bundle ? 'Its page and checkout stop working. Buyers keep their courses. To pause it instead, switch it off.' : ''}
    </ConfirmDialog>
  );
}
