import { PERSONAL_EXPORT_LINK_HOURS, type PersonalExportStarted, type PersonalExportStatus } from '#contracts/personal-exports.ts';
import { emailHtml, escapeHtml, PRODUCT_NAME, type EmailMessage } from '#core/accounts/password-reset-email.ts';
import { submissionFileKey } from '#core/assignments/rules.ts';
import { NotFoundError } from '#core/errors.ts';
import { firstSlice, type SliceWork } from '#core/jobs/slices.ts';
import type { ExportLink, QueuedMail } from '#core/ports.ts';
import {
  type ExportedRecord,
  type ExportPosition,
  type ExportProgress,
  PERSONAL_EXPORT_JOB,
  type PersonalExportDeps,
  type PersonalExportStore,
  type PersonalRecords,
  type RecordSource,
} from '#core/personal-exports/ports.ts';
import { EMPTY_ZIP, zipArchive, type ZipArchive, type ZipState } from '#core/personal-exports/zip.ts';

/**
 * "Download my data" (issue 37 point 1): a request starts a job that gathers every record about the person by key
 * or index, writes them as JSON files into one ZIP streamed to S3, queues an email with a link valid 24 hours and
 * marks the export ready. One pending export per person at a time; the job is idempotent (a second run of a ready
 * export does nothing; of a pending one, goes on from where the last slice saved it: decision 0062).
 */

export const LINK_SECONDS = PERSONAL_EXPORT_LINK_HOURS * 3600;
/** A pending export older than this is taken for lost (its run dead-lettered): a new request starts another. */
export const PENDING_STALE_MS = 24 * 3600 * 1000;
/** Where the ZIP is in the exports store: the owner's id in the key, one object per export. */
export const exportKey = (userId: string, exportId: string): string => `personal/${userId}/${exportId}.zip`;
export const EXPORT_FILE_NAME = 'my-data.zip';

/** The run of one export: its id names it, so a repeated start within the queue's window is the same run. */
export const personalExportSlice = (userId: string, exportId: string) =>
  firstSlice(PERSONAL_EXPORT_JOB, `${PERSONAL_EXPORT_JOB}@${exportId}`, { userId, exportId });

/** POST /api/me/exports: the pending export (new, or the one already pending), its run (re)started. */
export const requestPersonalExport = async (
  deps: { exports: PersonalExportStore; clock: PersonalExportDeps['clock']; ids: PersonalExportDeps['ids']; start: (slice: ReturnType<typeof personalExportSlice>) => Promise<void> },
  userId: string,
): Promise<PersonalExportStarted> => {
  const now = deps.clock.now();
  const exportId = await deps.exports.request({
    userId,
    exportId: deps.ids.newId(),
    requestedAt: now.toISOString(),
    staleBefore: new Date(now.getTime() - PENDING_STALE_MS).toISOString(),
  });
  // Started again when it was pending already: a start lost between the write and the queue is made good, and a run
  // that is under way is the same run (the queue drops the copy) or, later, finds the export ready and stops.
  await deps.start(personalExportSlice(userId, exportId));
  return { exportId };
};

/** GET /api/me/exports/{exportId}: only its owner's (anyone else's id is a 404); a ready one's link made afresh. */
export const personalExportStatus = async (
  deps: { exports: PersonalExportStore; clock: PersonalExportDeps['clock']; link: ExportLink },
  userId: string,
  exportId: string,
): Promise<PersonalExportStatus> => {
  const found = await deps.exports.get(userId, exportId);
  if (!found) throw new NotFoundError('No such export.');
  if (found.status === 'pending') return { status: 'pending' };
  const expiresAt = found.linkExpiresAt!;
  const left = Math.floor((Date.parse(expiresAt) - deps.clock.now().getTime()) / 1000);
  if (left <= 0) return { status: 'expired', expiresAt };
  return { status: 'ready', url: await deps.link(exportKey(userId, exportId), { fileName: EXPORT_FILE_NAME, linkSeconds: left }), expiresAt };
};

/** One file of the ZIP: its name and where its records are. */
export interface ExportFile {
  readonly name: string;
  readonly source: RecordSource;
}

