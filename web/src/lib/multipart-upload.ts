import { PART_URLS_MAX, type CompleteUploadBody, type CourseFile, type PartUrlsResponse, type UploadedPartsResponse } from '@contracts/files.ts';
import { ApiError } from './api-error.ts';

/**
 * The browser half of a course file's S3 multipart upload (docs/api.md "Course files"). The server started the upload
 * and fixed each part's size; this module cuts the File into those parts, asks presigned PUT URLs in batches, PUTs up
 * to three parts at once with XMLHttpRequest (fetch has no upload progress), keeps each part's ETag, and completes.
 *
 * Why it is built this way:
 * - Progress is byte-accurate: finished parts count whole, parts in flight count what their `upload.onprogress` said,
 *   and a failed attempt gives its bytes back (the bar may step back, it never lies).
 * - A dropped connection resumes by itself: a failed part is retried with backoff, waiting for the browser to be
 *   online again first, with a fresh URL (an expired URL is a 403, and asking again costs one small request).
 * - After a reload the same File (picked again) resumes: the parts S3 already holds are skipped.
 */

/** The server calls one upload needs (lib-agnostic, so tests pass a fake). */
export interface UploadApi {
  /** POST .../files/{f}/parts {partNumbers} (at most PART_URLS_MAX). */
  partUrls: (partNumbers: number[]) => Promise<PartUrlsResponse>;
  /** GET .../files/{f}/parts: what S3 already holds (resume). */
  uploadedParts: () => Promise<UploadedPartsResponse>;
  /** POST .../files/{f}/complete. */
  complete: (body: CompleteUploadBody) => Promise<CourseFile>;
  /** DELETE .../files/{f}: aborts the multipart upload and forgets the file (cancel). */
  remove: () => Promise<void>;
}

export interface UploadProgress {
  /** Bytes on S3 or on their way (in-flight parts count what they sent). */
  loaded: number;
  total: number;
  /** 0-100, floored: 100 only once every byte is sent. */
  percent: number;
}

