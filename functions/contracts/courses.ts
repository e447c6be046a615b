import * as z from 'zod';
import { isoDate } from './common.ts';
import { brandingView } from './branding.ts';
import { courseFile } from './files.ts';

/** Courses, lessons, enrolments, learner progress and the creator's CRM (API.md; docs/api.md "Courses"). */

export const COURSE_TITLE_MAX = 200;
export const COURSE_DESCRIPTION_MAX = 5000;
export const LESSON_TITLE_MAX = 200;
/** A text lesson's HTML (sanitized on save: headings, paragraphs, lists, links, emphasis, code, quotes). */
export const LESSON_BODY_MAX = 100_000;
export const LESSONS_PER_COURSE_MAX = 200;
export const NOTES_MAX = 10_000;
export const RECOMMENDATION_MAX = 2000;
/** A learner with no lesson activity for this many days is marked 'stalled' in the CRM. */
export const STALLED_AFTER_DAYS = 14;
/** SPEC.md: the quick actions' texts. */
export const SEND_RESOURCES_TEXT = 'Additional resources for your learning journey';
export const SEND_ENCOURAGEMENT_TEXT = 'Motivational message';

/** Course prices are in pence (GBP); 0 = not for sale. Stripe's smallest GBP charge is 30p; the largest taken here £10,000. */
export const COURSE_CURRENCY = 'gbp';
export const PRICE_MIN_PENCE = 30;
export const PRICE_MAX_PENCE = 1_000_000;
export const priceAmount = z
  .number()
  .int('Prices are whole pence.')
  .min(0)
  .max(PRICE_MAX_PENCE, 'Prices go up to £10,000.')
  .refine((pence) => pence === 0 || pence >= PRICE_MIN_PENCE, 'A price is 0 (not for sale) or at least £0.30.');

export const courseStatuses = ['draft', 'published'] as const;
export const courseStatus = z.enum(courseStatuses);
export type CourseStatus = z.infer<typeof courseStatus>;
export const lessonKinds = ['text', 'video', 'quiz', 'assignment'] as const;
export const lessonKind = z.enum(lessonKinds);
export type LessonKind = z.infer<typeof lessonKind>;

/**
 * The video URLs a lesson accepts: YouTube (watch, youtu.be, embed, shorts), Vimeo (vimeo.com/<id>), or a direct
 * https `.mp4`/`.webm` file. Anything else is 400. The web app embeds YouTube through youtube-nocookie.com and Vimeo
 * with `dnt=1`; files play in a <video> element.
 */
export type VideoSource = { provider: 'youtube' | 'vimeo'; id: string } | { provider: 'file'; url: string };

export const parseVideoUrl = (value: string): VideoSource | undefined => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return undefined;
  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.)/, '');
  const youtubeId = /^[\w-]{11}$/;
  if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    const fromQuery = url.pathname === '/watch' ? url.searchParams.get('v') : null;
    const fromPath = /^\/(?:embed|shorts|live)\/([\w-]{11})\/?$/.exec(url.pathname)?.[1];
    const id = fromQuery ?? fromPath;
    return id && youtubeId.test(id) ? { provider: 'youtube', id } : undefined;
  }
  if (host === 'youtu.be') {
    const id = /^\/([\w-]{11})\/?$/.exec(url.pathname)?.[1];
    return id ? { provider: 'youtube', id } : undefined;
  }
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const id = /^\/(?:video\/)?(\d{6,12})\/?$/.exec(url.pathname)?.[1];
    return id ? { provider: 'vimeo', id } : undefined;
  }
  if (/\.(mp4|webm)$/i.test(url.pathname)) return { provider: 'file', url: url.toString() };
  return undefined;
};

export const videoUrl = z
  .string()
  .max(2000)
  .refine((value) => parseVideoUrl(value) !== undefined, 'Use a YouTube or Vimeo link, or an https link to an .mp4 or .webm file.');

/* ---------- Quizzes (issue 15; API.md "Quizzes and certificates") ---------- */

export const QUIZ_QUESTIONS_MAX = 50;
export const QUIZ_OPTIONS_MIN = 2;
export const QUIZ_OPTIONS_MAX = 10;
export const QUIZ_PROMPT_MAX = 1000;
export const QUIZ_OPTION_MAX = 300;
export const QUIZ_ATTEMPTS_MAX = 100;
export const questionTypes = ['single', 'multiple'] as const;