/**
 * THE GATHERING RULES: which records go into whose export, each by key or index. Everyone: their account's partition
 * (profile and everything kept under it), their enrolments with progress, the courses they left (removed enrolments:
 * the course keeps their attempts, submissions and comments after), their certificates, the orders they placed
 * as a buyer (by their email: a buyer need not have been signed in, nor still be enrolled); a creator besides:
 * their courses, their CRM's rows (their learners' enrolments) and their support requests. Quiz attempts and
 * submissions follow the enrolments, active and left (a file each per course, see `exportFilesAfter`); then the
 * person's comments in the discussions of every course they were ever in (`ownComments`) and the files they uploaded
 * with submissions (files/).
 */
export const exportFiles = (userId: string, role: string, email: string): ExportFile[] => [
  { name: 'account.json', source: { kind: 'account', userId } },
  { name: 'enrolments.json', source: { kind: 'enrolments', learnerId: userId } },
  { name: 'left-courses.json', source: { kind: 'left-enrolments', learnerId: userId } },
  { name: 'certificates.json', source: { kind: 'certificates', learnerId: userId } },
  { name: 'orders.json', source: { kind: 'orders', buyerEmail: email } },
  ...(role === 'creator'
    ? ([
        { name: 'creator/courses.json', source: { kind: 'courses', creatorId: userId } },
        { name: 'creator/crm-learners.json', source: { kind: 'crm', creatorId: userId } },
        { name: 'creator/support-requests.json', source: { kind: 'support-requests', creatorId: userId } },
      ] satisfies ExportFile[])
    : []),
];

/**
 * The files that follow from what was read: per course they were ever in (enrolled now or left), the learner's quiz
 * attempts and their submissions (every one, the superseded marked), their own only.
 */
export const exportFilesAfter = (userId: string, enrolledCourseIds: readonly string[]): ExportFile[] =>
  [...new Set(enrolledCourseIds)].flatMap((courseId): ExportFile[] => [
    { name: `quiz-attempts/${courseId}.json`, source: { kind: 'quiz-attempts', courseId, learnerId: userId } },
    { name: `submissions/${courseId}.json`, source: { kind: 'submissions', courseId, learnerId: userId } },
  ]);

/** Every record of `source`, a page at a time (one page in memory, whatever the total). */
async function* recordsOf(records: PersonalRecords, source: RecordSource): AsyncGenerator<ExportedRecord> {
  let cursor: string | undefined;
  do {
    const page = await records.page(source, cursor);
    yield* page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** What of a comment is the author's: all but who reported it (other people's ids). */
const ownComment = ({ reporters: _others, ...comment }: ExportedRecord): ExportedRecord => comment;

/**
 * The person's own comments (threads and replies) in the discussions of `courseIds`: each course's lessons, each
 * lesson's threads, each thread's replies, read by their keys a page at a time (a page per level in memory) and kept to
 * those `authorId` wrote. No index of comments by author exists (all three of the table's indexes are taken on a
 * comment), so the person's courses bound the read: the courses they are enrolled in or left, and a creator's own.
 */
export async function* ownComments(records: PersonalRecords, authorId: string, courseIds: readonly string[]): AsyncGenerator<ExportedRecord> {
  for (const courseId of new Set(courseIds)) {
    for await (const lesson of recordsOf(records, { kind: 'lessons', courseId })) {
      const lessonId = lesson['id'];
      if (typeof lessonId !== 'string') continue;
      for await (const thread of recordsOf(records, { kind: 'lesson-threads', courseId, lessonId })) {
        if (thread['authorId'] === authorId) yield ownComment(thread);
        const threadId = thread['id'];
        // A thread says how many replies it has: one with none costs no read.
        if (typeof threadId !== 'string' || thread['replyCount'] === 0) continue;
        for await (const reply of recordsOf(records, { kind: 'thread-replies', threadId })) if (reply['authorId'] === authorId) yield ownComment(reply);
      }
    }
  }
}

/** A file's name as a ZIP entry's last part: no folders, no control characters, never empty. */
export const zipSafeName = (name: string): string =>
  [...name].map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 || '/\\:*?"<>|'.includes(c) ? '_' : c)).join('').slice(0, 120) || 'file';

