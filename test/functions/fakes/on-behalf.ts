import type { PlanLevel } from '#contracts/entitlements.ts';
import type { StoredSubscription } from '#core/ports.ts';
import type { SendQuota } from '#core/mail/ports.ts';
import { memoryDirectory } from '#test/functions/fakes/users.ts';

/** A trial creator's daily sends in memory, with the conditional counter's rule: never past the cap. */
export const memorySendQuota = () => {
  const days = new Map<string, number>();
  const quota: SendQuota = {
    async take(userId, day, cap) {
      const key = `${userId}#${day}`;
      const sent = days.get(key) ?? 0;
      if (sent >= cap) return false;
      days.set(key, sent + 1);
      return true;
    },
  };
  return Object.assign(quota, { days });
};

/**
 * What checkMailOnBehalf reads (core/mail/on-behalf.ts): a directory (every account verified unless listed in its
 * `unverified`), the subscriptions by user (none unless given: not on a trial), today's sends.
 */
export const onBehalfFakes = (subscriptions: Record<string, Partial<StoredSubscription>> = {}) => ({
  directory: memoryDirectory(),
  billing: { getSubscription: async (userId: string) => subscriptions[userId] as StoredSubscription | undefined },
  sendQuota: memorySendQuota(),
});

/**
 * Creators' plans (issue 29) as the subscriptions that give them: an active subscription of the tier, or none. The
 * record is read at call time, so `setPlan` moves a creator between calls (an upgrade, a downgrade, an ended plan).
 */
export const planSubscriptions = (plans: Record<string, PlanLevel>) => {
  const subscriptions: Record<string, Partial<StoredSubscription>> = {};
  const setPlan = (userId: string, plan: PlanLevel) => {
    if (plan === 'none') delete subscriptions[userId];
    else subscriptions[userId] = { userId, status: 'active', tier: plan };
  };
  for (const [userId, plan] of Object.entries(plans)) setPlan(userId, plan);
  return { subscriptions, setPlan };
};
