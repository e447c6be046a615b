import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { toastError } from '@/components/ui/toaster.tsx';
import { useDownloadReport } from '../api/leader-queries.ts';
import { leaderMessages } from '../leader-messages.ts';
import type { ReportFilters } from '../report-filters.ts';

const m = leaderMessages.reports;

/** Hands the browser a file to save: the Blob behind a temporary link that is clicked, then let go. */
function save(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoked a moment later: some browsers read the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/**
 * 'Download CSV': every row the filters match (not only the pages on screen), fetched with the session's token (a
 * plain link could not send it), then saved as team-report.csv. A failure is toasted with the server's reason.
 */
export function DownloadReportButton({ filters, disabled = false }: { filters: ReportFilters; disabled?: boolean }) {
  const download = useDownloadReport();
  const start = () =>
    download.mutate(filters, {
      onSuccess: (file) => save(file, m.fileName),
      onError: (error) => toastError(error, m.downloadFailed),
    });
  return (
    <Button variant="outline" loading={download.isPending} disabled={disabled} onClick={start}>
      {!download.isPending && <Download aria-hidden="true" />}
      {download.isPending ? m.downloading : m.download}
    </Button>
  );
}
