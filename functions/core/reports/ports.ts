/**
 * The course report's figures as stored (summed over their shards: functions/data/course-reports.ts): learners counted
 * once each (`started`, `completed`, each lesson's `reached` and `completed`), a quiz's attempts and passed attempts,
 * and each question's answers and right answers by its key (core/reports/course-report.ts questionKey).
 */
export interface CourseFigures {
  started: number;
  completed: number;
  lessons: Record<string, { reached: number; completed: number }>;
  quizzes: Record<string, { attempts: number; passes: number; questions: Record<string, { answers: number; correct: number }> }>;
}

export interface CourseReportRepository {
  /** The course's figures summed from its shards (one BatchGetItem); zeros before anything was counted. */
  figures(courseId: string): Promise<CourseFigures>;
}

/** One active enrolment of the creator's, as the learners export writes it (the CRM's listing reads the same items). */
export interface LearnerRow {
  courseId: string;
  learnerId: string;
  enrolledAt: string;
  learnerEmail?: string;
  courseTitle?: string;
  progress?: number;
  lastActivity?: string;
  completedAt?: string | null;
}

/** The creator's active enrolments a page at a time, newest first (functions/data/crm.ts learnersPage: one Query each). */
export interface CreatorLearners {
  learnersPage(input: { creatorId: string; cursor?: string; limit: number }): Promise<{ items: LearnerRow[]; cursor?: string }>;
}
