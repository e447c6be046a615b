import { Download } from 'lucide-react';
import { exportKinds, type ExportKind } from '@contracts/reports.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { saveLink } from '@/lib/save-file.ts';
import { useExport } from '../api/reports-queries.ts';
import { reportsMessages as m } from '../reports-messages.ts';

/** One export: asked for with the session's token; the server writes every row and answers the file's link, saved then. */
function ExportButton({ kind }: { kind: ExportKind }) {
  const run = useExport();
  const label = m.exportLabels[kind];
  const start = () =>
    run.mutate(kind, {
      onSuccess: (file) => {
        saveLink(file.url, `${kind}.csv`);
        toast.success(m.exportDone, { description: m.exported(file.rows, label) });
      },
      onError: (error) => toastError(error, m.exportFailed),
    });
  return (
    <Button variant="outline" loading={run.isPending} onClick={start} aria-label={`${m.exports}: ${label} (CSV)`}>
      {!run.isPending && <Download aria-hidden="true" />}
      {run.isPending ? m.exporting : label}
    </Button>
  );
}

/** Sales, learners and certificates as CSV files (every row of the creator's, whatever the size). */
export function ExportButtons() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{m.exports}</CardTitle>
        <CardDescription>{m.exportsDescription}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        {exportKinds.map((kind) => (
          <ExportButton key={kind} kind={kind} />
        ))}
      </CardContent>
    </Card>
  );
}
