import type { Role } from '#contracts/common.ts';
import { hasFeature, requiredPlan, type FeatureKey, type PlanLevel } from '#contracts/entitlements.ts';
import { AppError, ForbiddenError, PlanRequiredError } from '#core/errors.ts';
import type { User } from '#core/ports.ts';
import { readPlan } from '#data/billing.ts';
import { readUser } from '#data/users.ts';

/**
 * The caller's stored account (the users data module's profile: role and `disabled`), checked on every call of a route
 * that is not public, so an admin's "disable" or "change role" takes effect at the account's next call rather than when
 * its access token expires (up to an hour). The token's group is checked first (a role the route does not admit is a
 * 403 without a read); then the stored profile must exist, be enabled and hold a role the route admits.
 *
 * Each function instance keeps a profile it read for ACCOUNT_CACHE_MS (docs/api.md, "Authentication and roles"): a
 * caller's burst of requests costs one GetItem, and a change reaches every instance within that window. GET /api/me
 * answers from the same read (functions/http/get-me.ts), so it still makes one GetItem at most.
 */
export const ACCOUNT_CACHE_MS = 5_000;
/** Instances serve few callers at once; past this many remembered profiles the expired ones are dropped. */
const CACHE_LIMIT = 1_000;

export const ACCOUNT_DISABLED_MESSAGE = 'This account has been disabled by an administrator. Contact support if you think this is a mistake.';
export const ROLE_CHANGED_MESSAGE = 'Your role on the platform has changed: sign in again to continue.';
export const NO_PROFILE_MESSAGE = 'Your profile was not found. Contact support if this persists.';

/** The rule, pure: what the stored profile says of a caller the token admits. The role to act as, or the refusal. */
export const checkStoredAccount = (stored: User | undefined, admitted: readonly Role[]): Role => {
  if (!stored) throw new ForbiddenError(NO_PROFILE_MESSAGE);
  if (stored.disabled === true) throw new AppError('ACCOUNT_DISABLED', ACCOUNT_DISABLED_MESSAGE);
  if (!admitted.includes(stored.role)) throw new ForbiddenError(ROLE_CHANGED_MESSAGE);
  return stored.role;
};

/**
 * Reads remembered per caller for ACCOUNT_CACHE_MS in this function instance (the profile, the plan). A read that fails,
 * or whose value `keep` rejects, is not remembered: the next call reads again.
 */
const rememberedReads = <T>(keep: (value: T) => boolean = () => true) => {
  const entries = new Map<string, { until: number; value: Promise<T> }>();
  const get = (key: string, read: (id: string) => Promise<T>, now: number): Promise<T> => {
    const hit = entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (entries.size >= CACHE_LIMIT) for (const [id, entry] of entries) if (entry.until <= now) entries.delete(id);
    const value = read(key);
    entries.set(key, { until: now + ACCOUNT_CACHE_MS, value });
    const forget = () => {
      if (entries.get(key)?.value === value) entries.delete(key);
    };
    value.then((found) => (keep(found) ? undefined : forget()), forget);
    return value;
  };
  return { get, clear: () => entries.clear() };
};

const profiles = rememberedReads<User | undefined>((found) => found !== undefined);

/** The caller's profile: read once, then remembered for ACCOUNT_CACHE_MS (one that is not found is read again). */
export const storedProfile = (userId: string, read: (id: string) => Promise<User | undefined> = readUser, now = Date.now()): Promise<User | undefined> =>
  profiles.get(userId, read, now);

/**
 * The entitlement rule (issue 29, docs/decisions/0042-plans-enforced.md), pure: a caller acting as a creator on a route
 * that needs `feature` must be on a plan that includes it, or is refused with 403 PLAN_REQUIRED naming the lowest plan
 * that does. Any other role (admins included) is not checked here; a route without a feature is open to every plan.
 */
export const checkPlan = async (role: Role, feature: FeatureKey | undefined, plan: () => Promise<PlanLevel>): Promise<void> => {
  if (role !== 'creator' || feature === undefined) return;
  if (!hasFeature(await plan(), feature)) throw new PlanRequiredError(requiredPlan(feature));
};

/**
 * The caller's plan (`planOf` their stored subscription, one GetItem of its status and tier), remembered like the
 * profile: a creator who subscribes (or whose subscription ends) is served by their new plan within ACCOUNT_CACHE_MS on
 * every instance.
 */
const plans = rememberedReads<PlanLevel>();

export const storedPlan = (userId: string, read: (id: string) => Promise<PlanLevel> = readPlan, now = Date.now()): Promise<PlanLevel> => plans.get(userId, read, now);

/** Tests only: forget every remembered profile and plan (a new Lambda instance). */
export const forgetStoredProfiles = (): void => {
  profiles.clear();
  plans.clear();
};