/** One question as the creator writes it: `correct` holds the indexes of the right options (exactly one for `single`). */
export const quizQuestion = z
  .strictObject({
    prompt: z.string().trim().min(1, 'Write the question.').max(QUIZ_PROMPT_MAX),
    type: z.enum(questionTypes),
    options: z
      .array(z.string().trim().min(1, 'An option cannot be empty.').max(QUIZ_OPTION_MAX))
      .min(QUIZ_OPTIONS_MIN, `Give at least ${QUIZ_OPTIONS_MIN} options.`)
      .max(QUIZ_OPTIONS_MAX, `Give at most ${QUIZ_OPTIONS_MAX} options.`),
    correct: z.array(z.number().int().min(0)).min(1, 'Mark the right answer.').max(QUIZ_OPTIONS_MAX),
  })
  .superRefine((q, ctx) => {
    if (q.correct.some((i) => i >= q.options.length)) ctx.addIssue({ code: 'custom', message: 'A right answer must be one of the options.', path: ['correct'] });
    if (new Set(q.correct).size !== q.correct.length) ctx.addIssue({ code: 'custom', message: 'Mark each right answer once.', path: ['correct'] });
    if (q.type === 'single' && q.correct.length !== 1) ctx.addIssue({ code: 'custom', message: 'A single-choice question has exactly one right answer.', path: ['correct'] });
  });
export type QuizQuestion = z.infer<typeof quizQuestion>;

/** A quiz lesson's quiz: the pass mark (percent of questions answered exactly right), an optional attempt limit, shuffle. */
export const quizDefinition = z.strictObject({
  passPercent: z.number().int().min(1).max(100),
  /** Attempts a learner has; null or absent: unlimited. */
  maxAttempts: z.number().int().min(1).max(QUIZ_ATTEMPTS_MAX).nullable().default(null),
  /** Each learner sees the questions and their options in an order of their own (the same on every visit). */
  shuffle: z.boolean().default(false),
  questions: z.array(quizQuestion).min(1, 'Add at least one question.').max(QUIZ_QUESTIONS_MAX),
});
export type QuizDefinition = z.infer<typeof quizDefinition>;

/** How a learner's answers were marked, shown once they have no attempt left or passed: per question, in the order shown. */
export const quizReview = z.array(z.object({ correct: z.boolean(), rightOptions: z.array(z.number().int().min(0)) }));
export type QuizReview = z.infer<typeof quizReview>;

/** A quiz as the learner sees it: never the right answers, unless `review` (after the final attempt or a pass). */
export const learnerQuiz = z.object({
  passPercent: z.number().int(),
  maxAttempts: z.number().int().nullable(),
  /** In the order this learner sees them (shuffled when the quiz shuffles); answers are indexes into these options. */
  questions: z.array(z.object({ prompt: z.string(), type: z.enum(questionTypes), options: z.array(z.string()) })),
  attempts: z.number().int().min(0),
  /** null: unlimited. */
  attemptsLeft: z.number().int().min(0).nullable(),
  bestScore: z.number().int().min(0).max(100).nullable(),
  passed: z.boolean(),
  review: quizReview.nullable(),
});
export type LearnerQuiz = z.infer<typeof learnerQuiz>;



export const quizAttemptResult = z.object({
  /** Percent of the questions answered exactly right. */
  score: z.number().int().min(0).max(100),
  passed: z.boolean(),
  attemptsLeft: z.number().int().min(0).nullable(),
  /** The course's progress after this attempt (a pass completes the lesson) and its completion. */
  progress: z.number().int().min(0).max(100),
  completedAt: isoDate.nullable(),
  review: quizReview.nullable(),
});
export type QuizAttemptResult = z.infer<typeof quizAttemptResult>;

/** A learner's results in one quiz of a course, for the creator's CRM. */
export const quizScore = z.object({ lessonId: z.string(), title: z.string(), attempts: z.number().int(), bestScore: z.number().int().nullable(), passed: z.boolean() });
export type QuizScore = z.infer<typeof quizScore>;

/* ---------- Drip release (issue 33 part 1; API.md "Drip release and email sequences") ---------- */

export const RELEASE_DAYS_MAX = 365;
export const releaseKinds = ['immediate', 'date', 'afterEnrollment'] as const;