const README = (email: string, at: string) =>
  [
    `Your data from ${PRODUCT_NAME}, for ${email}, gathered on ${at}.`,
    '',
    'account.json: your profile and everything kept with your account (settings, plan, credits and their history).',
    'enrolments.json: the courses you are enrolled in, with your progress.',
    'left-courses.json: the courses you were enrolled in and left (or were removed from), with your progress then.',
    'quiz-attempts/<course>.json: your quiz attempts and scores in each course.',
    'submissions/<course>.json: every submission of each assignment in each course, with its feedback; earlier ones a later one replaced are marked "superseded": true.',
    'files/<course>/<lesson>/: the files you uploaded with your submissions.',
    'comments.json: your comments and replies in lesson discussions, in every course you were ever in.',
    'certificates.json: the certificates issued to you.',
    'orders.json: what you bought (courses and bundles), what you paid and its status, including refunded orders.',
    'creator/: for a creator, your courses, the learners in your CRM and your support requests.',
    '',
  ].join('\n');

/** The email with the link: what it is, that it works for 24 hours, and how to get another. */
export const personalExportEmail = (input: { url: string; expiresAt: string; appOrigin: string }): EmailMessage => {
  const until = new Date(input.expiresAt).toUTCString().replace(/:\d\d GMT$/, ' UTC');
  const subject = `${PRODUCT_NAME}: your data is ready to download`;
  const explain = `The link works until ${until}. After that, request a new copy from your profile.`;
  const text = ['Your data is ready to download as a ZIP file.', '', input.url, '', explain, `Profile: ${input.appOrigin.replace(/\/$/, '')}/profile`].join('\n');
  const html = emailHtml(`<h1 style="margin:0 0 16px;font-size:20px">Your data is ready</h1>
<p style="margin:0 0 16px;line-height:1.5">Your data is ready to download as a ZIP file.</p>
<p style="margin:0 0 16px;line-height:1.5"><a href="${escapeHtml(input.url)}" style="color:#18181b">Download my data</a></p>
<p style="margin:0;line-height:1.5">${escapeHtml(explain)}</p>`);
  return { subject, text, html };
};

/** One step of the export's plan: the README, a JSON file of records, the comments, a course's uploaded files. */
export type ExportStep =
  | { readonly kind: 'readme' }
  | { readonly kind: 'records'; readonly file: ExportFile }
  | { readonly kind: 'comments' }
  | { readonly kind: 'uploads'; readonly courseId: string };

/**
 * The plan of a person's ZIP, step by step. The steps after the fixed files follow from the courses the person is or
 * was enrolled in, which the enrolments' and left courses' steps read: the plan's beginning is the same whatever was
 * read, so a run resumed at step `n` finds the same step `n` (the steps after those are only reached once both are
 * read whole).
 */
export const exportSteps = (userId: string, person: { role: string; email: string }, courseIds: readonly string[]): ExportStep[] => [
  { kind: 'readme' },
  ...exportFiles(userId, person.role, person.email).map((file): ExportStep => ({ kind: 'records', file })),
  ...exportFilesAfter(userId, courseIds).map((file): ExportStep => ({ kind: 'records', file })),
  { kind: 'comments' },
  ...[...new Set(courseIds)].map((courseId): ExportStep => ({ kind: 'uploads', courseId })),
];

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** The progress a slice works on: changed in place by the gathering, saved as it stands at each of its pauses. */
type Working = Omit<Mutable<ExportProgress>, 'at' | 'parts' | 'courseIds' | 'ownCourseIds'> & {
  at: Mutable<ExportPosition>;
  parts: { n: number; etag: string }[];
  courseIds: string[];
  ownCourseIds: string[];
};

/**
 * The gathering from where `p` stands, written into `zip`: it pauses (yields) after each unit of work, a page of
 * records, a course's comments, a chunk of an uploaded file, with `p` and the ZIP's state saying exactly where it is,
 * so the run can be saved at any pause and resumed from there by another slice.
 */
