import * as z from 'zod';
import { COURSE_DESCRIPTION_MAX, COURSE_TITLE_MAX, LESSON_BODY_MAX, LESSON_TITLE_MAX, quizDefinition } from './courses.ts';

/**
 * AI drafting on the same credits (issue 36; API.md "AI drafting on the same credits"): three tools that each answer
 * an editable draft and save nothing. Prices and ledger names are credits.ts's (`aiPrices`, `aiLedgerActions`).
 */

export const OUTLINE_TOPIC_MAX = 500;
export const OUTLINE_AUDIENCE_MAX = 300;
export const OUTLINE_LESSONS_MIN = 3;
export const OUTLINE_LESSONS_MAX = 20;
export const LESSON_SUMMARY_MAX = 300;
export const QUIZ_DRAFT_QUESTIONS_MIN = 3;
export const QUIZ_DRAFT_QUESTIONS_MAX = 10;

/** POST /api/ai/course-outline (optional Idempotency-Key header, as every charged tool). */
export const courseOutlineBody = z.strictObject({
  topic: z.string().trim().min(1, 'Say what the course is about.').max(OUTLINE_TOPIC_MAX),
  audience: z.string().trim().max(OUTLINE_AUDIENCE_MAX).optional(),
  lessons: z.number().int().min(OUTLINE_LESSONS_MIN, `Ask for at least ${OUTLINE_LESSONS_MIN} lessons.`).max(OUTLINE_LESSONS_MAX, `Ask for at most ${OUTLINE_LESSONS_MAX} lessons.`),
});
export type CourseOutlineBody = z.infer<typeof courseOutlineBody>;

/** A drafted outline: what "Create course from outline" turns into a draft course with empty text lessons. */
export const courseOutlineDraft = z.strictObject({
  title: z.string().trim().min(1).max(COURSE_TITLE_MAX),
  description: z.string().trim().min(1).max(COURSE_DESCRIPTION_MAX),
  lessons: z
    .array(z.strictObject({ title: z.string().trim().min(1).max(LESSON_TITLE_MAX), summary: z.string().trim().min(1).max(LESSON_SUMMARY_MAX) }))
    .min(1)
    .max(OUTLINE_LESSONS_MAX),
});
export type CourseOutlineDraft = z.infer<typeof courseOutlineDraft>;

export const courseOutlineResponse = z.object({ outline: courseOutlineDraft, creditsRemaining: z.number().int().min(0) });
export type CourseOutlineResponse = z.infer<typeof courseOutlineResponse>;

/** POST /api/ai/lesson-draft: the course (the creator's) gives its outline as context. */
export const lessonDraftBody = z.strictObject({
  courseId: z.string().min(1).max(100),
  title: z.string().trim().min(1, 'Give the lesson a title.').max(LESSON_TITLE_MAX),
  summary: z.string().trim().max(LESSON_SUMMARY_MAX).optional(),
});
export type LessonDraftBody = z.infer<typeof lessonDraftBody>;

/** The body is the platform's Markdown (contracts/markdown.ts), sanitized: no HTML, links only to https or mailto. */
export const lessonDraftResponse = z.object({ body: z.string().max(LESSON_BODY_MAX), creditsRemaining: z.number().int().min(0) });
export type LessonDraftResponse = z.infer<typeof lessonDraftResponse>;

/** POST /api/ai/quiz-from-lesson: a text lesson of the creator's course. */
export const quizFromLessonBody = z.strictObject({
  courseId: z.string().min(1).max(100),
  lessonId: z.string().min(1).max(100),
  questions: z.number().int().min(QUIZ_DRAFT_QUESTIONS_MIN).max(QUIZ_DRAFT_QUESTIONS_MAX),
});
export type QuizFromLessonBody = z.infer<typeof quizFromLessonBody>;

/** The quiz passes `quizDefinition` as it is: a new quiz lesson takes it unchanged. */
export const quizFromLessonResponse = z.object({ quiz: quizDefinition, creditsRemaining: z.number().int().min(0) });
export type QuizFromLessonResponse = z.infer<typeof quizFromLessonResponse>;
