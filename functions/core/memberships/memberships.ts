import type { PublicSeller } from '#contracts/bundles.ts';
import { hasFeature } from '#contracts/entitlements.ts';
import { COURSE_CURRENCY } from '#contracts/courses.ts';
import {
  CHURN_WINDOW_DAYS,
  MEMBERSHIPS_PER_CREATOR_MAX,
  monthlyAmount,
  type CreateMembershipBody,
  type LearnerMembershipList,
  type MemberList,
  type Membership,
  type MembershipCheckoutBody,
  type MembershipList,
  type PublicMembership,
  type UpdateMembershipBody,
} from '#contracts/memberships.ts';
import { creatorPlanOf } from '#core/billing/subscription-state.ts';
import { requireSellable } from '#core/bundles/bundles.ts';
import { requireOwnOrigin } from '#core/billing/prices.ts';
import { ConflictError, NotFoundError, PayoutsNotReadyError, PlanRequiredError } from '#core/errors.ts';
import { memberGivesAccess, membershipOfSource, sourcesOf } from '#core/access/access.ts';
import type {
  BillingRepository,
  Clock,
  CourseRecord,
  CourseRepository,
  CreatorPaymentAccounts,
  EnrollmentRepository,
  Ids,
  MembershipPayments,
  MembershipRepository,
  StoredMember,
  StoredMembership,
} from '#core/ports.ts';


/**
 * Memberships (issue 34 point 2; API.md "Bundles and memberships"): a Pro creator's monthly or yearly subscription,
 * on their own Stripe account (no platform fee), to chosen courses or to all of them (`'all'`: every published
 * course of theirs, including ones published later). The rules here; the subscription's events are applied in
 * subscription-events.ts, and whether a member may open a course is the access module's (core/access/access.ts).
 */

export const MEMBERSHIP_NOT_FOUND = 'Membership not found.';
export const MEMBERSHIPS_ARE_PRO = 'Memberships are part of the Pro plan. Upgrade to Pro to sell them.';
export const TOO_MANY_MEMBERSHIPS = `You have ${MEMBERSHIPS_PER_CREATOR_MAX} memberships: delete one to make another.`;
/** A membership whose creator is no longer on Pro takes no new members (existing subscriptions run on at Stripe). */
export const MEMBERSHIP_NOT_ON_SALE = 'This membership is not on sale at the moment.';
export const NOT_A_MEMBER = 'You have no subscription to this membership.';

export interface MembershipDeps {
  memberships: MembershipRepository;
  courses: Pick<CourseRepository, 'listByCreator'>;
  billing: Pick<BillingRepository, 'getSubscription'>;
  clock: Clock;
  ids: Ids;
}

/** Whether the membership gives `course` (of its creator, published): named, or 'all'. */
export const membershipCovers = (membership: Pick<StoredMembership, 'courseIds' | 'creatorId'>, course: Pick<CourseRecord, 'id' | 'creatorId' | 'status'>): boolean =>
  course.creatorId === membership.creatorId &&
  course.status === 'published' &&
  (membership.courseIds === 'all' || membership.courseIds.includes(course.id));

/** The membership's courses now: the named ones still published (in its order), or every published course. */
export const coursesGiven = (membership: Pick<StoredMembership, 'courseIds' | 'creatorId'>, creatorCourses: readonly CourseRecord[]): CourseRecord[] => {
  if (membership.courseIds === 'all') return creatorCourses.filter((c) => membershipCovers(membership, c));
  const byId = new Map(creatorCourses.map((c) => [c.id, c]));
  return membership.courseIds.flatMap((id) => {
    const course = byId.get(id);
    return course && membershipCovers(membership, course) ? [course] : [];
  });
};

const requirePro = async (deps: Pick<MembershipDeps, 'billing'>, creatorId: string) => {
  // The route table's `memberships` refuses it first (the middleware); checked here too, the same rule.
  if (!hasFeature(await creatorPlanOf(deps, creatorId), 'memberships')) throw new PlanRequiredError('pro', MEMBERSHIPS_ARE_PRO);
};

