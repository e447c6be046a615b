import { describe, expect, it } from 'vitest';
import { NotFoundError } from '#core/errors.ts';
import type { Slice } from '#core/jobs/ports.ts';
import { exportFiles, exportFilesAfter, personalExportStatus, personalExportWork, requestPersonalExport, zipSafeName } from '#core/personal-exports/personal-exports.ts';
import type { ArchiveParts, ExportedRecord, PersonalExport, PersonalExportDeps, PersonalExportStore, PersonalRecords, RecordSource, UploadedFiles } from '#core/personal-exports/ports.ts';
import type { QueuedMail } from '#core/ports.ts';
import { testClock } from '#test/functions/fakes/clock.ts';
import { unzip } from '#test/functions/fakes/unzip.ts';

/** Makes the n-th of the calls it wraps fail once (a Lambda killed there), counting every call of the world's stores. */
const faults = () => {
  let calls = 0;
  let failAt = Infinity;
  return {
    at: (n: number) => ((failAt = n), (calls = 0)),
    calls: () => calls,
    check(what: string) {
      if (++calls === failAt) throw new Error(`killed at ${what}`);
    },
  };
};
type Faults = ReturnType<typeof faults>;

/** The export items in memory, with the store's rules: one pending per user (unless stale), ready once; saves in order. */
const memoryExports = (fault: Faults) => {
  const items = new Map<string, PersonalExport>();
  const pending = new Map<string, { exportId: string; requestedAt: string }>();
  const mail: QueuedMail[] = [];
  const store: PersonalExportStore = {
    async request({ userId, exportId, requestedAt, staleBefore }) {
      const current = pending.get(userId);
      if (current && current.requestedAt >= staleBefore) return current.exportId;
      pending.set(userId, { exportId, requestedAt });
      items.set(`${userId}/${exportId}`, { exportId, userId, status: 'pending', requestedAt });
      return exportId;
    },
    get: async (userId, exportId) => items.get(`${userId}/${exportId}`),
    async markReady({ userId, exportId, readyAt, linkExpiresAt, mail: email }) {
      fault.check('markReady');
      const found = items.get(`${userId}/${exportId}`);
      if (found?.status !== 'pending') return false;
      const { progress: _done, ...rest } = found;
      items.set(`${userId}/${exportId}`, { ...rest, status: 'ready', readyAt, linkExpiresAt });
      if (pending.get(userId)?.exportId === exportId) pending.delete(userId);
      mail.push(email);
      return true;
    },
    async saveProgress({ userId, exportId, progress }) {
      fault.check('saveProgress');
      const found = items.get(`${userId}/${exportId}`);
      if (found?.status !== 'pending' || (found.progress?.version ?? 0) !== progress.version - 1) return false;
      // Kept as the table keeps it: a copy, as JSON.
      items.set(`${userId}/${exportId}`, { ...found, progress: JSON.parse(JSON.stringify(progress)) as typeof progress });
      return true;
    },
  };
  return { store, items, mail };
};

/** The table's records by source, served two to a page (so every file takes several pages). */
const memoryRecords = (people: Record<string, { role: 'learner' | 'creator'; email: string }>, bySource: Record<string, ExportedRecord[]>) => {
  const reads: RecordSource[] = [];
  const records: PersonalRecords = {
    person: async (userId) => people[userId],
    async page(source, cursor) {
      reads.push(source);
      const all = bySource[JSON.stringify(source)] ?? [];
      const start = cursor ? Number(cursor) : 0;
      return { items: all.slice(start, start + 2), nextCursor: start + 2 < all.length ? String(start + 2) : null };
    },
  };
  return { records, reads };
};

const key = (source: RecordSource) => JSON.stringify(source);

/**
 * The exports bucket in memory, as S3 keeps a multipart upload: parts by number (one written again replaces it), every
 * part but the last at least `partBytes` on completion (S3's EntityTooSmall), the carried bytes' objects; each call
 * can be made to die (`fault`).
 */
