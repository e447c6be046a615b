import * as z from 'zod';
import { type CourseSubmissionRemovalDeps, removeCourseSubmissions } from '#core/assignments/course-deleted.ts';
import { type DripReplanDeps, replanDrip } from '#core/enrollments/drip-notices.ts';
import { type FileRemovalDeps, removeFiles } from '#core/files/files.ts';
import { firstSlice, type Page, type SliceWork, throughPages } from '#core/jobs/slices.ts';
import { enrolMembersOnPublish, type MembersOnPublishDeps } from '#core/memberships/course-published.ts';

/**
 * Course-wide changes leave the request (issue 28 point 2, docs/decisions/0034-course-changes.md). The route writes the
 * course item and sends the first slice of a 'course-changed' run; the job carries the change to the course's copies:
 * - renamed: the title onto each enrolment and each team licence of the course, each written only if its copy is
 *   older than this rename (`courseTitleAt` < the rename's `titleChangedAt`), so an older run never undoes a newer one;
 *   a run finding the course renamed again (or gone) stops: the newer run carries on.
 * - deleted: the course's files first (uploads aborted, objects deleted, then their items), then its learners'
 *   submissions and their files (kept outside the course's partition: core/assignments/course-deleted.ts), then the
 *   rest of its partition (enrolments, lessons, quiz attempts) removed in batches, the creator's and the platform's
 *   learner figures moved in the same transaction as the enrolments they count.
 * - lesson-deleted: the lesson's files (uploads aborted, objects deleted, then their items).
 * - drip-changed: a lesson's release set or changed: every active enrolment's drip plan due again at its next opening
 *   under the lessons as they are (core/enrollments/drip-notices.ts replanDrip).
 * - published: the course given at once to the live members of each membership that covers it (issue 34;
 *   core/memberships/course-published.ts enrolMembersOnPublish).
 * The files leave the request with the rest, so the course and lesson routes carry no S3 client (their bundles' budget)
 * and a course's thousands of files are removed a batch at a time, within the job's time.
 * The screens do not wait for it: the CRM and the learner's lists read the title from the course item (one BatchGet per
 * page) and leave out the rows of a course that is gone (functions/data/crm.ts, functions/data/enrollments.ts).
 */
export const COURSE_CHANGED_JOB = 'course-changed';

export const courseChange = z.discriminatedUnion('change', [
  /** `version`: the course's `titleChangedAt` written with this title. */
  z.object({ change: z.literal('renamed'), courseId: z.string().min(1), title: z.string(), version: z.string().min(1) }),
  /** `version`: when it was deleted. */
  z.object({ change: z.literal('deleted'), courseId: z.string().min(1), creatorId: z.string().min(1), version: z.string().min(1) }),
  /** `version`: when the lesson was deleted. */
  z.object({ change: z.literal('lesson-deleted'), courseId: z.string().min(1), lessonId: z.string().min(1), version: z.string().min(1) }),
  /** `version`: when the release was written (each change plans from the outline as it is then: an older run is harmless). */
  z.object({ change: z.literal('drip-changed'), courseId: z.string().min(1), version: z.string().min(1) }),
  /** `version`: when it was published (a run finding it unpublished again stops; a later publish has its own run). */
  z.object({ change: z.literal('published'), courseId: z.string().min(1), creatorId: z.string().min(1), version: z.string().min(1) }),
]);
export type CourseChange = z.infer<typeof courseChange>;

/** One run per change: a retried request sends the same first slice, which the queue drops. */
export const courseChangeRun = (change: CourseChange): string => `${COURSE_CHANGED_JOB}@${change.courseId}@${change.version}`;

/** The first slice of a change's run (lane 'main', seq 0), for the job's queue. */
export const courseChangeSlice = (change: CourseChange) => firstSlice(COURSE_CHANGED_JOB, courseChangeRun(change), change);

/** The routes' part: a change's run started, after the course item's write (its first slice on the job's queue). */
export interface CourseChangeJobs {
  start(change: CourseChange): Promise<void>;
}

/** A copy of the title and when it was written (absent: before copies were stamped, so older than any rename). */
export interface TitleCopy {
  readonly id: string;
  readonly courseTitleAt?: string | undefined;
}

