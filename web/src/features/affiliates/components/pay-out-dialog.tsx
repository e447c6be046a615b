import type { Affiliate } from '@contracts/affiliates.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/error-message.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { affiliatesMessages as m } from '../affiliates-messages.ts';
import { useDownloadPayout, usePayOut } from '../api/affiliates-queries.ts';
import { saveLink } from '@/lib/save-file.ts';

/** Today in the viewer's zone, as a file name wants it: '2026-11-25'. */
export const fileDay = (now: Date = new Date()): string =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/** 'affiliate-payout-AB12CD34-2026-11-25.csv'. */
export const payoutFileName = (code: string, now: Date = new Date()): string => `affiliate-payout-${code}-${fileDay(now)}.csv`;

/**
 * 'Pay out £X', confirmed: the affiliate's approved commissions are marked paid, then the payout's CSV (one row per
 * commission, written by the server a page at a time) is downloaded through its link; the action stays busy through
 * both. A refused payout is toasted with its reason; a recorded payout whose file could not be fetched says so, with
 * 'Try again' (the payout is not made twice: only the file is asked for again).
 */
export function PayOutDialog({ affiliate, onDone }: { affiliate: Affiliate | undefined; onDone: () => void }) {
  const payOut = usePayOut();
  const download = useDownloadPayout();
  const amount = affiliate ? formatPounds(affiliate.approved) : '';

  const fetchFile = (paid: Affiliate, payoutId: string, recorded: string) =>
    download.mutate(
      { affiliateId: paid.id, payoutId },
      {
        onSuccess: (file) => {
          saveLink(file.url, payoutFileName(paid.code));
          toast.success(m.payout.done, { description: `${recorded} The CSV is in your downloads.` });
          onDone();
        },
        onError: (error) => {
          toast.error(m.payout.downloadFailed, {
            description: `${recorded} ${errorMessage(error, m.payout.downloadFallback)}`,
            action: { label: m.payout.retry, onClick: () => fetchFile(paid, payoutId, recorded) },
          });
          onDone();
        },
      },
    );

  const confirm = () => {
    if (!affiliate) return;
    const paid = affiliate;
    payOut.mutate(paid.id, {
      onSuccess: (result) => {
        if (result.commissions === 0 || !result.payoutId) {
          toast(m.payout.nothing, { description: `${paid.name} has no approved commissions left to pay.` });
          onDone();
          return;
        }
        const count = result.commissions === 1 ? '1 commission' : `${result.commissions} commissions`;
        fetchFile(paid, result.payoutId, `${formatPounds(result.paidAmount)} to ${paid.name}: ${count} marked paid.`);
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
      busy={payOut.isPending || download.isPending}
      onConfirm={confirm}
    >
      {affiliate
        ? `This marks ${affiliate.name}'s approved commissions (${amount}) as paid and downloads a CSV to pay them from. Send the money yourself, by bank transfer or however you agreed with them.`
        : ''}
    </ConfirmDialog>
  );
}
