import * as z from 'zod';

/**
 * Detailed reports and exports (issue 29 point 3, Pro: feature `detailedReports`; docs/decisions/0045-course-reports.md).
 * Rates are 0..1 (0 when nothing was counted yet); counts are learners, except a quiz's `attempts`.
 */

/**
 * GET /api/creator/reports/courses/{courseId}: `enrolled` learners now; `started` learners with any activity (a lesson
 * opened or completed, a quiz attempted); `completed` learners who completed the course; `completionRate` =
 * completed / enrolled (at most 1). Each lesson in course order: `reached` learners who opened, attempted or completed
 * it, `completed` those who completed it. Each quiz lesson: its `attempts`, `passRate` (passed attempts / attempts),
 * and each question's `correctRate` (right answers / answers).
 */
export const courseReport = z.object({
  courseId: z.string(),
  title: z.string(),
  enrolled: z.number().int().min(0),
  started: z.number().int().min(0),
  completed: z.number().int().min(0),
  completionRate: z.number().min(0).max(1),
  lessons: z.array(z.object({ lessonId: z.string(), title: z.string(), kind: z.string(), reached: z.number().int().min(0), completed: z.number().int().min(0) })),
  quizzes: z.array(
    z.object({
      lessonId: z.string(),
      title: z.string(),
      attempts: z.number().int().min(0),
      passRate: z.number().min(0).max(1),
      questions: z.array(z.object({ prompt: z.string(), answers: z.number().int().min(0), correctRate: z.number().min(0).max(1) })),
    }),
  ),
});
export type CourseReport = z.infer<typeof courseReport>;

export const exportKinds = ['sales', 'learners', 'certificates'] as const;
export const exportKind = z.enum(exportKinds);
export type ExportKind = z.infer<typeof exportKind>;

/**
 * GET /api/creator/exports/{kind}?format=csv&delivery=file|link: 'file' (the default) answers a redirect to the CSV
 * itself; 'link' answers `{url, expiresAt, rows}` (the web app's download buttons).
 */
export const creatorExportQuery = z.strictObject({
  format: z.enum(['csv']).default('csv'),
  delivery: z.enum(['file', 'link']).default('file'),
});

export const creatorExport = z.object({ url: z.url(), expiresAt: z.string(), rows: z.number().int().min(0) });
export type CreatorExport = z.infer<typeof creatorExport>;

/** The header line of each export (one row per sale, per enrolment, per certificate). */
export const EXPORT_HEADERS: Readonly<Record<ExportKind, string>> = {
  sales: 'orderId,paidAt,status,courseId,courseTitle,buyerEmail,price,discount,amount,currency,couponCode,affiliateId,seats',
  learners: 'learnerId,email,courseId,courseTitle,enrolledAt,progress,lastActivity,completedAt',
  certificates: 'certificateId,courseId,courseTitle,learnerId,learnerEmail,learnerName,issuedAt,status,revokedAt',
};