/** What the job reads and writes (functions/data/courses.ts, enrollments.ts, licenses.ts). */
export interface CourseChangeStore {
  /** The course item's rename stamp; undefined when the course is gone. */
  course(courseId: string): Promise<{ titleChangedAt?: string | undefined } | undefined>;
  /** One page of the course's enrolments (learner ids), in key order. */
  enrollmentTitles(courseId: string, cursor: string | undefined): Promise<Page<TitleCopy>>;
  /** The title on one enrolment, only if its copy is older than `version`: false when it was not (or it is gone). */
  retitleEnrollment(courseId: string, learnerId: string, title: string, version: string): Promise<boolean>;
  /** One page of the course's team licences (licence ids). */
  licenseTitles(courseId: string, cursor: string | undefined): Promise<Page<TitleCopy>>;
  retitleLicense(licenseId: string, title: string, version: string): Promise<boolean>;
  /**
   * Removes one batch of a deleted course's partition (the enrolments with their counters in one transaction):
   * 'done' when nothing is left, 'present' when the course item is still there (nothing removed).
   */
  removeDeletedCourseBatch(courseId: string, creatorId: string): Promise<{ enrollments: number; other: number } | 'done' | 'present'>;
}

/** A deleted course's or lesson's files: read by course or lesson, their uploads aborted, objects and items removed. */
export type CourseFiles = FileRemovalDeps;

/** Files removed per step of a slice (one DeleteObjects, one batch of item deletes), the time checked between steps. */
export const FILE_BATCH = 100;

/** Enrolments retitled at once in a slice: DynamoDB writes are network-bound. */
const RETITLE_CONCURRENCY = 8;

type Counts = {
  retitled: number;
  unchanged: number;
  licenses: number;
  removed: number;
  removedOther: number;
  files: number;
  submissions: number;
  submissionFiles: number;
  superseded: number;
  planned: number;
  enrolled: number;
};
const zero = (): Counts => ({ retitled: 0, unchanged: 0, licenses: 0, removed: 0, removedOther: 0, files: 0, submissions: 0, submissionFiles: 0, superseded: 0, planned: 0, enrolled: 0 });

/** The cursor of a rename run: 'E<enrolment cursor>' while on the enrolments, then 'L<licence cursor>'. */
const renamed = async (store: CourseChangeStore, change: Extract<CourseChange, { change: 'renamed' }>, cursor: string | undefined, timeUp: () => boolean) => {
  const counts = zero();
  const course = await store.course(change.courseId);
  // Renamed again (a newer run carries the newer title) or deleted: this run has nothing left to do.
  if (!course || course.titleChangedAt !== change.version) return { counts: { ...counts, superseded: 1 } };
  const copy = (retitle: (id: string) => Promise<boolean>, onWrite: () => void) => async (item: TitleCopy) => {
    if (item.courseTitleAt !== undefined && item.courseTitleAt >= change.version) counts.unchanged++;
    else if (await retitle(item.id)) onWrite();
    else counts.unchanged++;
  };
  // Where the licences start: from this slice's cursor only when it was already on them.
  let licenseCursor = cursor?.[0] === 'L' ? cursor.slice(1) || undefined : undefined;
  if ((cursor?.[0] ?? 'E') === 'E') {
    const done = await throughPages({
      cursor: cursor?.slice(1) || undefined,
      timeUp,
      page: (c) => store.enrollmentTitles(change.courseId, c),
      handle: copy((id) => store.retitleEnrollment(change.courseId, id, change.title, change.version), () => counts.retitled++),
      concurrency: RETITLE_CONCURRENCY,
    });
    if (done.cursor !== undefined) return { cursor: `E${done.cursor}`, counts };
    if (timeUp()) return { cursor: 'L', counts };
    licenseCursor = undefined;
  }
  const done = await throughPages({
    cursor: licenseCursor,
    timeUp,
    page: (c) => store.licenseTitles(change.courseId, c),
    handle: copy((id) => store.retitleLicense(id, change.title, change.version), () => counts.licenses++),
  });
  return { cursor: done.cursor === undefined ? undefined : `L${done.cursor}`, counts };
};

