import type { Bundle } from '@contracts/bundles.ts';
import { DeleteDialog } from '@/components/delete-dialog.tsx';
import { useDeleteBundle } from '../api/bundles-queries.ts';
import { bundlesMessages as m } from '../bundles-messages.ts';

/**
 * 'Delete', confirmed: the page and its checkout are gone at once; buyers keep their courses (their orders name the
 * bundle). Taking it off sale is offered as the gentler way. A refusal is toasted with the server's reason.
 */
export function DeleteBundleDialog({ bundle, onDone }: { bundle: Bundle | undefined; onDone: () => void }) {
  return (
    <DeleteDialog
      item={bundle}
      onDone={onDone}
      remove={useDeleteBundle()}
      keyOf={(b) => b.id}
      nameOf={(b) => b.title}
      messages={m.remove}
      doneDetail={(b) => `${b.title} is no longer for sale.`}
    >
      {() => 'Its page and checkout stop working. Buyers keep their courses. To pause it instead, switch it off.'}
    </DeleteDialog>
  );
}
