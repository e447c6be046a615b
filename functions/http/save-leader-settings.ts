import { leaderSettingsBody, type LeaderSettings } from '#contracts/licenses.ts';
import { saveLeaderSettings } from '#core/licenses/leader-settings.ts';
import { clock, leaderSettingsRepository, userRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PUT /api/leader/settings: the profile and the weekly email choice, saved at once. */
export const handler = httpRoute({ route: 'save-leader-settings', body: leaderSettingsBody }, ({ auth, body }): Promise<LeaderSettings> =>
  saveLeaderSettings({ leaderSettings: leaderSettingsRepository(), users: userRepository(), clock }, { leaderId: auth.userId, body }),
);
