import type { CourseReport } from '@contracts/reports.ts';

/** A course of 40 learners: the funnel drops at lesson 2 and at the quiz; one quiz of two questions. */
export const report: CourseReport = {
  courseId: 'c1',
  title: 'Watercolour for Beginners',
  enrolled: 40,
  started: 32,
  completed: 12,
  completionRate: 0.3,
  lessons: [
    { lessonId: 'l1', title: 'Brushes and paper', kind: 'text', reached: 32, completed: 30 },
    { lessonId: 'l2', title: 'Washes', kind: 'video', reached: 22, completed: 18 },
    { lessonId: 'q1', title: 'Check yourself', kind: 'quiz', reached: 15, completed: 12 },
  ],
  quizzes: [
    {
      lessonId: 'q1',
      title: 'Check yourself',
      attempts: 20,
      passRate: 0.6,
      questions: [
        { prompt: 'Which paper holds water best?', answers: 20, correctRate: 0.85 },
        { prompt: 'What is a wet-on-wet wash?', answers: 20, correctRate: 0.45 },
      ],
    },
  ],
};

/** The same course before any learner did anything. */
export const emptyReport: CourseReport = {
  ...report,
  enrolled: 0,
  started: 0,
  completed: 0,
  completionRate: 0,
  lessons: report.lessons.map((l) => ({ ...l, reached: 0, completed: 0 })),
  quizzes: report.quizzes.map((q) => ({ ...q, attempts: 0, passRate: 0, questions: q.questions.map((x) => ({ ...x, answers: 0, correctRate: 0 })) })),
};
