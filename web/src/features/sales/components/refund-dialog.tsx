import type { Sale } from '@contracts/sales.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { formatPounds } from '@/lib/format-money.ts';
import { useRefundSale } from '../api/sales-queries.ts';
import { salesMessages as m } from '../sales-messages.ts';

/**
 * 'Refund', confirmed: what happens is said before it does (the money leaves the creator's own Stripe account, the
 * buyer's access ends, their progress stays). The row turns 'Refunded' on the server's answer; a refusal is toasted
 * with the server's reason.
 */
export function RefundDialog({ sale, onDone }: { sale: Sale | undefined; onDone: () => void }) {
  const refund = useRefundSale();
  const confirm = () => {
    if (!sale) return;
    refund.mutate(sale, {
      onSuccess: (refunded) => {
        toast.success(m.refund.done, { description: `${refunded.buyerEmail} gets ${formatPounds(refunded.amount)} back.` });
        onDone();
      },
      onError: (error) => {
        toastError(error, m.refund.failed);
        onDone();
      },
    });
  };
  return (
    <ConfirmDialog
      open={sale !== undefined}
      onOpenChange={(open) => !open && onDone()}
      title={m.refund.title}
      action={m.refund.action}
      busy={refund.isPending}
      onConfirm={confirm}
    >
      {!sale
        ? ''
        : sale.bundleId
          ? `${sale.buyerEmail} gets ${formatPounds(sale.amount)} back from your Stripe account and loses access to the courses of the bundle ${sale.courseTitle}, except any they hold by other means. Their progress is kept.`
          : `${sale.buyerEmail} gets ${formatPounds(sale.amount)} back from your Stripe account and loses access to ${sale.courseTitle}. Their progress is kept, should they buy the course again.`}
    </ConfirmDialog>
  );
}
