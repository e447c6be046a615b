import { analyticsQuery, type CreatorAnalytics } from '#contracts/sales.ts';
import { creatorAnalytics } from '#core/sales/sales.ts';
import { bundleRepository } from '#functions/composition/deps-bundles.ts';
import { clock, courseRepository, orderRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/creator/analytics?days=30|90|365: revenue, sales and refunds by day and by course or bundle, from the day counters. */
export const handler = httpRoute({ route: 'creator-analytics', query: analyticsQuery }, ({ auth, query }): Promise<CreatorAnalytics> =>
  creatorAnalytics({ orders: orderRepository(), courses: courseRepository(), bundles: bundleRepository(), clock }, { creatorId: auth.userId, days: query.days }),
);
