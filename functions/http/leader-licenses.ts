import type { LicenseList } from '#contracts/licenses.ts';
import { leaderLicenses } from '#core/licenses/licenses.ts';
import { licenseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/leader/licenses: the leader's own licences. */
export const handler = httpRoute({ route: 'leader-licenses' }, ({ auth }): Promise<LicenseList> => leaderLicenses({ licenses: licenseRepository() }, auth.userId));
