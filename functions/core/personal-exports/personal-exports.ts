import { PERSONAL_EXPORT_LINK_HOURS, type PersonalExportStarted, type PersonalExportStatus } from '#contracts/personal-exports.ts';
import { emailHtml, escapeHtml, PRODUCT_NAME, type EmailMessage } from '#core/accounts/password-reset-email.ts';
import { submissionFileKey } from '#core/assignments/rules.ts';
import { NotFoundError } from '#core/errors.ts';
import { firstSlice, type SliceWork } from '#core/jobs/slices.ts';
import type { ExportLink, QueuedMail } from '#core/ports.ts';
import { type ExportedRecord, PERSONAL_EXPORT_JOB, type PersonalExportDeps, type PersonalExportStore, type PersonalRecords, type RecordSource } from '#core/personal-exports/ports.ts';
import { zipWriter } from '#core/personal-exports/zip.ts';

/**
 * "Download my data" (issue 37 point 1): a request starts a job that gathers every record about the person by key
 * or index, writes them as JSON files into one ZIP streamed to S3, queues an email with a link valid 24 hours and
 * marks the export ready. One pending export per person at a time; the job is idempotent (a second run of a ready
 * export does nothing; of a pending one, writes the same ZIP again over the same key).
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

/** The records as one JSON array, written one at a time (the memory of the source's page); `seen` sees each. */
const writeRecords = async (
  items: AsyncIterable<ExportedRecord>,
  put: (chunk: string) => Promise<void>,
  seen: (record: ExportedRecord) => void = () => undefined,
): Promise<number> => {
  let count = 0;
  await put('[');
  for await (const record of items) {
    await put(`${count === 0 ? '\n' : ',\n'}${JSON.stringify(record)}`);
    seen(record);
    count++;
  }
  await put(count === 0 ? ']\n' : '\n]\n');
  return count;
};

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

/**
 * The job's work on its one slice: the whole ZIP at once (a 50,000-row CRM is ~100 pages of reads within the heavy
 * profile's time); killed halfway, the slice is delivered again and writes it all again over the same key (the
 * half-written upload is aborted, or removed by the bucket's rule for unfinished uploads).
 */
export const personalExportWork =
  (deps: PersonalExportDeps): SliceWork<{ written: number; skipped: number; records: number; files: number }> =>
  async (slice) => {
    const { userId, exportId } = slice.input as { userId: string; exportId: string };
    const found = await deps.exports.get(userId, exportId);
    const person = await deps.records.person(userId);
    if (!found || found.status !== 'pending' || !person) return { counts: { written: 0, skipped: 1, records: 0, files: 0 } };
    const now = deps.clock.now();
    const upload = await deps.files.start(exportKey(userId, exportId), { contentType: 'application/zip', fileName: EXPORT_FILE_NAME, linkSeconds: LINK_SECONDS });
    let records = 0;
    let uploaded = 0;
    let link: { url: string; expiresAt: string };
    try {
      const zip = zipWriter((bytes) => upload.write(bytes), now);
      await zip.file('README.txt', (put) => put(README(person.email, now.toISOString())));
      const courseIds: string[] = [];
      const ownCourseIds: string[] = [];
      for (const file of exportFiles(userId, person.role, person.email)) {
        await zip.file(file.name, async (put) => {
          records += await writeRecords(recordsOf(deps.records, file.source), put, (record) => {
            const enrolment = file.source.kind === 'enrolments' || file.source.kind === 'left-enrolments';
            if (enrolment && typeof record['courseId'] === 'string') courseIds.push(record['courseId']);
            if (file.source.kind === 'courses' && typeof record['id'] === 'string') ownCourseIds.push(record['id']);
          });
        });
      }
      for (const file of exportFilesAfter(userId, courseIds)) {
        await zip.file(file.name, async (put) => {
          records += await writeRecords(recordsOf(deps.records, file.source), put);
        });
      }
      await zip.file('comments.json', async (put) => {
        records += await writeRecords(ownComments(deps.records, userId, [...courseIds, ...ownCourseIds]), put);
      });
      // The uploads' bytes, streamed from the files bucket chunk by chunk; one started but never sent is skipped.
      for (const courseId of new Set(courseIds)) {
        for await (const upload of recordsOf(deps.records, { kind: 'submission-files', courseId, learnerId: userId })) {
          const { id, lessonId, name } = upload;
          if (typeof id !== 'string' || typeof lessonId !== 'string') continue;
          const bytes = await deps.uploads.open(submissionFileKey({ courseId, lessonId, learnerId: userId, id }));
          if (!bytes) continue;
          await zip.file(`files/${courseId}/${lessonId}/${id}-${zipSafeName(typeof name === 'string' ? name : '')}`, async (put) => {
            for await (const chunk of bytes) await put(chunk);
          });
          uploaded++;
        }
      }
      await zip.end();
      link = await upload.finish();
    } catch (error) {
      await upload.abort();
      throw error;
    }
    const email = personalExportEmail({ ...link, appOrigin: deps.appOrigin });
    const at = deps.clock.now().toISOString();
    const mail: QueuedMail = { id: `personal-export:${exportId}`, to: person.email, ...email, queuedAt: at, dueAt: at, tries: 0 };
    const marked = await deps.exports.markReady({ userId, exportId, readyAt: at, linkExpiresAt: link.expiresAt, mail });
    // Only the run that moved it to ready queued the email: it starts the sender (a start lost here is the next minute's).
    if (marked) await deps.startSender(`personal-export@${exportId}`);
    return { counts: { written: marked ? 1 : 0, skipped: marked ? 0 : 1, records, files: uploaded } };
  };
