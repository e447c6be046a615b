import type { AdminStats } from '#contracts/admin.ts';
import { platformStats } from '#core/admin/platform-stats.ts';
import { clock, platformStatsReader } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/admin/stats: the platform figures from counters, 12 trend weeks and the newest activity (three reads). */
export const handler = httpRoute({ route: 'admin-stats' }, (): Promise<AdminStats> => platformStats({ stats: platformStatsReader(), clock }));