const requireOwnCourses = (courseIds: string[] | 'all', creatorCourses: readonly CourseRecord[]) => {
  if (courseIds !== 'all')
    requireSellable(courseIds, creatorCourses, (wrong) => `A membership gives your own published courses: ${wrong.join(', ')} ${wrong.length === 1 ? 'is' : 'are'} not.`);
};

export const membershipView = (m: StoredMembership): Membership => ({
  id: m.id,
  title: m.title,
  description: m.description,
  interval: m.interval,
  priceAmount: m.priceAmount,
  currency: COURSE_CURRENCY,
  courseIds: m.courseIds,
  active: m.active,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

/** GET /api/memberships: the creator's memberships, newest first. */
export const listMemberships = async (deps: Pick<MembershipDeps, 'memberships'>, creatorId: string): Promise<MembershipList> => ({
  items: (await deps.memberships.listByCreator(creatorId)).map(membershipView),
});

/** POST /api/memberships (Pro): courses the creator's own published ones, or 'all'; at most MEMBERSHIPS_PER_CREATOR_MAX. */
export const createMembership = async (deps: MembershipDeps, input: { creatorId: string; body: CreateMembershipBody }): Promise<Membership> => {
  await requirePro(deps, input.creatorId);
  const [existing, courses] = await Promise.all([deps.memberships.listByCreator(input.creatorId), deps.courses.listByCreator(input.creatorId)]);
  if (existing.length >= MEMBERSHIPS_PER_CREATOR_MAX) throw new ConflictError(TOO_MANY_MEMBERSHIPS);
  requireOwnCourses(input.body.courseIds, courses);
  const now = deps.clock.now().toISOString();
  const membership: StoredMembership = {
    id: deps.ids.newId(),
    creatorId: input.creatorId,
    title: input.body.title,
    description: input.body.description ?? '',
    interval: input.body.interval,
    priceAmount: input.body.priceAmount,
    courseIds: input.body.courseIds,
    active: true,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await deps.memberships.create(membership))) throw new ConflictError('A membership with that id exists already: try again.');
  return membershipView(membership);
};

/** PATCH /api/memberships/{membershipId} (Pro): another creator's is 404. */
export const updateMembership = async (deps: MembershipDeps, input: { creatorId: string; membershipId: string; body: UpdateMembershipBody }): Promise<Membership> => {
  await requirePro(deps, input.creatorId);
  if (input.body.courseIds) requireOwnCourses(input.body.courseIds, await deps.courses.listByCreator(input.creatorId));
  const saved = await deps.memberships.update(input.creatorId, input.membershipId, { ...input.body, updatedAt: deps.clock.now().toISOString() });
  if (!saved) throw new NotFoundError(MEMBERSHIP_NOT_FOUND);
  return membershipView(saved);
};

/** DELETE /api/memberships/{membershipId}: off sale for good; its members keep access until Stripe ends their subscriptions. */
export const deleteMembership = async (deps: Pick<MembershipDeps, 'memberships'>, input: { creatorId: string; membershipId: string }): Promise<void> => {
  if (!(await deps.memberships.delete(input.creatorId, input.membershipId))) throw new NotFoundError(MEMBERSHIP_NOT_FOUND);
};

export interface PublicMembershipDeps extends Pick<MembershipDeps, 'memberships' | 'courses' | 'billing'> {
  /** Who sells it, as the course and bundle pages name them (core/storefront's sellerOf): name, page, plan, branding. */
  seller: (creatorId: string) => Promise<PublicSeller>;
}

/** GET /api/public/memberships/{membershipId}: an active membership as a visitor sees it, with its courses now and its seller (404 otherwise). */
export const publicMembership = async (deps: PublicMembershipDeps, membershipId: string): Promise<PublicMembership> => {
  const membership = await deps.memberships.get(membershipId);
  if (!membership?.active) throw new NotFoundError(MEMBERSHIP_NOT_FOUND);
  const [courses, seller] = await Promise.all([deps.courses.listByCreator(membership.creatorId), deps.seller(membership.creatorId)]);
  const { creatorName, creatorSlug, creatorAvatarUrl, onSale, branding } = seller;
  return {
    creatorName,
    creatorSlug,
    creatorAvatarUrl,
    // Memberships sell on Pro only: a creator whose Pro ended takes no new members (the checkout's 409 says so too).
    onSale: onSale && hasFeature(await creatorPlanOf(deps, membership.creatorId), 'memberships'),
    branding,
    id: membership.id,
    title: membership.title,
    description: membership.description,
    interval: membership.interval,
    priceAmount: membership.priceAmount,
    currency: COURSE_CURRENCY,
    allCourses: membership.courseIds === 'all',
    courses: coursesGiven(membership, courses).map((c) => ({ id: c.id, title: c.title })),
  };
};

export interface MembershipCheckoutDeps {
  memberships: Pick<MembershipRepository, 'get'>;
  payouts: CreatorPaymentAccounts;
  billing: Pick<BillingRepository, 'getSubscription'>;
  connect: Pick<MembershipPayments, 'createMembershipCheckout'>;
  ids: Ids;
  appOrigin: string;
}

/**
 * POST /api/public/memberships/{membershipId}/checkout (no sign-in): 1. an active membership (404); 2. its creator on
 * Pro (409: a plan that ended takes no new members); 3. their account takes charges (409 PAYOUTS_NOT_READY); 4. Stripe
 * Checkout in subscription mode on the creator's account, no platform fee, the membership in the subscription's
 * metadata (what its events are applied by). Nothing is stored before the payment: the Connect webhook's
 * `checkout.session.completed` and `customer.subscription.*` make the member. The same Idempotency-Key answers the same page.
 */
export const startMembershipCheckout = async (
  deps: MembershipCheckoutDeps,
  input: { membershipId: string; body: MembershipCheckoutBody; idempotencyKey?: string | undefined },
): Promise<{ url: string }> => {
  const { body } = input;
  requireOwnOrigin(deps.appOrigin, { successUrl: body.successUrl, cancelUrl: body.cancelUrl });
  const membership = await deps.memberships.get(input.membershipId);
  if (!membership?.active) throw new NotFoundError(MEMBERSHIP_NOT_FOUND);
  if (!hasFeature(await creatorPlanOf(deps, membership.creatorId), 'memberships')) throw new ConflictError(MEMBERSHIP_NOT_ON_SALE);
  const payouts = await deps.payouts.get(membership.creatorId);
  if (!payouts?.chargesEnabled) throw new PayoutsNotReadyError();
  const session = await deps.connect.createMembershipCheckout({
    accountId: payouts.accountId,
    membershipId: membership.id,
    title: membership.title,
    amount: membership.priceAmount,
    interval: membership.interval,
    ...(body.email ? { email: body.email } : {}),
    successUrl: body.successUrl,
    cancelUrl: body.cancelUrl,
    idempotencyKey: `membership-checkout:${membership.id}:${input.idempotencyKey ?? deps.ids.newId()}`,
  });
  return { url: session.url };
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** GET /api/memberships/{membershipId}/members?cursor=: the creator's own membership's subscriptions (404 otherwise). */
export const listMembers = async (
  deps: Pick<MembershipDeps, 'memberships' | 'clock'>,
  input: { creatorId: string; membershipId: string; cursor?: string | undefined; limit: number },
): Promise<MemberList> => {
  const membership = await deps.memberships.get(input.membershipId);
  if (membership?.creatorId !== input.creatorId) throw new NotFoundError(MEMBERSHIP_NOT_FOUND);
  const since = new Date(deps.clock.now().getTime() - CHURN_WINDOW_DAYS * DAY_MS).toISOString().slice(0, 10);
  const [page, figures] = await Promise.all([
    deps.memberships.members(input.membershipId, { cursor: input.cursor, limit: input.limit }),
    deps.memberships.figures(input.membershipId, since),
  ]);
  return {
    items: page.items.map((m) => ({ email: m.email ?? '', status: m.status, currentPeriodEnd: m.currentPeriodEnd, cancelAtPeriodEnd: m.cancelAtPeriodEnd })),
    nextCursor: page.nextCursor,
    figures: { paying: figures.paying, mrrAmount: figures.paying * monthlyAmount(membership.priceAmount, membership.interval), endedLast30Days: figures.ended },
  };
};

/**
 * POST /api/learner/memberships/{membershipId}/portal: Stripe's billing portal for the learner's newest subscription
 * to it, on the creator's account (cancel there; its events come back by the webhook). 404 for one they never had.
 */
export const membershipPortal = async (
  deps: { memberships: Pick<MembershipRepository, 'membersOfLearner'>; connect: Pick<MembershipPayments, 'createPortalSession'>; appOrigin: string },
  input: { learnerId: string; membershipId: string; returnUrl: string },
): Promise<{ url: string }> => {
  requireOwnOrigin(deps.appOrigin, { returnUrl: input.returnUrl });
  const mine = (await deps.memberships.membersOfLearner(input.membershipId, input.learnerId))
    .filter((m) => m.customerId !== null)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const newest = mine[0];
  if (!newest?.customerId) throw new NotFoundError(NOT_A_MEMBER);
  return deps.connect.createPortalSession({ accountId: newest.accountId, customerId: newest.customerId, returnUrl: input.returnUrl });
};

/** The title a learner's card shows for a membership its creator deleted while the subscription still runs. */
export const DELETED_MEMBERSHIP_TITLE = 'A membership no longer sold';

/**
 * GET /api/learner/memberships: the memberships the learner holds now, found through their enrolments' membership
 * sources (the subscription's events put them there while it gives access, and take them away when it ends): one
 * Query of the learner's enrolments, then each named subscription's row and its membership (a learner holds a few).
 * A membership its creator deleted is still listed while Stripe runs the subscription (by DELETED_MEMBERSHIP_TITLE):
 * deleting stops new members, not the billing, so the learner must still reach the portal to cancel.
 */
export const learnerMemberships = async (
  deps: { enrollments: Pick<EnrollmentRepository, 'listByLearner'>; memberships: Pick<MembershipRepository, 'get' | 'member'>; clock: Clock },
  learnerId: string,
): Promise<LearnerMembershipList> => {
  const subscriptions = new Map<string, { membershipId: string; subscriptionId: string }>();
  for (const enrollment of await deps.enrollments.listByLearner(learnerId)) {
    for (const source of sourcesOf(enrollment)) {
      const named = membershipOfSource(source);
      if (named) subscriptions.set(source, named);
    }
  }
  const now = deps.clock.now();
  const rows = await Promise.all(
    [...subscriptions.values()].map(async ({ membershipId, subscriptionId }) => {
      const [membership, member] = await Promise.all([deps.memberships.get(membershipId), deps.memberships.member(membershipId, subscriptionId)]);
      return member?.learnerId === learnerId && memberGivesAccess(member, now) ? { membershipId, membership, member } : undefined;
    }),
  );
  // One card a membership: a resubscription's newest subscription stands for it.
  const newest = new Map<string, { membershipId: string; membership: StoredMembership | undefined; member: StoredMember }>();
  for (const row of rows) {
    if (!row) continue;
    const held = newest.get(row.membershipId);
    if (!held || held.member.createdAt < row.member.createdAt) newest.set(row.membershipId, row);
  }
  return {
    items: [...newest.values()]
      .map(({ membershipId, membership, member }) => ({
        membershipId,
        title: membership?.title ?? DELETED_MEMBERSHIP_TITLE,
        interval: membership?.interval ?? null,
        priceAmount: membership?.priceAmount ?? null,
        status: member.status,
        currentPeriodEnd: member.currentPeriodEnd,
        cancelAtPeriodEnd: member.cancelAtPeriodEnd,
      }))
      .sort((a, b) => a.title.localeCompare(b.title)),
  };
};
