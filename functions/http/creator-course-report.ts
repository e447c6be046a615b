import type { CourseReport } from '#contracts/reports.ts';
import { courseReport } from '#core/reports/course-report.ts';
import { courseReportDeps } from '#functions/composition/deps-reports.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/creator/reports/courses/{courseId}: the course's report (Pro), from its maintained figures. */
export const handler = httpRoute({ route: 'creator-course-report' }, ({ auth, params }): Promise<CourseReport> =>
  courseReport(courseReportDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '' }),
);