const memoryFiles = (fault: Faults, partBytes: number) => {
  const objects = new Map<string, Buffer>();
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  const carried = new Map<string, Buffer>();
  const aborted: string[] = [];
  const partSizes: number[] = [];
  let next = 0;
  const files: ArchiveParts = {
    async begin(key) {
      fault.check('begin');
      const uploadId = `u${++next}`;
      uploads.set(uploadId, { key, parts: new Map() });
      return uploadId;
    },
    async part(key, uploadId, n, bytes) {
      fault.check(`part ${n}`);
      const upload = uploads.get(uploadId);
      if (upload?.key !== key) throw new Error('NoSuchUpload');
      upload.parts.set(n, Buffer.from(bytes));
      return `"etag-${n}-${bytes.length}"`;
    },
    async complete(key, uploadId, parts, { linkSeconds }) {
      fault.check('complete');
      const upload = uploads.get(uploadId);
      if (!upload) {
        if (!objects.has(key)) throw new Error('NoSuchUpload');
      } else {
        const bodies = parts.map((p) => upload.parts.get(p.n)!);
        if (parts.some((p, i) => p.n !== i + 1 || p.etag !== `"etag-${p.n}-${bodies[i]!.length}"`)) throw new Error('InvalidPart');
        if (bodies.slice(0, -1).some((b) => b.length < partBytes)) throw new Error('EntityTooSmall');
        partSizes.push(...bodies.map((b) => b.length));
        objects.set(key, Buffer.concat(bodies));
        uploads.delete(uploadId);
      }
      return { url: `https://files.example/${key}?X-Amz-Expires=${linkSeconds}`, expiresAt: new Date(Date.parse('2026-11-21T12:00:00.000Z') + linkSeconds * 1000).toISOString() };
    },
    abort: async (key, uploadId) => void (uploads.delete(uploadId), aborted.push(key)),
    async carry(key, version, bytes) {
      fault.check('carry');
      carried.set(`${key}.carry-${version}`, Buffer.from(bytes));
    },
    carried: async (key, version) => carried.get(`${key}.carry-${version}`),
  };
  return { files, objects, aborted, uploads, partSizes };
};

/**
 * The files bucket's uploads in memory, each read back in chunks of a third of it (as S3 streams a body), from the
 * byte asked for (a Range request).
 */
const memoryUploads = (objects: Record<string, Buffer>) => {
  const opened: string[] = [];
  const files: UploadedFiles = {
    async open(objectKey, from = 0) {
      const bytes = objects[objectKey];
      opened.push(objectKey);
      if (!bytes) return undefined;
      return (async function* () {
        const third = Math.ceil(bytes.length / 3);
        for (let at = from; at < bytes.length; at += third) yield bytes.subarray(at, at + third);
      })();
    },
  };
  return { files, opened };
};

const photo = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));

const people = { ann: { role: 'learner' as const, email: 'ann@example.com' }, cara: { role: 'creator' as const, email: 'cara@example.com' } };