/** An assignment's instructions as typed (the platform's Markdown, functions/contracts/markdown.ts). */
export const ASSIGNMENT_INSTRUCTIONS_MAX = 20_000;

/**
 * An assignment lesson's task (issue 35 point 2), as the creator writes it: instructions in Markdown, and whether the
 * learner may hand in files besides text.
 */
export const assignmentDefinition = z.strictObject({
  instructions: z.string().trim().min(1, 'Write the instructions.').max(ASSIGNMENT_INSTRUCTIONS_MAX, `Use at most ${ASSIGNMENT_INSTRUCTIONS_MAX} characters.`),
  acceptsFiles: z.boolean().default(false),
});
export type AssignmentDefinition = z.infer<typeof assignmentDefinition>;

/** An assignment as stored and shown: the instructions beside their rendering (`html`), sanitized with the lesson rules on save. */
export const lessonAssignment = z.object({ instructions: z.string(), html: z.string(), acceptsFiles: z.boolean() });
export type LessonAssignment = z.infer<typeof lessonAssignment>;

/**
 * When a lesson opens to a learner: at once, at a moment (`at`, the same for everyone), or `days` whole days (24 h each)
 * after that learner's enrolment. Until then the learner sees its title and opening date and nothing of it
 * (core/enrollments/drip.ts); when it opens they get one email "A new lesson is ready", unless it was open from the start.
 */
export const lessonRelease = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('immediate') }),
  z.strictObject({ kind: z.literal('date'), at: isoDate }),
  z.strictObject({ kind: z.literal('afterEnrollment'), days: z.number().int().min(1, 'Open it at least 1 day after enrolment.').max(RELEASE_DAYS_MAX, `Open it at most ${RELEASE_DAYS_MAX} days after enrolment.`) }),
]);
export type LessonRelease = z.infer<typeof lessonRelease>;
export const IMMEDIATE: LessonRelease = { kind: 'immediate' };
/** A lesson's release, absent meaning immediate. */
export const releaseOf = (lesson: { release?: LessonRelease | undefined }): LessonRelease => lesson.release ?? IMMEDIATE;

