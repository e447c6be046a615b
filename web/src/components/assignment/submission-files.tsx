import { Download, Paperclip } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { toast } from '@/components/ui/toaster.tsx';

/**
 * The files handed in with a submission, each with 'Download'. `urlOf` asks the server for a short-lived signed URL
 * when the button is pressed (never kept: it expires), which answers as an attachment, so nothing a learner uploaded
 * is ever shown inline; `open` goes to it (a test watches it: jsdom has no navigation). Nothing shows without files.
 */
export function SubmissionFiles({
  files,
  urlOf,
  open,
}: {
  files: { id: string; name: string }[];
  urlOf: (fileId: string) => Promise<{ url: string }>;
  open: (url: string) => void;
}) {
  const [busy, setBusy] = useState<string | undefined>();
  if (files.length === 0) return null;
  const download = async (file: { id: string; name: string }) => {
    setBusy(file.id);
    try {
      open((await urlOf(file.id)).url);
    } catch {
      toast.error('Error', { description: `${file.name} could not be downloaded. Try again.` });
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section aria-label="Files handed in" className="grid gap-2">
      <h4 className="flex items-center gap-1.5 text-sm font-semibold">
        <Paperclip aria-hidden="true" className="size-4 text-muted-foreground" />
        Files
      </h4>
      <ul className="grid gap-2">
        {files.map((file) => (
          <li key={file.id} className="flex items-center gap-3 rounded-lg border p-3">
            <span className="min-w-0 flex-1 truncate text-sm font-medium" title={file.name}>
              {file.name}
            </span>
            <Button size="sm" variant="outline" loading={busy === file.id} aria-label={`Download ${file.name}`} onClick={() => void download(file)}>
              {busy !== file.id && <Download aria-hidden="true" />}
              Download
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