/** `more` records by source and `moreUploads` bytes, beside the common ones; parts of `partBytes`. */
const world = (more: Record<string, ExportedRecord[]> = {}, moreUploads: Record<string, Buffer> = {}, partBytes = 16_384) => {
  const fault = faults();
  const exports = memoryExports(fault);
  const data = memoryRecords(people, {
    ...more,
    [key({ kind: 'account', userId: 'ann' })]: [{ type: 'User', email: 'ann@example.com', role: 'learner' }, { type: 'LearnerProfile', certificateName: 'Ann Lee' }],
    [key({ kind: 'enrolments', learnerId: 'ann' })]: [
      { courseId: 'c1', learnerId: 'ann', progress: 50 },
      { courseId: 'c2', learnerId: 'ann', progress: 0 },
      { courseId: 'c3', learnerId: 'ann', progress: 100 },
    ],
    [key({ kind: 'quiz-attempts', courseId: 'c1', learnerId: 'ann' })]: [{ learnerId: 'ann', lessonId: 'l1', bestScore: 80 }],
    [key({ kind: 'quiz-attempts', courseId: 'c1', learnerId: 'ben' })]: [{ learnerId: 'ben', lessonId: 'l1', bestScore: 20 }],
    [key({ kind: 'courses', creatorId: 'cara' })]: [{ id: 'c1', title: 'Knife skills' }],
    // A course bought and refunded (no enrolment left), found by the buyer's email; another buyer's.
    [key({ kind: 'orders', buyerEmail: 'ann@example.com' })]: [{ id: 'o1', courseTitle: 'Glazes', amount: 2900, currency: 'gbp', status: 'refunded', createdAt: '2026-11-01T10:00:00.000Z' }],
    [key({ kind: 'orders', buyerEmail: 'ben@example.com' })]: [{ id: 'o2', courseTitle: 'Glazes', amount: 2900, currency: 'gbp', status: 'paid' }],
    [key({ kind: 'submissions', courseId: 'c1', learnerId: 'ann' })]: [{ id: 's1', learnerId: 'ann', lessonId: 'l2', text: 'My bowl', status: 'passed', feedback: 'Lovely glaze.' }],
    [key({ kind: 'submission-files', courseId: 'c1', learnerId: 'ann' })]: [
      { id: 'f1', learnerId: 'ann', lessonId: 'l2', name: 'My bowl/front.png', size: 70_000 },
      // Its upload was started but the bytes never sent: nothing in the bucket.
      { id: 'f2', learnerId: 'ann', lessonId: 'l2', name: 'never sent.png', size: 10 },
    ],
    [key({ kind: 'lessons', courseId: 'c1' })]: [{ id: 'l1' }, { id: 'l2' }, { id: 'l3' }],
    [key({ kind: 'lesson-threads', courseId: 'c1', lessonId: 'l1' })]: [
      { id: 't1', authorId: 'ann', body: 'How sharp?', replyCount: 3, reports: 1, reporters: ['ben'] },
      { id: 't2', authorId: 'ben', body: 'Mine is blunt', replyCount: 1 },
      { id: 't3', authorId: 'ben', body: 'Anyone?', replyCount: 0 },
    ],
    [key({ kind: 'thread-replies', threadId: 't1' })]: [
      { id: 'r1', authorId: 'cara', body: 'Very sharp.' },
      { id: 'r2', authorId: 'ben', body: 'Same question.' },
      { id: 'r3', authorId: 'ann', body: 'Thank you.' },
    ],
    [key({ kind: 'thread-replies', threadId: 't2' })]: [{ id: 'r4', authorId: 'ann', body: 'Try a steel.' }],
    [key({ kind: 'crm', creatorId: 'cara' })]: Array.from({ length: 5 }, (_, i) => ({ learnerId: `l${i}`, courseId: 'c1' })),
  });
  const bucket = memoryFiles(fault, partBytes);
  const uploads = memoryUploads({ 'courses/c1/l2/submissions/ann/f1': photo, ...moreUploads });
  const clock = testClock();
  const started: Slice[] = [];
  const senders: string[] = [];
  const deps: PersonalExportDeps = {
    exports: exports.store,
    records: data.records,
    files: bucket.files,
    partBytes,
    uploads: uploads.files,
    clock,
    ids: { newId: (() => { let n = 0; return () => `x${++n}`; })() },
    startSender: async (k) => void senders.push(k),
    appOrigin: 'https://courses.example',
  };
  return { deps, exports, data, bucket, uploads, clock, started, senders, fault, request: (userId: string) => requestPersonalExport({ ...deps, start: async (s) => void started.push(s) }, userId) };
};

const runJob = (w: ReturnType<typeof world>, slice: Slice) => personalExportWork(w.deps)(slice, () => false);

/**
 * The run as the job's queue delivers it: each slice's continuation next, a slice that failed delivered again (from
 * its own cursor); `timeUp` says when each slice's time is up. Resolves with the slices delivered.
 */
const runSlices = async (w: ReturnType<typeof world>, first: Slice, timeUp: () => boolean = () => true): Promise<{ deliveries: number; failures: number }> => {
  let slice: Slice | undefined = first;
  let deliveries = 0;
  let failures = 0;
  while (slice) {
    if (++deliveries > 500) throw new Error('the run does not end');
    try {
      const outcome = await personalExportWork(w.deps)(slice, timeUp);
      slice = outcome.cursor === undefined ? undefined : { ...slice, seq: slice.seq + 1, cursor: outcome.cursor };
    } catch {
      failures++;
    }
  }
  return { deliveries, failures };
};

