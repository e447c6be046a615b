import { pageQuery } from '#contracts/common.ts';
import type { LicenseList } from '#contracts/licenses.ts';
import { leaderLicenses } from '#core/licenses/licenses.ts';
import { licenseRepository, subscriptionReader } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/leader/licenses?cursor=&limit=: the leader's own licences, a page at a time, each saying whether its creator's plan allows the import of members. */
export const handler = httpRoute({ route: 'leader-licenses', query: pageQuery }, ({ auth, query }): Promise<LicenseList> =>
  leaderLicenses({ licenses: licenseRepository(), billing: subscriptionReader() }, { leaderId: auth.userId, ...query }),
);