/** A lesson as stored: its own fields, without the files (separate items, docs/data-model.md pattern 27). */
export const lessonRecord = z.object({
  id: z.string(),
  courseId: z.string(),
  title: z.string(),
  kind: lessonKind,
  /** Sanitized HTML (text lessons). */
  body: z.string().nullable(),
  videoUrl: z.string().nullable(),
  /** A quiz lesson's quiz, right answers included (the creator's view; a learner gets `learnerQuiz`). */
  quiz: quizDefinition.nullable().default(null),
  /** An assignment lesson's task (lessons saved before assignments have none). */
  assignment: lessonAssignment.nullable().optional(),
  /** 0-based place in the course. */
  position: z.number().int().min(0),
  /** Drip release; absent (lessons saved before drip existed): immediate. */
  release: lessonRelease.optional(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type LessonRecord = z.infer<typeof lessonRecord>;

/**
 * A lesson as its creator sees it: with its uploaded files (docs/api.md "Course files"), those still uploading too, so
 * the editor can offer to resume them. A video lesson plays its `videoUrl` or its uploaded video (never both: the
 * one set last wins), or neither yet.
 */
export const lesson = lessonRecord.extend({ files: z.array(courseFile) });
export type Lesson = z.infer<typeof lesson>;

/** A course as GET /api/courses lists it. */
export const courseSummary = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: courseStatus,
  lessonCount: z.number().int().min(0),
  enrolledCount: z.number().int().min(0),
  /** Pence; 0 = not for sale (courses saved before prices existed have 0). */
  priceAmount: z.number().int().min(0).default(0),
  /** Pence per seat of a team licence; 0 = no team sales. */
  seatPriceAmount: z.number().int().min(0).default(0),
  createdAt: isoDate,
});
export type CourseSummary = z.infer<typeof courseSummary>;

/** GET/PATCH /api/courses/{courseId} and POST /api/courses: the course with its lessons in order. */
export const course = courseSummary.extend({ updatedAt: isoDate, lessons: z.array(lesson) });
export type Course = z.infer<typeof course>;

export const courseList = z.object({ items: z.array(courseSummary), nextCursor: z.string().nullable() });

export const createCourseBody = z.strictObject({
  title: z.string().trim().min(1, 'Give the course a title.').max(COURSE_TITLE_MAX),
  description: z.string().trim().max(COURSE_DESCRIPTION_MAX).optional(),
});
export type CreateCourseBody = z.infer<typeof createCourseBody>;

export const updateCourseBody = z
  .strictObject({
    title: createCourseBody.shape.title.optional(),
    description: z.string().trim().max(COURSE_DESCRIPTION_MAX).optional(),
    status: courseStatus.optional(),
    priceAmount: priceAmount.optional(),
    seatPriceAmount: priceAmount.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Send at least one of title, description, status, priceAmount, seatPriceAmount.');
export type UpdateCourseBody = z.infer<typeof updateCourseBody>;

const lessonTitle = z.string().trim().min(1, 'Give the lesson a title.').max(LESSON_TITLE_MAX);

/**
 * POST /api/courses/{courseId}/lessons: a text lesson takes `body`, a video lesson may take `videoUrl` (or get its
 * video uploaded afterwards, docs/api.md "Course files"), a quiz lesson takes `quiz` (and only a quiz lesson does).
 */
export const createLessonBody = z
  .strictObject({
    title: lessonTitle,
    kind: lessonKind,
    body: z.string().max(LESSON_BODY_MAX).optional(),
    videoUrl: videoUrl.optional(),
    quiz: quizDefinition.optional(),
    assignment: assignmentDefinition.optional(),
    /** Absent: immediate. */
    release: lessonRelease.optional(),
  })
  .refine((b) => (b.kind === 'text' ? b.videoUrl === undefined : true), { message: 'A text lesson has no videoUrl.', path: ['videoUrl'] })
  .refine((b) => (b.kind === 'quiz') === (b.quiz !== undefined), { message: 'A quiz lesson takes a quiz, and only a quiz lesson does.', path: ['quiz'] })
  .refine((b) => b.kind !== 'quiz' || (b.body === undefined && b.videoUrl === undefined), { message: 'A quiz lesson has no body or videoUrl.', path: ['kind'] })
  .refine((b) => (b.kind === 'assignment') === (b.assignment !== undefined), { message: 'An assignment lesson takes an assignment, and only an assignment lesson does.', path: ['assignment'] })
  .refine((b) => b.kind !== 'assignment' || (b.body === undefined && b.videoUrl === undefined), { message: 'An assignment lesson has no body or videoUrl.', path: ['kind'] });
export type CreateLessonBody = z.infer<typeof createLessonBody>;

/** PATCH /api/courses/{courseId}/lessons/{lessonId}: any of the fields; the result must still be a valid lesson. */
export const updateLessonBody = z
  .strictObject({
    title: lessonTitle.optional(),
    kind: lessonKind.optional(),
    body: z.string().max(LESSON_BODY_MAX).optional(),
    videoUrl: videoUrl.optional(),
    quiz: quizDefinition.optional(),
    assignment: assignmentDefinition.optional(),
    release: lessonRelease.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field.');
export type UpdateLessonBody = z.infer<typeof updateLessonBody>;

/** PUT /api/courses/{courseId}/lessons/order: every lesson id of the course, once, in the new order. */
export const reorderLessonsBody = z.strictObject({ lessonIds: z.array(z.string().min(1)).min(1).max(LESSONS_PER_COURSE_MAX) });
export type ReorderLessonsBody = z.infer<typeof reorderLessonsBody>;

/* ---------- Enrolments ---------- */

export const enrollBody = z.strictObject({ email: z.email().max(254).transform((email) => email.toLowerCase()) });
export type EnrollBody = z.infer<typeof enrollBody>;

/** 201 of POST /api/courses/{courseId}/enrollments; `invited` when the account was created (and emailed) for it. */
export const enrollResponse = z.object({ learnerId: z.string(), email: z.email(), invited: z.boolean() });
export type EnrollResponse = z.infer<typeof enrollResponse>;

/** One learner of a course, as the course's enrolment list shows them. */
export const courseEnrollment = z.object({
  learnerId: z.string(),
  email: z.string(),
  enrolledAt: isoDate,
  progress: z.number().int().min(0).max(100),
  lastActivity: isoDate,
  completedAt: isoDate.nullable(),
});
export type CourseEnrollment = z.infer<typeof courseEnrollment>;
export const courseEnrollmentList = z.object({ items: z.array(courseEnrollment), nextCursor: z.string().nullable() });
/** GET /api/courses/{courseId}/enrollments?cursor=: the next page after `nextCursor`. */
export const courseEnrollmentsQuery = z.strictObject({ cursor: z.string().max(2000).optional() });

/* ---------- Learner side ---------- */

/** IANA time zone of the learner's browser (study streak days are theirs), e.g. Europe/London. */
export const timeZone = z
  .string()
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'Not a time zone.');

export const learnerCourse = z.object({
  courseId: z.string(),
  title: z.string(),
  progress: z.number().int().min(0).max(100),
  lastActivity: isoDate,
  completedAt: isoDate.nullable(),
});
export type LearnerCourse = z.infer<typeof learnerCourse>;
/** GET /api/learner/courses: most recent activity first. */
/** GET /api/learner/courses?cursor=&limit=: a page at a time (`nextCursor` null on the last), each page most recent activity first. */
export const learnerCourseList = z.object({ items: z.array(learnerCourse), nextCursor: z.string().nullable() });
export type LearnerCourseList = z.infer<typeof learnerCourseList>;

/**
 * A lesson as its learner sees it: everything the player shows (text, video, ready files only: a file still uploading
 * is not the learner's business) and whether they completed it; a quiz without its right answers.
 */
export const learnerLesson = lesson
  .pick({ id: true, title: true, kind: true, body: true, videoUrl: true, position: true, files: true })
  .extend({
    completed: z.boolean(),
    quiz: learnerQuiz.nullable(),
    /** An assignment lesson's task (what the learner hands in is theirs: GET .../submissions). */
    assignment: lessonAssignment.nullable().optional(),
    /**
     * A drip lesson not open to this learner yet (issue 33): listed with its title and `availableAt`, and none of its
     * content (body, videoUrl and quiz null, no files); every learner route on it answers 403 LESSON_LOCKED.
     */
    locked: z.boolean().optional(),
    /** When a drip lesson opens (opened) for this learner; null for a lesson open from the start to everyone. */
    availableAt: isoDate.nullable().optional(),
  });
export type LearnerLesson = z.infer<typeof learnerLesson>;

/** 403 LESSON_LOCKED's details: when the lesson opens to this learner. */
export const lessonLockedDetails = z.object({ availableAt: isoDate });

/** The course's own fields as the learner sees them, with their progress in it. */
const learnerCourseHead = z.object({
  courseId: z.string(),
  title: z.string(),
  description: z.string(),
  creatorName: z.string(),
  progress: z.number().int().min(0).max(100),
  lastActivity: isoDate,
  completedAt: isoDate.nullable(),
  /** The creator's school (issue 32) while their plan includes branding: the player wears it. */
  branding: brandingView.nullable(),
});

/** GET /api/learner/courses/{courseId}: the published course with its lessons (bodies included) and which are completed. */
export const learnerCourseDetail = learnerCourseHead.extend({ lessons: z.array(learnerLesson) });
export type LearnerCourseDetail = z.infer<typeof learnerCourseDetail>;

/** One lesson of the outline: no body, video, files or quiz (GET .../lessons/{lessonId} gives those, one lesson at a time). */
export const learnerOutlineLesson = lesson
  .pick({ id: true, title: true, kind: true, position: true })
  .extend({ completed: z.boolean(), locked: z.boolean().optional(), availableAt: isoDate.nullable().optional() });
export type LearnerOutlineLesson = z.infer<typeof learnerOutlineLesson>;

/** GET /api/learner/courses/{courseId}/outline: the course as the player's frame shows it (the lesson list, progress). */
export const learnerCourseOutline = learnerCourseHead.extend({ lessons: z.array(learnerOutlineLesson) });
export type LearnerCourseOutline = z.infer<typeof learnerCourseOutline>;

/** POST /api/learner/courses/{courseId}/lessons/{lessonId}/complete */
export const completeLessonBody = z.strictObject({ timeZone: timeZone.optional() });
export const completeLessonResponse = z.object({ progress: z.number().int().min(0).max(100), completedAt: isoDate.nullable() });
export type CompleteLessonResponse = z.infer<typeof completeLessonResponse>;

/** POST /api/learner/courses/{courseId}/lessons/{lessonId}/attempts: per question (in the order shown), the option indexes chosen. */
export const quizAttemptBody = z.strictObject({
  answers: z.array(z.array(z.number().int().min(0).max(QUIZ_OPTIONS_MAX - 1)).max(QUIZ_OPTIONS_MAX)).min(1).max(QUIZ_QUESTIONS_MAX),
  /** As for completing a lesson: the day a pass counts for the study streak. */
  timeZone: timeZone.optional(),
});
export type QuizAttemptBody = z.infer<typeof quizAttemptBody>;

/** GET /api/learner/summary?timeZone=: 'My Learning'. */
export const learnerSummary = z.object({
  enrolled: z.number().int().min(0),
  completed: z.number().int().min(0),
  /** The learner's certificates (revoked ones do not count). */
  certificates: z.number().int().min(0),
  /** Consecutive days with lesson activity up to today (or yesterday), in the learner's time zone. */
  studyStreak: z.number().int().min(0),
  continueLearning: z.array(learnerCourse),
});
export type LearnerSummary = z.infer<typeof learnerSummary>;
export const learnerSummaryQuery = z.strictObject({ timeZone: timeZone.optional() });

/* ---------- CRM ---------- */

/** One row per enrolment in the creator's courses, with SPEC.md section 3's defaults applied by the server. */
export const crmLearner = z.object({
  id: z.string(),
  /** 'Unknown' when missing. */
  email: z.string(),
  /** When the learner joined (their account's creation). */
  createdAt: isoDate,
  courseId: z.string(),
  /** 'Unknown Course' when missing. */
  courseName: z.string(),
  /** 0 when missing. */
  progress: z.number().int().min(0).max(100),
  /** Falls back to the enrolment date. */
  lastActivity: isoDate,
  /** '' when none. */
  notes: z.string(),
  /** Beyond the spec: no lesson activity for STALLED_AFTER_DAYS days (and not completed). */
  stalled: z.boolean(),
  /** The learner's assignment submissions in this course waiting for the creator's review (submitted, not graded). */
  pendingSubmissions: z.number().int().min(0),
});
export type CrmLearner = z.infer<typeof crmLearner>;
export const crmLearnerList = z.object({ items: z.array(crmLearner), nextCursor: z.string().nullable() });
export type CrmLearnerList = z.infer<typeof crmLearnerList>;
export const crmLearnersQuery = z.strictObject({
  cursor: z.string().max(2000).optional(),
  /** Beyond the spec: only this course's learners. */
  courseId: z.string().max(100).optional(),
});

export const saveNotesBody = z.strictObject({ notes: z.string().max(NOTES_MAX) });
export const savedNotes = z.object({ notes: z.string(), updatedAt: isoDate });
export type SavedNotes = z.infer<typeof savedNotes>;

export const recommendationBody = z.strictObject({ recommendation: z.string().trim().min(1).max(RECOMMENDATION_MAX) });
export const recommendationResponse = z.object({ sent: z.literal(true) });

/** A learner's timeline in the details panel: recommendations sent, newest first. */
export const crmTimelineEntry = z.object({ kind: z.literal('recommendation'), text: z.string(), sentAt: isoDate });
/** GET /api/crm/learners/{learnerId}: the details panel. */
export const crmLearnerDetails = z.object({
  id: z.string(),
  email: z.string(),
  createdAt: isoDate,
  enrollments: z.array(
    crmLearner
      .pick({ courseId: true, courseName: true, progress: true, lastActivity: true, stalled: true, pendingSubmissions: true })
      .extend({ enrolledAt: isoDate, completedAt: isoDate.nullable(), quizzes: z.array(quizScore).default([]) }),
  ),
  notes: z.string(),
  notesUpdatedAt: isoDate.nullable(),
  timeline: z.array(crmTimelineEntry),
});
export type CrmLearnerDetails = z.infer<typeof crmLearnerDetails>;

/* ---------- Creator dashboard ---------- */

/** GET /api/creator/stats: the dashboard's cards, from counters and one page of courses (no scans). */
export const creatorStats = z.object({
  courses: z.number().int().min(0),
  students: z.number().int().min(0),
  /** Percent of enrolments completed, 0-100 (0 with no enrolments). */
  completionRate: z.number().int().min(0).max(100),
  /** Certificates the creator's learners hold (revoked ones do not count). */
  certificates: z.number().int().min(0).default(0),
  /** Pence: this month's course sales (UTC), net of refunds. */
  revenuePence: z.number().int().min(0),
  recentCourses: z.array(courseSummary).max(5),
});
export type CreatorStats = z.infer<typeof creatorStats>;