async function* gather(deps: PersonalExportDeps, userId: string, person: { role: string; email: string }, p: Working, zip: ZipArchive): AsyncGenerator<void> {
  for (;;) {
    const step = exportSteps(userId, person, p.courseIds)[p.at.step];
    if (!step) return;
    if (step.kind === 'readme') {
      await zip.open('README.txt');
      await zip.put(README(person.email, p.startedAt));
      await zip.close();
    } else if (step.kind === 'records') {
      const { name, source } = step.file;
      // A file already open is this step's, resumed: its '[' and first records are written.
      if (!zip.current()) {
        await zip.open(name);
        await zip.put('[');
      }
      for (;;) {
        const page = await deps.records.page(source, p.at.cursor);
        for (const record of page.items) {
          await zip.put(`${p.at.count === 0 ? '\n' : ',\n'}${JSON.stringify(record)}`);
          p.at.count++;
          p.records++;
          // Active and left enrolments alike: the person's attempts, submissions and comments stay in a course they left.
          const enrolment = source.kind === 'enrolments' || source.kind === 'left-enrolments';
          if (enrolment && typeof record['courseId'] === 'string' && !p.courseIds.includes(record['courseId'])) p.courseIds.push(record['courseId']);
          if (source.kind === 'courses' && typeof record['id'] === 'string') p.ownCourseIds.push(record['id']);
        }
        if (!page.nextCursor) break;
        p.at.cursor = page.nextCursor;
        yield;
      }
      await zip.put(p.at.count === 0 ? ']\n' : '\n]\n');
      await zip.close();
    } else if (step.kind === 'comments') {
      if (!zip.current()) {
        await zip.open('comments.json');
        await zip.put('[');
      }
      // A course's comments are one unit: the person's own in a course are few, whatever its discussions hold.
      const courseIds = [...new Set([...p.courseIds, ...p.ownCourseIds])];
      for (let course = p.at.index ?? 0; course < courseIds.length; course++) {
        for await (const comment of ownComments(deps.records, userId, [courseIds[course]!])) {
          await zip.put(`${p.at.count === 0 ? '\n' : ',\n'}${JSON.stringify(comment)}`);
          p.at.count++;
          p.records++;
        }
        p.at.index = course + 1;
        yield;
      }
      await zip.put(p.at.count === 0 ? ']\n' : '\n]\n');
      await zip.close();
    } else {
      // The uploads' bytes, streamed from the files bucket chunk by chunk; one started but never sent is skipped. A
      // file a slice ended in is read on from the byte after the last it wrote (the open entry's size).
      const { courseId } = step;
      for (;;) {
        const page = await deps.records.page({ kind: 'submission-files', courseId, learnerId: userId }, p.at.cursor);
        for (; (p.at.index ?? 0) < page.items.length; p.at.index = (p.at.index ?? 0) + 1) {
          const { id, lessonId, name } = page.items[p.at.index ?? 0]!;
          if (typeof id !== 'string' || typeof lessonId !== 'string') continue;
          const from = zip.current()?.size ?? 0;
          const bytes = await deps.uploads.open(submissionFileKey({ courseId, lessonId, learnerId: userId, id }), from);
          if (!bytes && !zip.current()) continue;
          if (!zip.current()) await zip.open(`files/${courseId}/${lessonId}/${id}-${zipSafeName(typeof name === 'string' ? name : '')}`);
          for await (const chunk of bytes ?? []) {
            await zip.put(chunk);
            yield;
          }
          await zip.close();
          p.files++;
        }
        if (!page.nextCursor) break;
        p.at.cursor = page.nextCursor;
        p.at.index = 0;
        yield;
      }
    }
    p.at = { step: p.at.step + 1, count: 0 };
    yield;
  }
}

const concat = (chunks: readonly Uint8Array[], length: number): Uint8Array => {
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
};

type ExportCounts = { written: number; skipped: number; records: number; files: number; parts: number };

/**
 * The job's work on a slice (decision 0062): the ZIP goes on from where the last slice saved it, part by part, and
 * stops when the slice's time is up; no invocation needs to write it all. Every part written is saved in the export's
 * item with the ZIP's state and where the gathering stands (a conditional update: one delivery's save wins), and a
 * slice that ends short of a part carries its bytes to the next in an object of their own. Killed at any point, the
 * slice is delivered again and goes on from the last save: it writes again at most the part it was on, under the
 * same number, which replaces it. A delivery of a slice the run has gone past stops at once. Once everything is
 * written: the last part, a save that says so, the upload completed (again, harmlessly, after a kill) and the export
 * made ready with its email.
 */
