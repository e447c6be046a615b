import type { LeaderSettings } from '#contracts/licenses.ts';
import { leaderSettingsOf } from '#core/licenses/leader-settings.ts';
import { leaderSettingsRepository, userRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/leader/settings: the leader's profile and weekly email choice. */
export const handler = httpRoute({ route: 'leader-settings' }, ({ auth }): Promise<LeaderSettings> =>
  leaderSettingsOf({ leaderSettings: leaderSettingsRepository(), users: userRepository() }, auth.userId),
);
