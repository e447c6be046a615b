import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Eye, EyeOff, FileText, Image, Link2, Paperclip, Trash2, Upload, Video } from 'lucide-react';
import { useRef, useState } from 'react';
import type { Lesson } from '@contracts/courses.ts';
import { ATTACHMENTS_PER_LESSON_MAX, type CourseFile, type FileKind } from '@contracts/files.ts';
import { Button } from '@/components/ui/button.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { formatBytes } from '@/lib/multipart-upload.ts';
import { ACCEPT, deleteFile, fileUrlQueryOptions } from '../api/course-files.ts';
import { courseKeys } from '../api/course-queries.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { useLessonUploads, type UploadEntry } from './lesson-uploads.tsx';
import { UploadProgress } from './upload-progress.tsx';

/** A file input behind a button: the button is what the keyboard and screen readers reach. */
function FilePicker({ kind, label, inputLabel, onPick }: { kind: FileKind; label: string; inputLabel: string; onPick: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => input.current?.click()}>
        <Upload aria-hidden="true" />
        {label}
      </Button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT[kind]}
        aria-label={inputLabel}
        tabIndex={-1}
        aria-hidden="true"
        className="sr-only"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onPick(file);
        }}
      />
    </>
  );
}

const iconOf = (file: Pick<CourseFile, 'kind' | 'contentType'>) => (file.kind === 'video' ? Video : file.contentType.startsWith('image/') ? Image : FileText);

function Running({ entry }: { entry: UploadEntry }) {
  const uploads = useLessonUploads();
  return <UploadProgress entry={entry} onCancel={() => uploads.cancel(entry.key)} onRetry={() => uploads.retry(entry.key)} onDismiss={() => uploads.dismiss(entry.key)} />;
}

/** An upload that stopped in an earlier visit (a reload, a closed tab): the same file picked again resumes it. */
function Interrupted({ file, onRefused }: { file: CourseFile; onRefused: (message: string | undefined) => void }) {
  const uploads = useLessonUploads();
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-md border border-dashed p-3" data-testid="upload-interrupted">
      <AlertTriangle aria-hidden="true" className="size-4 shrink-0 text-amber-600" />
      <span className="min-w-0 flex-1 basis-40 text-sm">
        <span className="block font-medium">Upload interrupted</span>
        <span className="block truncate text-muted-foreground">
          {file.name} · {formatBytes(file.size)} · pick the same file to resume
        </span>
      </span>
      <span className="flex gap-2">
        <FilePicker kind={file.kind} label="Resume" inputLabel={`Pick ${file.name} again to resume`} onPick={(picked) => onRefused(uploads.resume(file, picked))} />
        <Button size="sm" variant="ghost" onClick={() => uploads.discard(file.id)} aria-label={`Discard the upload of ${file.name}`}>
          Discard
        </Button>
      </span>
    </div>
  );
}

/** The uploaded video's player for its creator, through a short-lived signed URL. */
function VideoPreview({ courseId, file }: { courseId: string; file: CourseFile }) {
  const url = useQuery(fileUrlQueryOptions(courseId, file.id));
  if (url.isPending) return <p className="text-sm text-muted-foreground">Loading the preview...</p>;
  if (url.isError) return <p role="alert" className="text-sm text-destructive">The preview could not be loaded. Try again.</p>;
  return (
    <div className="aspect-video w-full overflow-hidden rounded-lg border bg-black">
      <video controls preload="metadata" src={url.data.url} className="size-full" aria-label={`Preview: ${file.name}`}>
        <track kind="captions" />
      </video>
    </div>
  );
}

function Refusal({ message }: { message: string | undefined }) {
  return message ? (
    <p role="alert" className="text-sm font-medium text-destructive">
      {message}
    </p>
  ) : null;
}

/**
 * A lesson's files in the course editor: a video lesson's video (its link, or the uploaded file with a preview, or an
 * upload in progress) and every lesson's attachments (PDF and images up to 50 MB: name, size, remove after a
 * confirmation, 'Add attachment'). Uploads of this visit show their progress; those of an earlier one offer Resume.
 */