/**
 * Files out, FILE_BATCH at a time, the time checked before each batch but the first: true when some are left for the
 * next slice. Each removal is idempotent (an upload or object already gone is fine), so a slice killed midway and
 * delivered again lists what is left and removes it.
 */
const removeFilesOf = async (deps: CourseFiles, list: () => ReturnType<CourseFiles['files']['listByCourse']>, timeUp: () => boolean, counts: Counts): Promise<boolean> => {
  const files = await list();
  for (let start = 0; start < files.length; start += FILE_BATCH) {
    if (start > 0 && timeUp()) return true;
    const batch = files.slice(start, start + FILE_BATCH);
    await removeFiles(deps, batch);
    counts.files += batch.length;
  }
  return false;
};

/**
 * The cursor of a delete run: 'F' (or none) while on the files, 'S' on the submissions (a run started before they were
 * removed here goes from its files to the partition: 'more'), then 'more' on the rest of the partition.
 */
const deleted = async (
  store: CourseChangeStore,
  files: CourseFiles,
  submissions: CourseSubmissionRemovalDeps | undefined,
  change: Extract<CourseChange, { change: 'deleted' }>,
  cursor: string | undefined,
  timeUp: () => boolean,
) => {
  const counts = zero();
  if (cursor !== 'more' && cursor !== 'S') {
    // The course not deleted after all (its request failed before the delete): nothing to remove.
    if (await store.course(change.courseId)) return { counts: { ...counts, superseded: 1 } };
    if (await removeFilesOf(files, () => files.files.listByCourse(change.courseId), timeUp, counts)) return { cursor: 'F', counts };
  }
  if (cursor !== 'more' && submissions) {
    if (counts.files > 0 && timeUp()) return { cursor: 'S', counts };
    if (await removeCourseSubmissions(submissions, change.courseId, timeUp, counts)) return { cursor: 'S', counts };
  }
  for (let batches = 0; ; batches++) {
    if ((batches > 0 || counts.files > 0 || counts.submissions > 0) && timeUp()) return { cursor: 'more', counts };
    const batch = await store.removeDeletedCourseBatch(change.courseId, change.creatorId);
    // 'present': the course was not deleted after all (its request failed before the delete): nothing to remove.
    if (batch === 'done' || batch === 'present') return { counts: { ...counts, superseded: batch === 'present' ? 1 : 0 } };
    counts.removed += batch.enrollments;
    counts.removedOther += batch.other;
  }
};

/** A lesson's files (at most its attachments and a video): the route deleted the lesson, so no new file can join them. */
const lessonDeleted = async (files: CourseFiles, change: Extract<CourseChange, { change: 'lesson-deleted' }>, timeUp: () => boolean) => {
  const counts = zero();
  const more = await removeFilesOf(files, () => files.files.listByLesson(change.courseId, change.lessonId), timeUp, counts);
  return more ? { cursor: 'F', counts } : { counts };
};

/** The job's work on one slice (the handler is functions/jobs/course-changed.ts). */
export const courseChangedWork =
  (store: CourseChangeStore, files: CourseFiles, drip: DripReplanDeps, members?: MembersOnPublishDeps, submissions?: CourseSubmissionRemovalDeps): SliceWork<Counts> =>
  async (slice, timeUp) => {
    const change = courseChange.parse(slice.input);
    if (change.change === 'published') {
      if (!members) return { counts: zero() };
      const { cursor, counts } = await enrolMembersOnPublish(members, change, slice.cursor, timeUp);
      return { ...(cursor === undefined ? {} : { cursor }), counts: { ...zero(), ...counts } };
    }
    if (change.change === 'renamed') return renamed(store, change, slice.cursor, timeUp);
    if (change.change === 'drip-changed') {
      const { cursor, counts } = await replanDrip(drip, change.courseId, slice.cursor, timeUp);
      return { cursor, counts: { ...zero(), ...counts } };
    }
    return change.change === 'deleted' ? deleted(store, files, submissions, change, slice.cursor, timeUp) : lessonDeleted(files, change, timeUp);
  };
