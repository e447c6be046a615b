import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { toastError } from '@/components/ui/toaster.tsx';
import { useDownloadReport } from '../api/leader-queries.ts';
import { leaderMessages } from '../leader-messages.ts';
import type { ReportFilters } from '../report-filters.ts';
import { saveLink } from '@/lib/save-file.ts';

const m = leaderMessages.reports;

/**
 * 'Download CSV': every row the filters match (not only the pages on screen), asked for with the session's token (a
 * plain link could not send it); the server writes the file a page at a time and answers its link, which the browser
 * then saves as team-report.csv. A failure is toasted with the server's reason.
 */
export function DownloadReportButton({ filters, disabled = false }: { filters: ReportFilters; disabled?: boolean }) {
  const download = useDownloadReport();
  const start = () =>
    download.mutate(filters, {
      onSuccess: (file) => saveLink(file.url, m.fileName),
      onError: (error) => toastError(error, m.downloadFailed),
    });
  return (
    <Button variant="outline" loading={download.isPending} disabled={disabled} onClick={start}>
      {!download.isPending && <Download aria-hidden="true" />}
      {download.isPending ? m.downloading : m.download}
    </Button>
  );
}
