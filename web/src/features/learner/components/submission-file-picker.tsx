import { FileUp, Paperclip, RotateCw, X } from 'lucide-react';
import { useCallback, useId, useRef, useState, type ChangeEvent } from 'react';
import { startSubmissionFileBody, SUBMISSION_FILE_TYPES, SUBMISSION_FILES_MAX } from '@contracts/submissions.ts';
import { Button } from '@/components/ui/button.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { putToBucket } from '@/lib/bucket-upload.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { formatBytes } from '@/lib/multipart-upload.ts';
import { startSubmissionFile } from '../api/learning-queries.ts';

/** A file the learner picked for their answer: uploading, uploaded (its id goes in `fileIds`), or refused with why. */
export interface PickedFile {
  key: string;
  name: string;
  size: number;
  state: 'uploading' | 'uploaded' | 'failed';
  id?: string;
  error?: string;
  /** A failed upload can be tried again; a file the contract refuses (its type, its size) cannot. */
  retryable?: boolean;
}

/**
 * The files of one answer (issue 35 point 2): each picked file is checked with the contract (a PDF or an image, up to
 * 50 MB; ten at most), then uploaded at once: the API signs a PUT for its exact type and size, and the browser sends it
 * straight to the files bucket. The answer names the uploaded ones; a failed one can be tried again or removed.
 */
export function useSubmissionFiles(courseId: string, lessonId: string) {
  const [files, setFiles] = useState<PickedFile[]>([]);
  const sources = useRef(new Map<string, File>());
  const patch = (key: string, change: Partial<PickedFile>) => setFiles((all) => all.map((f) => (f.key === key ? { ...f, ...change } : f)));

  const upload = useCallback(
    async (key: string, file: File) => {
      patch(key, { state: 'uploading', error: undefined });
      const body = startSubmissionFileBody.safeParse({ name: file.name, contentType: file.type, size: file.size });
      if (!body.success) {
        patch(key, { state: 'failed', retryable: false, error: body.error.issues[0]?.message ?? 'This file cannot be handed in.' });
        return;
      }
      try {
        const started = await startSubmissionFile(courseId, lessonId, body.data);
        await putToBucket({ uploadUrl: started.url, headers: { 'Content-Type': file.type } }, file, 'file');
        patch(key, { state: 'uploaded', id: started.file.id });
      } catch (error) {
        patch(key, { state: 'failed', retryable: true, error: errorMessage(error, 'The file could not be uploaded. Try again.') });
      }
    },
    [courseId, lessonId],
  );

  const add = (picked: readonly File[]) => {
    const room = SUBMISSION_FILES_MAX - files.length;
    const taken = picked.slice(0, Math.max(room, 0)).map((file) => ({ file, key: crypto.randomUUID() }));
    for (const { file, key } of taken) sources.current.set(key, file);
    setFiles((all) => [...all, ...taken.map(({ file, key }): PickedFile => ({ key, name: file.name, size: file.size, state: 'uploading' }))]);
    for (const { file, key } of taken) void upload(key, file);
    return picked.length - taken.length;
  };
  const retry = (key: string) => {
    const file = sources.current.get(key);
    if (file) void upload(key, file);
  };
  const remove = (key: string) => {
    sources.current.delete(key);
    setFiles((all) => all.filter((f) => f.key !== key));
  };
  return {
    files,
    add,
    retry,
    remove,
    uploading: files.some((f) => f.state === 'uploading'),
    uploadedIds: files.flatMap((f) => (f.state === 'uploaded' && f.id ? [f.id] : [])),
  };
}

/** 'Add files' and the picked files, each with its state and a way to take it out (or try a failed one again). */
export function SubmissionFilePicker({ uploads, disabled }: { uploads: ReturnType<typeof useSubmissionFiles>; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [tooMany, setTooMany] = useState(false);
  const full = uploads.files.length >= SUBMISSION_FILES_MAX;
  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    setTooMany(uploads.add([...(event.target.files ?? [])]) > 0);
    event.target.value = '';
  };
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" size="sm" disabled={disabled || full} aria-describedby={hintId} onClick={() => input.current?.click()}>
          <FileUp aria-hidden="true" />
          Add files
        </Button>
        <input ref={input} type="file" multiple accept={SUBMISSION_FILE_TYPES.join(',')} className="sr-only" tabIndex={-1} aria-label="Files to hand in" onChange={onPick} />
        <p id={hintId} className="text-xs text-muted-foreground">
          PDF or images (PNG, JPEG, GIF, WebP), up to 50 MB each, {SUBMISSION_FILES_MAX} at most.
        </p>
      </div>
      {tooMany && (
        <p role="alert" className="text-sm text-destructive">
          You can hand in {SUBMISSION_FILES_MAX} files at most: the others were left out.
        </p>
      )}
      {uploads.files.length > 0 && (
        <ul aria-label="Your files" className="grid gap-2">
          {uploads.files.map((file) => (
            <li key={file.key} className="flex min-w-0 items-center gap-3 rounded-md border px-3 py-2 text-sm" data-testid="picked-file">
              {file.state === 'uploading' ? <Spinner /> : <Paperclip aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />}
              <span className="grid min-w-0 flex-1">
                <span className="truncate font-medium">{file.name}</span>
                <span className={file.state === 'failed' ? 'text-destructive' : 'text-muted-foreground'}>
                  {file.state === 'uploading' ? `Uploading ${formatBytes(file.size)}...` : file.state === 'uploaded' ? `${formatBytes(file.size)}, uploaded` : file.error}
                </span>
              </span>
              {file.state === 'failed' && file.retryable && (
                <Button type="button" variant="ghost" size="icon" className="size-8" aria-label={`Try ${file.name} again`} onClick={() => uploads.retry(file.key)}>
                  <RotateCw aria-hidden="true" />
                </Button>
              )}
              <Button type="button" variant="ghost" size="icon" className="size-8" aria-label={`Remove ${file.name}`} disabled={file.state === 'uploading'} onClick={() => uploads.remove(file.key)}>
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
