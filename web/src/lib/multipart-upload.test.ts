import { describe, expect, it, vi } from 'vitest';
import type { CourseFile } from '@contracts/files.ts';
import { ApiError } from './api-error.ts';
import { backoffMs, formatBytes, progressText, startMultipartUpload, UploadCancelledError, type UploadApi, type UploaderDeps, type UploadProgress, type XhrLike } from './multipart-upload.ts';

const PART = 10;
const NOW = Date.parse('2026-11-23T10:00:00.000Z');

/** One PUT as the fake storage sees it: which part, how many bytes, and ways to answer it. */
interface Put {
  url: string;
  bytes: number;
  xhr: FakeXhr;
}

class FakeXhr implements XhrLike {
  status = 0;
  upload: XhrLike['upload'] = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  url = '';
  private etag: string | null = null;
  constructor(private readonly storage: (put: Put) => void) {}
  open(_method: string, url: string | URL) {
    this.url = String(url);
  }
  send(body?: Document | XMLHttpRequestBodyInit | null) {
    const bytes = (body as Blob).size;
    queueMicrotask(() => this.storage({ url: this.url, bytes, xhr: this }));
  }
  abort() {
    this.onabort?.();
  }
  getResponseHeader(name: string) {
    return name.toLowerCase() === 'etag' ? this.etag : null;
  }
  progress(loaded: number) {
    this.upload.onprogress?.({ loaded });
  }
  answer(status: number, etag?: string) {
    this.status = status;
    this.etag = etag ?? null;
    this.onload?.();
  }
  drop() {
    this.onerror?.();
  }
}

const partOf = (url: string) => Number(new URL(url).searchParams.get('partNumber'));

/** A fake API: URLs that name their part (and a version, to see fresh ones), a record of every call. */
function fakeApi({ held = [] as { partNumber: number; etag: string; size: number }[], ttlMs = 15 * 60_000, clock = () => NOW } = {}) {
  let version = 0;
  const calls = { partUrls: [] as number[][], completed: [] as { partNumber: number; etag: string }[][], removed: 0, listed: 0 };
  const api: UploadApi = {
    partUrls: vi.fn((partNumbers: number[]) => {
      calls.partUrls.push(partNumbers);
      version++;
      return Promise.resolve({
        parts: partNumbers.map((n) => ({ partNumber: n, url: `https://s3.test/obj?partNumber=${n}&v=${version}`, size: PART })),
        expiresAt: new Date(clock() + ttlMs).toISOString(),
      });
    }),
    uploadedParts: () => {
      calls.listed++;
      return Promise.resolve({ parts: held });
    },
    complete: ({ parts }) => {
      calls.completed.push(parts);
      return Promise.resolve(readyFile);
    },
    remove: () => {
      calls.removed++;
      return Promise.resolve();
    },
  };
  return { api, calls };
}

const readyFile: CourseFile = {
  id: 'file-1',
  lessonId: 'lesson-1',
  kind: 'video',
  name: 'wash.mp4',
  contentType: 'video/mp4',
  size: 35,
  status: 'ready',
  createdAt: '2026-11-23T10:00:00.000Z',
};

function deps(storage: (put: Put) => void, extra: Partial<UploaderDeps> = {}) {
  const sleeps: number[] = [];
  const d: UploaderDeps = {
    createXhr: () => new FakeXhr(storage),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    online: () => Promise.resolve(),
    now: () => NOW,
    ...extra,
  };
  return { deps: d, sleeps };
}

/** Storage that takes every part whole, ETag "etag-<n>". */
const okStorage = ({ url, bytes, xhr }: Put) => {
  xhr.progress(bytes);
  xhr.answer(200, `"etag-${partOf(url)}"`);
};

const file = (size: number) => new Blob([new Uint8Array(size)], { type: 'video/mp4' });