describe('the gathering rules', () => {
  it('gives everyone their account, enrolments, certificates and orders as a buyer, and only a creator their courses, CRM rows and support requests', () => {
    expect(exportFiles('ann', 'learner', 'ann@example.com').map((f) => f.name)).toEqual(['account.json', 'enrolments.json', 'left-courses.json', 'certificates.json', 'orders.json']);
    expect(exportFiles('lee', 'leader', 'lee@example.com').map((f) => f.source.kind)).toEqual(['account', 'enrolments', 'left-enrolments', 'certificates', 'orders']);
    expect(exportFiles('cara', 'creator', 'cara@example.com').map((f) => f.name)).toEqual([
      'account.json',
      'enrolments.json',
      'left-courses.json',
      'certificates.json',
      'orders.json',
      'creator/courses.json',
      'creator/crm-learners.json',
      'creator/support-requests.json',
    ]);
  });

  it('reads every source by the person\'s own key: never another person\'s id or email', () => {
    for (const file of exportFiles('cara', 'creator', 'cara@example.com')) {
      expect(Object.values(file.source).filter((v) => v !== file.source.kind)).toEqual([file.source.kind === 'orders' ? 'cara@example.com' : 'cara']);
    }
  });

  it('reads quiz attempts and submissions per enrolled course, once each, under the learner\'s own id', () => {
    expect(exportFilesAfter('ann', ['c1', 'c2', 'c1']).map((f) => [f.name, f.source])).toEqual([
      ['quiz-attempts/c1.json', { kind: 'quiz-attempts', courseId: 'c1', learnerId: 'ann' }],
      ['submissions/c1.json', { kind: 'submissions', courseId: 'c1', learnerId: 'ann' }],
      ['quiz-attempts/c2.json', { kind: 'quiz-attempts', courseId: 'c2', learnerId: 'ann' }],
      ['submissions/c2.json', { kind: 'submissions', courseId: 'c2', learnerId: 'ann' }],
    ]);
  });

  it('keeps a file name to one safe ZIP entry name', () => {
    expect(zipSafeName('My bowl/front.png')).toBe('My bowl_front.png');
    expect(zipSafeName('..\\evil\u0000.txt')).toBe('.._evil_.txt');
    expect(zipSafeName('')).toBe('file');
    expect(zipSafeName('x'.repeat(300))).toHaveLength(120);
  });
});

describe('requesting an export', () => {
  it('answers the pending export again while it is pending, and starts its run each time under the same name', async () => {
    const w = world();
    const first = await w.request('ann');
    expect(await w.request('ann')).toEqual(first);
    expect(w.started.map((s) => s.run)).toEqual([`personal-export@${first.exportId}`, `personal-export@${first.exportId}`]);
    expect(w.started[0]!.input).toEqual({ userId: 'ann', exportId: first.exportId });
  });

  it('starts a new export once the previous one is ready', async () => {
    const w = world();
    const first = await w.request('ann');
    await runJob(w, w.started[0]!);
    expect((await w.request('ann')).exportId).not.toBe(first.exportId);
  });
});

