import type { CreatorStats } from '#contracts/courses.ts';
import { creatorStats } from '#core/crm/creator-stats.ts';
import { courseRepository, crmRepository } from '#functions/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/creator/stats: the dashboard's cards from the creator's counters and newest courses (two reads). */
export const handler = httpRoute({ route: 'creator-stats' }, ({ auth }): Promise<CreatorStats> =>
  creatorStats({ crm: crmRepository(), courses: courseRepository() }, auth.userId),
);
