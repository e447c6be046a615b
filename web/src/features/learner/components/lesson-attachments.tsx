import { Download, FileText, Image, Paperclip } from 'lucide-react';
import { useState } from 'react';
import type { CourseFile } from '@contracts/files.ts';
import { Button } from '@/components/ui/button.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { formatBytes } from '@/lib/multipart-upload.ts';
import { learnerFileUrl } from '../api/learning-queries.ts';
import { openDownload } from './open-download.ts';

/**
 * A lesson's attachments: name, size and 'Download', which asks for a fresh signed URL (it lives 15 minutes, so it is
 * never kept) and goes to it; the storage answers with `Content-Disposition: attachment`, so the page stays.
 */
export function LessonAttachments({ courseId, files }: { courseId: string; files: CourseFile[] }) {
  const [busy, setBusy] = useState<string | undefined>();
  const download = async (file: CourseFile) => {
    setBusy(file.id);
    try {
      const { url } = await learnerFileUrl(courseId, file.id);
      openDownload(url);
    } catch {
      toast.error('Error', { description: `${file.name} could not be downloaded. Try again.` });
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section aria-labelledby="attachments-title" className="grid gap-2">
      <h3 id="attachments-title" className="flex items-center gap-1.5 text-sm font-semibold">
        <Paperclip aria-hidden="true" className="size-4 text-muted-foreground" />
        Attachments
      </h3>
      <ul className="grid gap-2">
        {files.map((file) => {
          const Icon = file.contentType.startsWith('image/') ? Image : FileText;
          return (
            <li key={file.id} className="flex items-center gap-3 rounded-lg border p-3" data-testid="attachment">
              <Icon aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium" title={file.name}>
                  {file.name}
                </span>
                <span className="text-xs text-muted-foreground tabular-nums">{formatBytes(file.size)}</span>
              </span>
              <Button size="sm" variant="outline" loading={busy === file.id} aria-label={`Download ${file.name}`} onClick={() => void download(file)}>
                {busy !== file.id && <Download aria-hidden="true" />}
                Download
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