describe("the 'personal-export' job", () => {
  it('writes one ZIP of the person\'s records, page after page, with their quiz attempts and nobody else\'s', async () => {
    const w = world();
    const { exportId } = await w.request('ann');
    const result = await runJob(w, w.started[0]!);
    expect(result.counts).toMatchObject({ written: 1, records: 11, files: 1 });
    const files = unzip(w.bucket.objects.get(`personal/ann/${exportId}.zip`)!);
    expect([...files.keys()]).toEqual([
      'README.txt',
      'account.json',
      'enrolments.json',
      'left-courses.json',
      'certificates.json',
      'orders.json',
      'quiz-attempts/c1.json',
      'submissions/c1.json',
      'quiz-attempts/c2.json',
      'submissions/c2.json',
      'quiz-attempts/c3.json',
      'submissions/c3.json',
      'comments.json',
      'files/c1/l2/f1-My bowl_front.png',
    ]);
    expect(JSON.parse(files.get('enrolments.json')!.toString())).toHaveLength(3);
    expect(JSON.parse(files.get('quiz-attempts/c1.json')!.toString())).toEqual([{ learnerId: 'ann', lessonId: 'l1', bestScore: 80 }]);
    expect(JSON.parse(files.get('certificates.json')!.toString())).toEqual([]);
    expect(JSON.parse(files.get('orders.json')!.toString())).toEqual([{ id: 'o1', courseTitle: 'Glazes', amount: 2900, currency: 'gbp', status: 'refunded', createdAt: '2026-11-01T10:00:00.000Z' }]);
    expect([...files.values()].some((f) => f.toString().includes('ben'))).toBe(false);
    // Every read but the discussions' is one of the person's own sources; the discussions read are their courses'.
    const discussion = new Set(['lessons', 'lesson-threads', 'thread-replies']);
    expect(w.data.reads.filter((s) => !discussion.has(s.kind)).every((s) => Object.values(s).includes('ann') || Object.values(s).includes('ann@example.com'))).toBe(true);
    expect(new Set(w.data.reads.flatMap((s) => (s.kind === 'lessons' || s.kind === 'lesson-threads' ? [s.courseId] : []))).size).toBe(3);
    expect(w.data.reads.filter((s) => s.kind === 'lessons' || s.kind === 'lesson-threads').every((s) => 'courseId' in s && ['c1', 'c2', 'c3'].includes(s.courseId))).toBe(true);
  });

  it('adds their submissions of each assignment, with their feedback', async () => {
    const w = world();
    const { exportId } = await w.request('ann');
    await runJob(w, w.started[0]!);
    const files = unzip(w.bucket.objects.get(`personal/ann/${exportId}.zip`)!);
    expect(JSON.parse(files.get('submissions/c1.json')!.toString())).toEqual([{ id: 's1', learnerId: 'ann', lessonId: 'l2', text: 'My bowl', status: 'passed', feedback: 'Lovely glaze.' }]);
    expect(JSON.parse(files.get('submissions/c2.json')!.toString())).toEqual([]);
  });

  it('gathers a course they left as one they are in: its enrolment, quiz attempts, every submission, comments and uploads', async () => {
    const left = { kind: 'left-enrolments', learnerId: 'ann' } as const;
    const c4 = (kind: 'quiz-attempts' | 'submissions' | 'submission-files') => key({ kind, courseId: 'c4', learnerId: 'ann' });
    const w = world(
      {
        [key(left)]: [{ courseId: 'c4', learnerId: 'ann', status: 'removed', progress: 40 }],
        [c4('quiz-attempts')]: [{ learnerId: 'ann', lessonId: 'l8', bestScore: 60 }],
        [c4('submissions')]: [
          { id: 's8', lessonId: 'l9', text: 'First try', supersededBy: 's9', superseded: true },
          { id: 's9', lessonId: 'l9', text: 'Second try', supersededBy: null, superseded: false },
        ],
        [c4('submission-files')]: [{ id: 'f9', learnerId: 'ann', lessonId: 'l9', name: 'try.png' }],
        [key({ kind: 'lessons', courseId: 'c4' })]: [{ id: 'l9' }],
        [key({ kind: 'lesson-threads', courseId: 'c4', lessonId: 'l9' })]: [{ id: 't9', authorId: 'ann', body: 'Before I left', replyCount: 0 }],
      },
      { 'courses/c4/l9/submissions/ann/f9': Buffer.from('try') },
    );
    const { exportId } = await w.request('ann');
    await runJob(w, w.started[0]!);
    const files = unzip(w.bucket.objects.get(`personal/ann/${exportId}.zip`)!);
    expect(JSON.parse(files.get('left-courses.json')!.toString())).toEqual([{ courseId: 'c4', learnerId: 'ann', status: 'removed', progress: 40 }]);
    expect(JSON.parse(files.get('quiz-attempts/c4.json')!.toString())).toEqual([{ learnerId: 'ann', lessonId: 'l8', bestScore: 60 }]);
    expect((JSON.parse(files.get('submissions/c4.json')!.toString()) as ExportedRecord[]).map((r) => [r['id'], r['superseded']])).toEqual([
      ['s8', true],
      ['s9', false],
    ]);
    expect((JSON.parse(files.get('comments.json')!.toString()) as ExportedRecord[]).map((r) => r['body'])).toContain('Before I left');
    expect(files.get('files/c4/l9/f9-try.png')?.toString()).toBe('try');
    // The courses they are in still come first, and nothing of them was lost.
    expect(JSON.parse(files.get('enrolments.json')!.toString())).toHaveLength(3);
  });

  it("adds their own comments and replies in their courses' discussions, and nobody else's, nor who reported them", async () => {
    const w = world();
    const { exportId } = await w.request('ann');
    await runJob(w, w.started[0]!);
    const comments = JSON.parse(unzip(w.bucket.objects.get(`personal/ann/${exportId}.zip`)!).get('comments.json')!.toString()) as ExportedRecord[];
    expect(comments).toEqual([
      { id: 't1', authorId: 'ann', body: 'How sharp?', replyCount: 3, reports: 1 },
      { id: 'r3', authorId: 'ann', body: 'Thank you.' },
      { id: 'r4', authorId: 'ann', body: 'Try a steel.' },
    ]);
    // A thread with no replies costs no read of its replies.
    expect(w.data.reads).not.toContainEqual({ kind: 'thread-replies', threadId: 't3' });
  });

  it("gives a creator their own replies in their courses' discussions", async () => {
    const w = world();
    const { exportId } = await w.request('cara');
    await runJob(w, w.started[0]!);
    const comments = JSON.parse(unzip(w.bucket.objects.get(`personal/cara/${exportId}.zip`)!).get('comments.json')!.toString()) as ExportedRecord[];
    expect(comments).toEqual([{ id: 'r1', authorId: 'cara', body: 'Very sharp.' }]);
  });

  it('copies their uploaded files byte for byte, chunk by chunk, and skips an upload that never arrived', async () => {
    const w = world();
    const { exportId } = await w.request('ann');
    await runJob(w, w.started[0]!);
    const files = unzip(w.bucket.objects.get(`personal/ann/${exportId}.zip`)!);
    expect(files.get('files/c1/l2/f1-My bowl_front.png')!.equals(photo)).toBe(true);
    // The 70,000 bytes went through in the three chunks they were read in, never as one: no part held more than a
    // part's size and the chunk that filled it.
    expect(Math.max(...w.bucket.partSizes)).toBeLessThanOrEqual(16_384 + Math.ceil(photo.length / 3));
    expect(w.bucket.partSizes.length).toBeGreaterThan(3);
    expect(w.uploads.opened).toEqual(['courses/c1/l2/submissions/ann/f1', 'courses/c1/l2/submissions/ann/f2']);
    expect([...files.keys()].filter((name) => name.startsWith('files/'))).toHaveLength(1);
  });

  it("adds a creator's courses and every CRM row, read a page at a time", async () => {
    const w = world();
    const { exportId } = await w.request('cara');
    await runJob(w, w.started[0]!);
    const files = unzip(w.bucket.objects.get(`personal/cara/${exportId}.zip`)!);
    expect(JSON.parse(files.get('creator/crm-learners.json')!.toString())).toHaveLength(5);
    expect(w.data.reads.filter((s) => s.kind === 'crm')).toHaveLength(3);
  });

  it('marks it ready with the link\'s end and queues one email with the 24-hour link, then starts the sender', async () => {
    const w = world();
    const { exportId } = await w.request('ann');
    await runJob(w, w.started[0]!);
    const item = await w.exports.store.get('ann', exportId);
    expect(item).toMatchObject({ status: 'ready', linkExpiresAt: '2026-11-22T12:00:00.000Z' });
    expect(w.exports.mail).toHaveLength(1);
    expect(w.exports.mail[0]).toMatchObject({ to: 'ann@example.com', subject: 'Course Platform: your data is ready to download' });
    expect(w.exports.mail[0]!.text).toContain(`https://files.example/personal/ann/${exportId}.zip?X-Amz-Expires=86400`);
    expect(w.senders).toEqual([`personal-export@${exportId}`]);
  });

  it('run twice, emails once: the second run finds it ready and writes nothing', async () => {
    const w = world();
    await w.request('ann');
    await runJob(w, w.started[0]!);
    const again = await runJob(w, w.started[0]!);
    expect(again.counts).toMatchObject({ written: 0, skipped: 1 });
    expect(w.exports.mail).toHaveLength(1);
  });

});

