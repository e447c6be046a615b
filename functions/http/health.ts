import type { HealthResponse } from '#contracts/health.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/health: the API answers. Touches no dependency, so it stays cheap for load balancers and probes. */
export const handler = httpRoute({ route: 'health' }, (): HealthResponse => ({ status: 'ok' }));
