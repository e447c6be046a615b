import type { Coupon } from '@contracts/coupons.ts';
import { DeleteDialog } from '@/components/delete-dialog.tsx';
import { useDeleteCoupon } from '../api/coupons-queries.ts';
import { couponsMessages as m } from '../coupons-messages.ts';

/**
 * 'Delete', confirmed: the code stops working at once; sales that used it keep their discount. Switching it off is
 * offered as the gentler way. A refusal is toasted with the server's reason.
 */
export function DeleteCouponDialog({ coupon, onDone }: { coupon: Coupon | undefined; onDone: () => void }) {
  return (
    <DeleteDialog
      item={coupon}
      onDone={onDone}
      remove={useDeleteCoupon()}
      keyOf={(c) => c.code}
      nameOf={(c) => c.code}
      messages={m.remove}
      doneDetail={(c) => `${c.code} no longer works at checkout.`}
    >
      {(c) => `Buyers can no longer use ${c.code}. Sales that used it keep their discount. To pause it instead, switch it off.`}
    </DeleteDialog>
  );
}
