import type { LeaderSettings, LeaderSettingsBody } from '#contracts/licenses.ts';
import type { Clock, LeaderSettingsRepository, StoredLeaderSettings, User, UserRepository } from '#core/ports.ts';

/**
 * The group leader's settings: how they sign and the team they run, and whether the weekly team email comes (on until
 * they turn it off here or through its unsubscribe link).
 */

const view = (user: User | undefined, stored: StoredLeaderSettings | undefined): LeaderSettings => ({
  email: user?.email ?? '',
  name: stored?.name ?? '',
  organization: stored?.organization ?? '',
  weeklyReport: stored?.weeklyReport ?? true,
  updatedAt: stored?.updatedAt ?? null,
});

/** GET /api/leader/settings */
export const leaderSettingsOf = async (
  deps: { leaderSettings: Pick<LeaderSettingsRepository, 'get'>; users: Pick<UserRepository, 'getUser'> },
  leaderId: string,
): Promise<LeaderSettings> => {
  const [user, stored] = await Promise.all([deps.users.getUser(leaderId), deps.leaderSettings.get(leaderId)]);
  return view(user, stored);
};

/** PUT /api/leader/settings: the whole form saved at once; answers what is stored. */
export const saveLeaderSettings = async (
  deps: { leaderSettings: Pick<LeaderSettingsRepository, 'save'>; users: Pick<UserRepository, 'getUser'>; clock: Clock },
  input: { leaderId: string; body: LeaderSettingsBody },
): Promise<LeaderSettings> => {
  const [user, saved] = await Promise.all([
    deps.users.getUser(input.leaderId),
    deps.leaderSettings.save({ leaderId: input.leaderId, ...input.body, updatedAt: deps.clock.now().toISOString() }),
  ]);
  return view(user, saved);
};