describe("the 'personal-export' job across slices (decision 0062)", () => {
  /** A ZIP's files by name, their bytes as base64 (compared as strings: quick, and a difference still shows). */
  const contents = (zip: Buffer) => [...unzip(zip)].map(([name, bytes]) => [name, bytes.toString('base64')]);
  /** The files of one uninterrupted run's ZIP: what every other way of running it must give. */
  const reference = async (userId: string) => {
    const w = world();
    const { exportId } = await w.request(userId);
    await runJob(w, w.started[0]!);
    return contents(w.bucket.objects.get(`personal/${userId}/${exportId}.zip`)!);
  };

  it('goes on from where each slice stopped: a slice that does one step at a time still writes the whole ZIP, in parts of at least the part size', async () => {
    for (const userId of ['ann', 'cara']) {
      const w = world();
      const { exportId } = await w.request(userId);
      const run = await runSlices(w, w.started[0]!, () => true);
      expect(run.deliveries).toBeGreaterThan(10);
      expect(contents(w.bucket.objects.get(`personal/${userId}/${exportId}.zip`)!)).toEqual(await reference(userId));
      expect(w.bucket.partSizes.slice(0, -1).every((size) => size >= 16_384)).toBe(true);
      expect(w.exports.mail).toHaveLength(1);
      expect(await w.exports.store.get(userId, exportId)).toMatchObject({ status: 'ready' });
      expect((await w.exports.store.get(userId, exportId))?.progress).toBeUndefined();
    }
  });

  it('killed at any call of any slice and delivered again, writes every file and record exactly once and emails once', async () => {
    const calls = await (async () => {
      const w = world();
      await w.request('ann');
      w.fault.at(Infinity);
      await runSlices(w, w.started[0]!, () => true);
      return w.fault.calls();
    })();
    expect(calls).toBeGreaterThan(15);
    const expected = await reference('ann');
    for (let killAt = 1; killAt <= calls; killAt++) {
      const w = world();
      const { exportId } = await w.request('ann');
      w.fault.at(killAt);
      const run = await runSlices(w, w.started[0]!, () => true);
      expect(run.failures, `killed at call ${killAt}`).toBe(1);
      expect(contents(w.bucket.objects.get(`personal/ann/${exportId}.zip`)!), `killed at call ${killAt}`).toEqual(expected);
      expect(w.exports.mail, `killed at call ${killAt}`).toHaveLength(1);
    }
  });

  it('a slice delivered again after the run went past it does nothing', async () => {
    const w = world();
    const { exportId } = await w.request('ann');
    const work = personalExportWork(w.deps);
    const first = await work(w.started[0]!, () => true);
    expect(first.cursor).toBeDefined();
    const second = { ...w.started[0]!, seq: 1, cursor: first.cursor! };
    await work(second, () => true);
    const saved = (await w.exports.store.get('ann', exportId))!.progress!;
    expect(await work(w.started[0]!, () => true)).toMatchObject({ counts: { skipped: 1 } });
    expect((await w.exports.store.get('ann', exportId))!.progress).toEqual(saved);
  });
});

