import type { ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';

/** What the deleting mutation offers (a feature's `useDelete...()`, keyed by the item's id or code). */
interface Removal {
  mutate: (key: string, options: { onSuccess: () => void; onError: (error: Error) => void }) => void;
  isPending: boolean;
}

/**
 * 'Delete', confirmed, for one item of a creator's list (a coupon, a bundle): the question (`title`, `children` say
 * what stops and what stays), then the toast `done` with its detail, or `failed` with the server's reason. Closes
 * (`onDone`) either way. Nothing is open while `item` is undefined.
 */
export function DeleteDialog<T>({
  item,
  onDone,
  remove,
  keyOf,
  nameOf,
  messages: m,
  doneDetail,
  children,
}: {
  item: T | undefined;
  onDone: () => void;
  remove: Removal;
  /** What `remove` is called with (its id or code). */
  keyOf: (item: T) => string;
  /** What the question calls it (its title or code). */
  nameOf: (item: T) => string;
  messages: { title: (name: string) => string; action: string; done: string; failed: string };
  /** The toast's detail once it is deleted. */
  doneDetail: (item: T) => string;
  children: (item: T) => ReactNode;
}) {
  const confirm = () => {
    if (item === undefined) return;
    remove.mutate(keyOf(item), {
      onSuccess: () => {
        toast.success(m.done, { description: doneDetail(item) });
        onDone();
      },
      onError: (error) => {
        toastError(error, m.failed);
        onDone();
      },
    });
  };
  return (
    <ConfirmDialog
      open={item !== undefined}
      onOpenChange={(open) => !open && onDone()}
      title={item !== undefined ? m.title(nameOf(item)) : ''}
      action={m.action}
      busy={remove.isPending}
      onConfirm={confirm}
    >
      {item !== undefined ? children(item) : ''}
    </ConfirmDialog>
  );
}