/** What a part PUT needs from XMLHttpRequest; tests give a fake with the same members. */
export type XhrLike = Pick<XMLHttpRequest, 'open' | 'send' | 'abort' | 'getResponseHeader' | 'status'> & {
  upload: { onprogress: ((event: { loaded: number }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  ontimeout: (() => void) | null;
};

export interface UploaderDeps {
  createXhr: () => XhrLike;
  sleep: (ms: number) => Promise<void>;
  /** Resolves when the browser has a network again (at once when it has). */
  online: () => Promise<void>;
  now: () => number;
}

export const browserDeps: UploaderDeps = {
  createXhr: () => new XMLHttpRequest() as unknown as XhrLike,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  online: () =>
    typeof navigator === 'undefined' || navigator.onLine
      ? Promise.resolve()
      : new Promise((resolve) => window.addEventListener('online', () => resolve(), { once: true })),
  now: () => Date.now(),
};

export interface UploadOptions {
  file: Blob;
  /** The file as the start (or the lesson, on resume) answered it: its id and declared size. */
  courseFile: Pick<CourseFile, 'id' | 'size'>;
  /** Bytes of every part but the last (the start's `partSize`). */
  partSize: number;
  api: UploadApi;
  onProgress?: (progress: UploadProgress) => void;
  /** Skip the parts S3 already holds (after a reload). */
  resume?: boolean;
  concurrency?: number;
  /** Attempts per part before the upload fails. */
  maxAttempts?: number;
  deps?: UploaderDeps;
}

export interface RunningUpload {
  /** The ready file, or a rejection (UploadCancelledError after `cancel`). */
  done: Promise<CourseFile>;
  /** Stops every PUT and deletes the file on the server. */
  cancel: () => Promise<void>;
}

export class UploadCancelledError extends Error {
  override name = 'UploadCancelledError';
  constructor() {
    super('The upload was cancelled.');
  }
}

/** A PUT that failed: `status` 0 for a dropped connection. */
class PartFailedError extends Error {
  constructor(readonly status: number) {
    super(status === 0 ? 'The connection dropped.' : `The storage answered ${status}.`);
  }
}

/**
 * Worth another attempt: a dropped connection (to the storage or to the API asking for URLs), an expired URL (403),
 * throttling or a hiccup.
 */
function retryable(error: unknown): boolean {
  if (error instanceof PartFailedError) return [0, 403, 408, 429].includes(error.status) || error.status >= 500;
  if (error instanceof ApiError) return error.status === 0 || error.status === 429 || error.status >= 500;
  return false;
}

/** 1 s, 2 s, 4 s, 8 s, then every 15 s. */
export const backoffMs = (attempt: number) => Math.min(1000 * 2 ** (attempt - 1), 15_000);

/** A URL is used only while it has this much life left. */
const URL_MARGIN_MS = 60_000;

export const partCountOf = (size: number, partSize: number) => Math.max(1, Math.ceil(size / partSize));

export function startMultipartUpload(options: UploadOptions): RunningUpload {
  const { file, courseFile, partSize, api, onProgress, resume = false, concurrency = 3, maxAttempts = 8, deps = browserDeps } = options;
  const total = courseFile.size;
  const count = partCountOf(total, partSize);
  const sizeOf = (n: number) => (n < count ? partSize : total - partSize * (count - 1));

  const etags = new Map<number, string>();
  const inFlight = new Map<number, number>();
  const urls = new Map<number, { url: string; expiresAt: number }>();
  const xhrs = new Set<XhrLike>();
  let doneBytes = 0;
  let cancelled = false;
  /** Cancelled, or failed for good: the other parts stop too. */
  let halted = false;
  let lastPercent = -1;
  let lastLoaded = -1;
  let asking: Promise<void> | undefined;
  const queue: number[] = [];

  const report = () => {
    let loaded = doneBytes;
    for (const bytes of inFlight.values()) loaded += bytes;
    loaded = Math.min(loaded, total);
    const percent = total === 0 ? 100 : Math.floor((loaded / total) * 100);
    if (loaded === lastLoaded && percent === lastPercent) return;
    lastLoaded = loaded;
    lastPercent = percent;
    onProgress?.({ loaded, total, percent });
  };

  const usable = (n: number) => {
    const found = urls.get(n);
    return found && found.expiresAt - URL_MARGIN_MS > deps.now() ? found.url : undefined;
  };

  /** This part's URL, asking for it and the next parts without one in one request (at most PART_URLS_MAX). */
  const urlFor = async (n: number): Promise<string> => {
    for (;;) {
      if (halted) throw new UploadCancelledError();
      const ready = usable(n);
      if (ready) return ready;
      if (asking) {
        await asking;
        continue;
      }
      const wanted = [n, ...queue.filter((m) => m !== n && !usable(m))].slice(0, PART_URLS_MAX);
      asking = api.partUrls(wanted).then(
        (answer) => {
          const expiresAt = Date.parse(answer.expiresAt);
          for (const part of answer.parts) urls.set(part.partNumber, { url: part.url, expiresAt });
        },
      );
      try {
        await asking;
      } finally {
        asking = undefined;
      }
      if (!usable(n)) throw new Error(`No upload URL for part ${n}.`);
    }
  };

  const put = (url: string, n: number) =>
    new Promise<string>((resolve, reject) => {
      const xhr = deps.createXhr();
      xhrs.add(xhr);
      const settle = () => {
        xhrs.delete(xhr);
        inFlight.delete(n);
      };
      xhr.upload.onprogress = (event) => {
        inFlight.set(n, Math.min(event.loaded, sizeOf(n)));
        report();
      };
      xhr.onload = () => {
        settle();
        const etag = xhr.getResponseHeader('ETag');
        if (xhr.status >= 200 && xhr.status < 300 && etag) {
          // In the same turn as leaving `inFlight`: the bar never dips between a part's last byte and its ETag.
          etags.set(n, etag);
          doneBytes += sizeOf(n);
          report();
          resolve(etag);
        } else if (xhr.status >= 200 && xhr.status < 300) reject(new Error('The storage did not show the part’s ETag (check the bucket’s CORS).'));
        else reject(new PartFailedError(xhr.status));
      };
      xhr.onerror = xhr.ontimeout = () => {
        settle();
        reject(new PartFailedError(0));
      };
      xhr.onabort = () => {
        settle();
        reject(cancelled ? new UploadCancelledError() : new PartFailedError(0));
      };
      xhr.open('PUT', url);
      xhr.send(file.slice(partSize * (n - 1), partSize * (n - 1) + sizeOf(n)));
    });

  const uploadPart = async (n: number) => {
    for (let attempt = 1; ; attempt++) {
      if (halted) throw new UploadCancelledError();
      try {
        await put(await urlFor(n), n);
        return;
      } catch (error) {
        if (halted) throw new UploadCancelledError();
        if (!retryable(error) || attempt >= maxAttempts) throw error;
        report();
        urls.delete(n);
        await deps.online();
        await deps.sleep(backoffMs(attempt));
      }
    }
  };

  const run = async (): Promise<CourseFile> => {
    if (resume) {
      const held = await api.uploadedParts();
      for (const part of held.parts) {
        if (part.partNumber > count || part.size !== sizeOf(part.partNumber)) continue;
        etags.set(part.partNumber, part.etag);
        doneBytes += part.size;
      }
    }
    for (let n = 1; n <= count; n++) if (!etags.has(n)) queue.push(n);
    report();
    const worker = async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) await uploadPart(n);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
    if (cancelled) throw new UploadCancelledError();
    const parts = [...etags].sort(([a], [b]) => a - b).map(([partNumber, etag]) => ({ partNumber, etag }));
    return api.complete({ parts });
  };

  const done = run().catch((error: unknown) => {
    // One part failing for good stops the others: no bytes sent for an upload that cannot complete.
    halted = true;
    queue.length = 0;
    for (const xhr of xhrs) xhr.abort();
    throw cancelled ? new UploadCancelledError() : error;
  });
  // The caller may only ever look at `cancel`; a rejection nobody awaits must not be reported as unhandled.
  done.catch(() => undefined);

  return {
    done,
    cancel: async () => {
      if (cancelled) return;
      cancelled = true;
      halted = true;
      queue.length = 0;
      for (const xhr of [...xhrs]) xhr.abort();
      await api.remove();
    },
  };
}

const UNITS = ['KB', 'MB', 'GB'] as const;

/** A size as people read it (1024-based, like the 2 GB and 50 MB limits): '840 MB', '1.5 GB', '20 KB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value >= 10 ? Math.round(value).toString() : (Math.round(value * 10) / 10).toString();
  return `${shown} ${UNITS[unit]!}`;
}

/** The progress bar's text: '42% · 840 MB of 2 GB'. */
export const progressText = ({ loaded, total, percent }: UploadProgress) => `${percent}% · ${formatBytes(loaded)} of ${formatBytes(total)}`;
