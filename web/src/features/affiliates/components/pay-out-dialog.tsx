import type { Affiliate } from '@contracts/affiliates.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { formatPounds } from '@/lib/format-money.ts';
import { affiliatesMessages as m } from '../affiliates-messages.ts';
import { usePayOut } from '../api/affiliates-queries.ts';
import { saveFile } from '@/lib/save-file.ts';

/** Today in the viewer's zone, as a file name wants it: '2026-11-25'. */
export const fileDay = (now: Date = new Date()): string =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/** 'affiliate-payout-AB12CD34-2026-11-25.csv'. */
export const payoutFileName = (code: string, now: Date = new Date()): string => `affiliate-payout-${code}-${fileDay(now)}.csv`;

/**
 * 'Pay out £X', confirmed: the affiliate's approved commissions are marked paid and the CSV to pay them from is
 * downloaded (the platform records the payout; the creator sends the money). A refusal is toasted with its reason.
 */
export function PayOutDialog({ affiliate, onDone }: { affiliate: Affiliate | undefined; onDone: () => void }) {
  const payOut = usePayOut();
  const amount = affiliate ? formatPounds(affiliate.approved) : '';
  const confirm = () => {
    if (!affiliate) return;
    payOut.mutate(affiliate.id, {
      onSuccess: (result) => {
        if (result.commissions === 0) {
          toast(m.payout.nothing, { description: `${affiliate.name} has no approved commissions left to pay.` });
        } else {
          saveFile(new Blob([result.csv], { type: 'text/csv;charset=utf-8' }), payoutFileName(affiliate.code));
          const count = result.commissions === 1 ? '1 commission' : `${result.commissions} commissions`;
          toast.success(m.payout.done, { description: `${formatPounds(result.paidAmount)} to ${affiliate.name}: ${count} marked paid. The CSV is in your downloads.` });
        }
        onDone();
      },
      onError: (error) => {
        toastError(error, m.payout.failed);
        onDone();
      },
    });
  };
  return (
    <ConfirmDialog
      open={affiliate !== undefined}
      onOpenChange={(open) => !open && onDone()}
      title={affiliate ? m.payout.title(amount, affiliate.name) : ''}
      action={m.payout.action}
      destructive={false}
      busy={payOut.isPending}
      onConfirm={confirm}
    >
      {affiliate
        ? `This marks ${affiliate.name}'s approved commissions (${amount}) as paid and downloads a CSV to pay them from. Send the money yourself, by bank transfer or however you agreed with them.`
        : ''}
    </ConfirmDialog>
  );
}
