import type { PlatformActivity } from '#contracts/admin.ts';
import type { Role } from '#contracts/common.ts';
import { plans } from '#contracts/plans.ts';
import type { StoredSubscription, User } from '#core/ports.ts';
import { contractStatus } from '#core/billing/subscription-state.ts';

/**
 * The admin's recent activity lines, written in words when the change happens (in its transaction), so the stats read
 * is one query of the newest ten and never joins anything.
 */

const roleWords: Record<Role, string> = { admin: 'admin', creator: 'creator', leader: 'group leader', learner: 'learner' };

export const signUpActivity = (user: User): PlatformActivity => ({
  kind: 'sign-up',
  text: `New ${roleWords[user.role]}: ${user.email}`,
  at: user.createdAt,
});

/**
 * A subscription change worth a line: a new state (trial, paid, payment failed, cancelled) or a change of plan. An
 * event that only moves dates (a renewal) is no activity. The webhook knows the customer, not their email: the line
 * names the plan, not the person.
 */
export const subscriptionActivity = (before: StoredSubscription | undefined, after: StoredSubscription): PlatformActivity | undefined => {
  const [was, now] = [contractStatus(before?.status), contractStatus(after.status)];
  const plan = after.tier ? plans[after.tier].name : 'a plan';
  const at = after.updatedAt;
  if (was === now) {
    if (now === 'active' && before?.tier && after.tier && before.tier !== after.tier) {
      return { kind: 'subscription', text: `A creator moved from ${plans[before.tier].name} to ${plan}`, at };
    }
    return undefined;
  }
  switch (now) {
    case 'trialing':
      return { kind: 'subscription', text: `A creator started a ${plan} trial`, at };
    case 'active':
      return { kind: 'subscription', text: `A creator subscribed to ${plan}`, at };
    case 'past_due':
      return { kind: 'subscription', text: `A ${plan} payment failed`, at };
    case 'canceled':
      return { kind: 'subscription', text: `A creator cancelled ${plan}`, at };
    default:
      return undefined;
  }
};
