import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { UPLOAD_PART_BYTES, type CourseFile, type FileKind } from '@contracts/files.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/error-message.ts';
import { formatBytes, startMultipartUpload, UploadCancelledError, type RunningUpload, type UploadProgress } from '@/lib/multipart-upload.ts';
import { courseKeys } from '../api/course-queries.ts';
import { checkFile, startUpload, uploadApiFor } from '../api/course-files.ts';

/** One upload of this editor session, shown in its lesson's row. */
export interface UploadEntry {
  /** The file's id once the server started the upload (a local key before). */
  key: string;
  fileId?: string;
  lessonId: string;
  kind: FileKind;
  name: string;
  progress: UploadProgress;
  state: 'starting' | 'uploading' | 'failed';
  error?: string;
}

interface Uploads {
  entries: UploadEntry[];
  /** Checks the file (type and size, the contract's messages) and starts it; answers the refusal, if any. */
  upload: (lessonId: string, kind: FileKind, file: File) => string | undefined;
  /** Continues an interrupted upload with the file picked again (same name and size, else the refusal). */
  resume: (stored: CourseFile, file: File) => string | undefined;
  /** A failed upload of this session again, with the file it had. */
  retry: (key: string) => void;
  cancel: (key: string) => void;
  dismiss: (key: string) => void;
  /** Deletes an interrupted upload of an earlier visit (aborts it on the storage). */
  discard: (fileId: string) => void;
}

const UploadsContext = createContext<Uploads | undefined>(undefined);

export function useLessonUploads(): Uploads {
  const found = useContext(UploadsContext);
  if (!found) throw new Error('useLessonUploads: no <LessonUploadsProvider> above');
  return found;
}

const doneText: Record<FileKind, string> = { video: 'Video uploaded', attachment: 'Attachment added' };

/**
 * The course editor's uploads: each one's progress, its Cancel and, when it fails, its retry with the same File
 * (uploads only the parts the storage lacks). They run on while the editor is open; leaving the page while one runs
 * asks first (the browser's own 'Leave site?').
 */
export function LessonUploadsProvider({ courseId, children }: { courseId: string; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [entries, setEntries] = useState<UploadEntry[]>([]);
  const running = useRef(new Map<string, { upload?: RunningUpload; file: File; stored?: Pick<CourseFile, 'id' | 'size'> }>());

  const patch = useCallback((key: string, change: Partial<UploadEntry> | undefined) => {
    setEntries((all) => (change ? all.map((e) => (e.key === key ? { ...e, ...change } : e)) : all.filter((e) => e.key !== key)));
  }, []);
  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: courseKeys.detail(courseId) }), [queryClient, courseId]);

  const run = useCallback(
    (key: string, kind: FileKind, file: File, stored: Pick<CourseFile, 'id' | 'size'>, resume: boolean) => {
      const upload = startMultipartUpload({
        file,
        courseFile: stored,
        partSize: UPLOAD_PART_BYTES,
        api: uploadApiFor(courseId, stored.id),
        resume,
        onProgress: (progress) => patch(key, { progress }),
      });
      running.current.set(key, { upload, file, stored });
      patch(key, { state: 'uploading', fileId: stored.id });
      upload.done.then(
        () => {
          running.current.delete(key);
          patch(key, undefined);
          refresh();
          toast.success(doneText[kind], { description: `${file.name} (${formatBytes(file.size)})` });
        },
        (error: unknown) => {
          if (error instanceof UploadCancelledError) return;
          patch(key, { state: 'failed', error: `The upload stopped: ${errorMessage(error)}` });
        },
      );
    },
    [courseId, patch, refresh],
  );

  const upload = useCallback(
    (lessonId: string, kind: FileKind, file: File) => {
      const checked = checkFile(kind, file);
      if ('error' in checked) return checked.error;
      const key = `local-${crypto.randomUUID()}`;
      running.current.set(key, { file });
      setEntries((all) => [...all, { key, lessonId, kind, name: file.name, state: 'starting', progress: { loaded: 0, total: file.size, percent: 0 } }]);
      startUpload(courseId, lessonId, checked.body).then(
        (started) => {
          // Cancelled while the server was starting it: nothing was sent, the started file goes.
          if (!running.current.has(key)) return void uploadApiFor(courseId, started.file.id).remove().then(refresh, refresh);
          refresh();
          run(key, kind, file, started.file, false);
        },
        (error: unknown) => patch(key, { state: 'failed', error: errorMessage(error) }),
      );
      return undefined;
    },
    [courseId, patch, refresh, run],
  );

  const resume = useCallback(
    (stored: CourseFile, file: File) => {
      if (file.name !== stored.name || file.size !== stored.size) {
        return `Pick the same file to resume: ${stored.name} (${formatBytes(stored.size)}).`;
      }
      const key = stored.id;
      setEntries((all) => [
        ...all.filter((e) => e.key !== key),
        { key, fileId: stored.id, lessonId: stored.lessonId, kind: stored.kind, name: stored.name, state: 'uploading', progress: { loaded: 0, total: stored.size, percent: 0 } },
      ]);
      run(key, stored.kind, file, stored, true);
      return undefined;
    },
    [run],
  );

  const retry = useCallback(
    (key: string) => {
      const found = running.current.get(key);
      const entry = entries.find((e) => e.key === key);
      if (!found || !entry) return;
      patch(key, { error: undefined });
      if (found.stored) run(key, entry.kind, found.file, found.stored, true);
      else {
        patch(key, undefined);
        upload(entry.lessonId, entry.kind, found.file);
      }
    },
    [entries, patch, run, upload],
  );

  const cancel = useCallback(
    (key: string) => {
      const found = running.current.get(key);
      running.current.delete(key);
      patch(key, undefined);
      const removal = found?.upload ? found.upload.cancel() : found?.stored ? uploadApiFor(courseId, found.stored.id).remove() : Promise.resolve();
      removal.then(refresh, (error: unknown) => toast.error('Error', { description: errorMessage(error, 'The upload could not be cancelled.') }));
    },
    [courseId, patch, refresh],
  );

  const dismiss = useCallback(
    (key: string) => {
      running.current.delete(key);
      patch(key, undefined);
      refresh();
    },
    [patch, refresh],
  );

  const discard = useCallback(
    (fileId: string) => {
      uploadApiFor(courseId, fileId)
        .remove()
        .then(refresh, (error: unknown) => toast.error('Error', { description: errorMessage(error, 'The upload could not be discarded.') }));
    },
    [courseId, refresh],
  );

  const busy = entries.some((e) => e.state !== 'failed');
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  const value = useMemo(() => ({ entries, upload, resume, retry, cancel, dismiss, discard }), [entries, upload, resume, retry, cancel, dismiss, discard]);
  return <UploadsContext.Provider value={value}>{children}</UploadsContext.Provider>;
}
