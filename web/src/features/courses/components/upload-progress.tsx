import { AlertCircle, RotateCw, X } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { progressText } from '@/lib/multipart-upload.ts';
import type { UploadEntry } from './lesson-uploads.tsx';

/**
 * One running upload: the file's name, a determinate bar (role progressbar, aria-valuenow, the same words as the text
 * for screen readers), '42% · 840 MB of 2 GB' and Cancel; a failure says why with 'Try again' (the parts already
 * sent are kept) or 'Discard'.
 */
export function UploadProgress({ entry, onCancel, onRetry, onDismiss }: { entry: UploadEntry; onCancel: () => void; onRetry: () => void; onDismiss: () => void }) {
  // Every byte sent is not yet every part stored: the last answers (and the completion) are still to come.
  const finishing = entry.state === 'uploading' && entry.progress.percent === 100 ? ' · finishing…' : '';
  const text = entry.state === 'starting' ? 'Starting…' : `${progressText(entry.progress)}${finishing}`;
  return (
    <div className="grid gap-2 rounded-md border bg-subtle p-3" data-testid="upload-progress">
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 flex-1 basis-32 truncate text-sm font-medium" title={entry.name}>
          {entry.name}
        </span>
        {entry.state === 'failed' ? (
          <span className="flex gap-2">
            <Button size="sm" variant="outline" onClick={onRetry}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
            <Button size="sm" variant="ghost" onClick={entry.fileId ? onCancel : onDismiss}>
              Discard
            </Button>
          </span>
        ) : (
          <Button size="sm" variant="outline" onClick={onCancel} aria-label={`Cancel the upload of ${entry.name}`}>
            <X aria-hidden="true" />
            Cancel
          </Button>
        )}
      </div>
      <Progress value={entry.progress.percent} aria-label={`Uploading ${entry.name}`} getValueLabel={() => text} />
      {entry.state === 'failed' ? (
        <p role="alert" className="flex items-start gap-1.5 text-sm font-medium text-destructive">
          <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {entry.error}
        </p>
      ) : (
        <p className="text-xs text-muted-foreground tabular-nums">{text}</p>
      )}
    </div>
  );
}