export function LessonFiles({ courseId, lesson }: { courseId: string; lesson: Lesson }) {
  const uploads = useLessonUploads();
  const queryClient = useQueryClient();
  const [refused, setRefused] = useState<{ video?: string | undefined; attachment?: string | undefined }>({});
  const [previewing, setPreviewing] = useState(false);
  const [removing, setRemoving] = useState<CourseFile | undefined>();
  const remove = useMutation({
    mutationFn: (file: CourseFile) => deleteFile(courseId, file.id),
    onSuccess: (_answer, file) => {
      void queryClient.invalidateQueries({ queryKey: courseKeys.detail(courseId) });
      toast.success('Attachment removed', { description: file.name });
      setRemoving(undefined);
    },
    onError: (error) => toastError(error, 'The attachment could not be removed.'),
  });

  const mine = uploads.entries.filter((e) => e.lessonId === lesson.id);
  const running = new Set(mine.flatMap((e) => (e.fileId ? [e.fileId] : [])));
  const interrupted = lesson.files.filter((f) => f.status === 'uploading' && !running.has(f.id));
  const video = lesson.files.find((f) => f.kind === 'video' && f.status === 'ready');
  const attachments = lesson.files.filter((f) => f.kind === 'attachment' && f.status === 'ready');
  const videoUploads = mine.filter((e) => e.kind === 'video');
  const attachmentUploads = mine.filter((e) => e.kind === 'attachment');
  const attachmentCount = attachments.length + attachmentUploads.length + interrupted.filter((f) => f.kind === 'attachment').length;
  const pick = (kind: FileKind) => (file: File) => {
    // Outside the state updater: React may run an updater twice (StrictMode), an upload must start once.
    const refusal = uploads.upload(lesson.id, kind, file);
    setRefused((was) => ({ ...was, [kind]: refusal }));
  };

  return (
    <div className="grid min-w-0 basis-full grid-cols-[minmax(0,1fr)] gap-3 border-t pt-3" data-testid="lesson-files">
      {lesson.kind === 'video' && (
        <section aria-label={`Video of ${lesson.title}`} className="grid grid-cols-[minmax(0,1fr)] gap-2">
          {videoUploads.map((entry) => (
            <Running key={entry.key} entry={entry} />
          ))}
          {interrupted
            .filter((f) => f.kind === 'video')
            .map((file) => (
              <Interrupted key={file.id} file={file} onRefused={(message) => setRefused((was) => ({ ...was, video: message }))} />
            ))}
          {videoUploads.length === 0 && (
            <div className="flex flex-wrap items-center gap-2 text-sm">
              {video ? (
                <>
                  <Video aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                  <span className="min-w-0 flex-1 basis-40 truncate" data-testid="lesson-video-file">
                    {video.name} · {formatBytes(video.size)}
                  </span>
                  <Button size="sm" variant="ghost" aria-expanded={previewing} onClick={() => setPreviewing((open) => !open)}>
                    {previewing ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
                    {previewing ? 'Hide preview' : 'Preview'}
                  </Button>
                </>
              ) : lesson.videoUrl ? (
                <>
                  <Link2 aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                  <span className="min-w-0 flex-1 basis-40 truncate text-muted-foreground">{lesson.videoUrl}</span>
                </>
              ) : (
                <span className="min-w-0 flex-1 basis-40 text-muted-foreground">No video yet: add a link or upload one.</span>
              )}
              <FilePicker
                kind="video"
                label={video || lesson.videoUrl ? 'Replace video' : 'Upload a video'}
                inputLabel={`Video file for ${lesson.title}`}
                onPick={pick('video')}
              />
            </div>
          )}
          <Refusal message={refused.video} />
          {video && previewing && videoUploads.length === 0 && <VideoPreview courseId={courseId} file={video} />}
        </section>
      )}

      <section aria-label={`Attachments of ${lesson.title}`} className="grid grid-cols-[minmax(0,1fr)] gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="flex flex-1 items-center gap-1.5 text-sm font-medium">
            <Paperclip aria-hidden="true" className="size-4 text-muted-foreground" />
            Attachments
          </h3>
          {attachmentCount < ATTACHMENTS_PER_LESSON_MAX && (
            <FilePicker kind="attachment" label="Add attachment" inputLabel={`Attachment file for ${lesson.title}`} onPick={pick('attachment')} />
          )}
        </div>
        {attachments.length > 0 && (
          <ul className="grid gap-1">
            {attachments.map((file) => {
              const Icon = iconOf(file);
              return (
                <li key={file.id} className="flex items-center gap-2 rounded-md px-2 py-1 text-sm hover:bg-accent/50">
                  <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                  <span className="min-w-0 flex-1 truncate" title={file.name}>
                    {file.name}
                  </span>
                  <span className="shrink-0 text-xs text-muted-foreground tabular-nums">{formatBytes(file.size)}</span>
                  <Button
                    size="icon"
                    variant="ghost"
                    className="size-8 text-destructive hover:text-destructive"
                    aria-label={`Remove ${file.name}`}
                    onClick={() => setRemoving(file)}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        {attachmentUploads.map((entry) => (
          <Running key={entry.key} entry={entry} />
        ))}
        {interrupted
          .filter((f) => f.kind === 'attachment')
          .map((file) => (
            <Interrupted key={file.id} file={file} onRefused={(message) => setRefused((was) => ({ ...was, attachment: message }))} />
          ))}
        {attachments.length === 0 && attachmentUploads.length === 0 && (
          <p className="text-xs text-muted-foreground">PDFs and images (PNG, JPEG, GIF, WebP) up to 50 MB.</p>
        )}
        <Refusal message={refused.attachment} />
      </section>

      <ConfirmDialog
        open={removing !== undefined}
        onOpenChange={(open) => !open && setRemoving(undefined)}
        title={`Remove “${removing?.name ?? ''}”?`}
        action="Remove attachment"
        busy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
      >
        Learners will no longer be able to download it. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
}
