import type { CreatorStats } from '#contracts/courses.ts';
import { creatorStats } from '#core/crm/creator-stats.ts';
import { clock, courseRepository, crmRepository, orderRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/creator/stats: the dashboard's cards from the creator's counters, newest courses and month's sales (three reads). */
export const handler = httpRoute({ route: 'creator-stats' }, ({ auth }): Promise<CreatorStats> =>
  creatorStats({ crm: crmRepository(), courses: courseRepository(), orders: orderRepository(), clock }, auth.userId),
);