export const personalExportWork =
  (deps: PersonalExportDeps): SliceWork<ExportCounts> =>
  async (slice, timeUp) => {
    const { userId, exportId } = slice.input as { userId: string; exportId: string };
    const skipped = { counts: { written: 0, skipped: 1, records: 0, files: 0, parts: 0 } };
    const found = await deps.exports.get(userId, exportId);
    const person = await deps.records.person(userId);
    if (!found || found.status !== 'pending' || !person) return skipped;
    if (found.progress && found.progress.seq > slice.seq) return skipped;
    const key = exportKey(userId, exportId);

    let saved = found.progress;
    if (!saved) {
      const uploadId = await deps.files.begin(key, { contentType: 'application/zip' });
      const first: ExportProgress = {
        version: 1,
        seq: slice.seq,
        uploadId,
        startedAt: deps.clock.now().toISOString(),
        parts: [],
        zip: EMPTY_ZIP,
        at: { step: 0, count: 0 },
        courseIds: [],
        ownCourseIds: [],
        records: 0,
        files: 0,
      };
      // Another delivery began first: its upload is the run's, this one is given up.
      if (!(await deps.exports.saveProgress({ userId, exportId, progress: first }))) {
        await deps.files.abort(key, uploadId);
        return skipped;
      }
      saved = first;
    }
    const p: Working = structuredClone(saved) as Working;
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const take = () => {
      const bytes = concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      return bytes;
    };
    const save = async (zip: ZipState): Promise<boolean> => {
      const next: ExportProgress = { ...structuredClone(p), version: p.version + 1, seq: slice.seq, zip };
      if (!(await deps.exports.saveProgress({ userId, exportId, progress: next }))) return false;
      p.version = next.version;
      p.seq = slice.seq;
      return true;
    };
    const writePart = async () => {
      const n = p.parts.length + 1;
      p.parts.push({ n, etag: await deps.files.part(key, p.uploadId, n, take()) });
      p.carry = undefined;
    };
    const counts = (written: boolean): ExportCounts => ({ written: written ? 1 : 0, skipped: written ? 0 : 1, records: p.records, files: p.files, parts: p.parts.length });

    if (!p.finished) {
      if (p.carry) {
        const carried = await deps.files.carried(key, p.carry.version);
        if (carried?.length !== p.carry.bytes) throw new Error(`The bytes carried by save ${p.carry.version} of ${key} are not there`);
        pending.push(carried);
        pendingBytes = carried.length;
      }
      const zip = zipArchive(
        async (bytes) => {
          pending.push(bytes);
          pendingBytes += bytes.length;
        },
        new Date(p.startedAt),
        p.zip,
      );
      for await (const _pause of gather(deps, userId, person, p, zip)) {
        if (pendingBytes >= deps.partBytes) {
          await writePart();
          if (!(await save(zip.state()))) return { counts: counts(false) };
          if (timeUp()) return { cursor: String(p.version), counts: counts(false) };
        } else if (timeUp()) {
          // Short of a part: its bytes wait for the next slice in an object of their own (parts but the last are >= 5 MiB).
          const version = p.version + 1;
          const bytes = take();
          await deps.files.carry(key, version, bytes);
          p.carry = { version, bytes: bytes.length };
          if (!(await save(zip.state()))) return { counts: counts(false) };
          return { cursor: String(p.version), counts: counts(false) };
        }
      }
      await zip.end();
      await writePart();
      p.finished = true;
      if (!(await save(zip.state()))) return { counts: counts(false) };
    }

    const link = await deps.files.complete(key, p.uploadId, p.parts, { fileName: EXPORT_FILE_NAME, linkSeconds: LINK_SECONDS });
    const email = personalExportEmail({ ...link, appOrigin: deps.appOrigin });
    const at = deps.clock.now().toISOString();
    const mail: QueuedMail = { id: `personal-export:${exportId}`, to: person.email, ...email, queuedAt: at, dueAt: at, tries: 0 };
    const marked = await deps.exports.markReady({ userId, exportId, readyAt: at, linkExpiresAt: link.expiresAt, mail });
    // Only the run that moved it to ready queued the email: it starts the sender (a start lost here is the next minute's).
    if (marked) await deps.startSender(`personal-export@${exportId}`);
    return { counts: counts(marked) };
  };
