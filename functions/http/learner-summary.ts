import { learnerSummaryQuery } from '#contracts/courses.ts';
import { learnerSummary } from '#core/enrollments/learner-courses.ts';
import { clock, enrollmentRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/summary?timeZone=: 'My Learning' (counts, study streak in the learner's zone, continue learning). */
export const handler = httpRoute({ route: 'learner-summary', query: learnerSummaryQuery }, ({ auth, query }) =>
  learnerSummary({ enrollments: enrollmentRepository(), clock }, { learnerId: auth.userId, ...query }),
);