describe("an export's status", () => {
  const status = (w: ReturnType<typeof world>, userId: string, exportId: string) =>
    personalExportStatus({ exports: w.exports.store, clock: w.clock, link: async (k, { linkSeconds }) => `https://files.example/${k}?ttl=${linkSeconds}` }, userId, exportId);

  it('is pending, then ready with a fresh link for what is left of the 24 hours, then expired', async () => {
    const w = world();
    const { exportId } = await w.request('ann');
    expect(await status(w, 'ann', exportId)).toEqual({ status: 'pending' });
    await runJob(w, w.started[0]!);
    w.clock.advance(3600_000);
    expect(await status(w, 'ann', exportId)).toEqual({ status: 'ready', url: `https://files.example/personal/ann/${exportId}.zip?ttl=${23 * 3600}`, expiresAt: '2026-11-22T12:00:00.000Z' });
    w.clock.advance(23 * 3600_000);
    expect(await status(w, 'ann', exportId)).toEqual({ status: 'expired', expiresAt: '2026-11-22T12:00:00.000Z' });
  });

  it("is a 404 to anyone but its owner", async () => {
    const w = world();
    const { exportId } = await w.request('ann');
    await expect(status(w, 'cara', exportId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(status(w, 'ann', 'nope')).rejects.toBeInstanceOf(NotFoundError);
  });
});