describe('startMultipartUpload', () => {
  it('cuts the file into the server’s parts, sends each once and completes with every ETag in order', async () => {
    const { api, calls } = fakeApi();
    const sizes: number[] = [];
    const { deps: d } = deps((put) => {
      sizes[partOf(put.url)] = put.bytes;
      okStorage(put);
    });

    const upload = startMultipartUpload({ file: file(35), courseFile: { id: 'file-1', size: 35 }, partSize: PART, api, deps: d });

    await expect(upload.done).resolves.toEqual(readyFile);
    expect(sizes.slice(1)).toEqual([10, 10, 10, 5]);
    expect(calls.completed).toEqual([[1, 2, 3, 4].map((n) => ({ partNumber: n, etag: `"etag-${n}"` }))]);
  });

  it('asks part URLs in batches of at most 20', async () => {
    const { api, calls } = fakeApi();
    const { deps: d } = deps(okStorage);

    await startMultipartUpload({ file: file(45 * PART), courseFile: { id: 'file-1', size: 45 * PART }, partSize: PART, api, deps: d }).done;

    expect(calls.partUrls.every((batch) => batch.length <= 20)).toBe(true);
    expect(calls.partUrls.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(calls.partUrls.length).toBeLessThanOrEqual(4);
  });

  it('reports byte-accurate progress: whole parts plus what the parts in flight have sent', async () => {
    const { api } = fakeApi();
    const pending: Put[] = [];
    const { deps: d } = deps((put) => pending.push(put));
    const seen: UploadProgress[] = [];

    const upload = startMultipartUpload({ file: file(35), courseFile: { id: 'file-1', size: 35 }, partSize: PART, api, deps: d, onProgress: (p) => seen.push(p) });
    await vi.waitFor(() => expect(pending).toHaveLength(3));
    expect(seen.at(-1)).toEqual({ loaded: 0, total: 35, percent: 0 });

    pending[0]!.xhr.progress(4);
    pending[1]!.xhr.progress(6);
    expect(seen.at(-1)).toEqual({ loaded: 10, total: 35, percent: 28 });

    pending[0]!.xhr.progress(10);
    pending[0]!.xhr.answer(200, '"a"');
    await vi.waitFor(() => expect(pending).toHaveLength(4));
    expect(seen.at(-1)?.loaded).toBe(16);

    for (const put of pending.slice(1)) {
      put.xhr.progress(put.bytes);
      put.xhr.answer(200, `"e${partOf(put.url)}"`);
    }
    await upload.done;
    expect(seen.at(-1)).toEqual({ loaded: 35, total: 35, percent: 100 });
    expect(seen.map((p) => p.percent)).toEqual([...seen.map((p) => p.percent)].sort((a, b) => a - b));
  });

  it('sends at most three parts at a time', async () => {
    const { api } = fakeApi();
    let open = 0;
    let most = 0;
    const { deps: d } = deps((put) => {
      open++;
      most = Math.max(most, open);
      setTimeout(() => {
        open--;
        okStorage(put);
      }, 1);
    });

    await startMultipartUpload({ file: file(10 * PART), courseFile: { id: 'file-1', size: 10 * PART }, partSize: PART, api, deps: d }).done;

    expect(most).toBe(3);
  });

  it('retries a dropped part with backoff and a fresh URL, and gives its bytes back while it waits', async () => {
    const { api, calls } = fakeApi();
    const tries = new Map<number, number>();
    const seen: UploadProgress[] = [];
    const { deps: d, sleeps } = deps((put) => {
      const n = partOf(put.url);
      tries.set(n, (tries.get(n) ?? 0) + 1);
      if (n === 2 && tries.get(n)! < 3) {
        put.xhr.progress(7);
        put.xhr.drop();
      } else okStorage(put);
    });

    const upload = startMultipartUpload({ file: file(35), courseFile: { id: 'file-1', size: 35 }, partSize: PART, api, deps: d, onProgress: (p) => seen.push(p) });

    await expect(upload.done).resolves.toEqual(readyFile);
    expect(tries.get(2)).toBe(3);
    expect(sleeps).toEqual([backoffMs(1), backoffMs(2)]);
    expect(calls.partUrls.filter((batch) => batch[0] === 2).length).toBeGreaterThanOrEqual(2);
    expect(calls.completed[0]).toHaveLength(4);
    expect(seen.at(-1)?.percent).toBe(100);
  });

  it('retries when asking for URLs fails because the connection dropped', async () => {
    const { api } = fakeApi();
    const real = api.partUrls;
    let failures = 1;
    api.partUrls = (numbers) => (failures-- > 0 ? Promise.reject(new ApiError(0, 'NETWORK_FAILED', 'offline')) : real(numbers));
    const { deps: d } = deps(okStorage);

    await expect(startMultipartUpload({ file: file(15), courseFile: { id: 'file-1', size: 15 }, partSize: PART, api, deps: d }).done).resolves.toEqual(readyFile);
  });

  it('asks fresh URLs once the ones it holds are about to expire', async () => {
    let now = NOW;
    const { api, calls } = fakeApi({ ttlMs: 90_000, clock: () => now });
    const { deps: d } = deps(
      (put) => {
        now += 40_000;
        okStorage(put);
      },
      { now: () => now },
    );

    await startMultipartUpload({ file: file(3 * PART), courseFile: { id: 'file-1', size: 3 * PART }, partSize: PART, api, deps: d, concurrency: 1 }).done;

    expect(calls.partUrls).toEqual([[1, 2, 3], [2, 3], [3]]);
  });

  it('fails, without completing, once a part keeps failing or the storage refuses it', async () => {
    const { api, calls } = fakeApi();
    const { deps: d } = deps(({ url, xhr }) => (partOf(url) === 1 ? xhr.answer(400) : okStorage({ url, bytes: PART, xhr })));

    await expect(startMultipartUpload({ file: file(35), courseFile: { id: 'file-1', size: 35 }, partSize: PART, api, deps: d }).done).rejects.toThrow('The storage answered 400.');
    expect(calls.completed).toEqual([]);
  });

  it('fails clearly when the storage hides the ETag header', async () => {
    const { api } = fakeApi();
    const { deps: d } = deps(({ xhr }) => xhr.answer(200));

    await expect(startMultipartUpload({ file: file(5), courseFile: { id: 'file-1', size: 5 }, partSize: PART, api, deps: d }).done).rejects.toThrow(/ETag/);
  });

  it('resumes after a reload: the parts the storage holds count as sent and only the missing ones are uploaded', async () => {
    const held = [
      { partNumber: 1, etag: '"held-1"', size: PART },
      { partNumber: 3, etag: '"held-3"', size: PART },
    ];
    const { api, calls } = fakeApi({ held });
    const sent: number[] = [];
    const seen: UploadProgress[] = [];
    const { deps: d } = deps((put) => {
      sent.push(partOf(put.url));
      okStorage(put);
    });

    const done = startMultipartUpload({ file: file(35), courseFile: { id: 'file-1', size: 35 }, partSize: PART, api, deps: d, resume: true, onProgress: (p) => seen.push(p) }).done;

    await expect(done).resolves.toEqual(readyFile);
    expect(calls.listed).toBe(1);
    expect(sent.sort()).toEqual([2, 4]);
    expect(seen[0]).toEqual({ loaded: 20, total: 35, percent: 57 });
    expect(calls.completed[0]).toEqual([
      { partNumber: 1, etag: '"held-1"' },
      { partNumber: 2, etag: '"etag-2"' },
      { partNumber: 3, etag: '"held-3"' },
      { partNumber: 4, etag: '"etag-4"' },
    ]);
  });

  it('cancels: stops the parts in flight, deletes the file and never completes', async () => {
    const { api, calls } = fakeApi();
    const pending: Put[] = [];
    const { deps: d } = deps((put) => pending.push(put));

    const upload = startMultipartUpload({ file: file(35), courseFile: { id: 'file-1', size: 35 }, partSize: PART, api, deps: d });
    await vi.waitFor(() => expect(pending).toHaveLength(3));
    await upload.cancel();

    await expect(upload.done).rejects.toBeInstanceOf(UploadCancelledError);
    expect(calls.removed).toBe(1);
    expect(calls.completed).toEqual([]);
    expect(pending).toHaveLength(3);
  });
});

describe('progress text', () => {
  it('reads like the bar: percent, bytes sent and the size', () => {
    expect(progressText({ loaded: 840 * 1024 * 1024, total: 2048 * 1024 * 1024, percent: 41 })).toBe('41% · 840 MB of 2 GB');
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(20 * 1024)).toBe('20 KB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(formatBytes(9 * 1024 * 1024 + 200_000)).toBe('9.2 MB');
  });
});
