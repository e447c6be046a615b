import { membershipRepository } from '#functions/composition/deps-memberships.ts';
import { quizAttemptBody, type QuizAttemptResult } from '#contracts/courses.ts';
import { submitQuizAttempt } from '#core/enrollments/quiz-attempts.ts';
import { clock, courseRepository, enrollmentRepository, licenseReader, quizAttemptRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/learner/courses/{courseId}/lessons/{lessonId}/attempts: graded on the server; answers score, pass, attempts left. */
export const handler = httpRoute({ route: 'quiz-attempt', body: quizAttemptBody }, ({ auth, params, body }): Promise<QuizAttemptResult> =>
  submitQuizAttempt(
    { courses: courseRepository(), enrollments: enrollmentRepository(), licenses: licenseReader(), memberships: membershipRepository(), quizzes: quizAttemptRepository(), clock },
    { learnerId: auth.userId, courseId: params['courseId']!, lessonId: params['lessonId']!, body, ...(body.timeZone ? { timeZone: body.timeZone } : {}) },
  ),
);
