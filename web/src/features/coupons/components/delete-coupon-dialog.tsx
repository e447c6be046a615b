import type { Coupon } from '@contracts/coupons.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { useDeleteCoupon } from '../api/coupons-queries.ts';
import { couponsMessages as m } from '../coupons-messages.ts';

/**
 * 'Delete', confirmed: the code stops working at once; sales that used it keep their discount. Switching it off is
 * offered as the gentler way. A refusal is toasted with the server's reason.
 */
export function DeleteCouponDialog({ coupon, onDone }: { coupon: Coupon | undefined; onDone: () => void }) {
  const remove = useDeleteCoupon();
  const confirm = () => {
    if (!coupon) return;
    remove.mutate(coupon.code, {
      onSuccess: () => {
        toast.success(m.remove.done, { description: `${coupon.code} no longer works at checkout.` });
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
      open={coupon !== undefined}
      onOpenChange={(open) => !open && onDone()}
      title={coupon ? m.remove.title(coupon.code) : ''}
      action={m.remove.action}
      busy={remove.isPending}
      onConfirm={confirm}
    >
      {coupon
        ? `Buyers can no longer use ${coupon.code}. Sales that used it keep their discount. To pause it instead, switch it off.`
        : ''}
    </ConfirmDialog>
  );
}
