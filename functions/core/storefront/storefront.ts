import { creatorSlug, DEFAULT_CREATOR_NAME, type BrowseList, type PublicCoursePage, type PublicCreator, type StorefrontCourse } from '#contracts/storefront.ts';
import { COURSE_CURRENCY } from '#contracts/courses.ts';
import { COURSE_NOT_FOUND } from '#core/courses/courses.ts';
import { NotFoundError } from '#core/errors.ts';
import type { BrandingView } from '#contracts/branding.ts';
import type { PublicSeller } from '#contracts/bundles.ts';
import { hasFeature, type PlanLevel } from '#contracts/entitlements.ts';
import { planOf } from '#core/billing/subscription-state.ts';
import { brandingViewOf } from '#core/branding/branding.ts';
import type {
  BillingRepository,
  BrandingRepository,
  BundleRepository,
  Clock,
  CourseRecord,
  CourseRepository,
  EnrollmentRepository,
  MembershipRepository,
  OrderRepository,
  PublicProfileRepository,
  StoredBranding,
  VisitMarks,
} from '#core/ports.ts';
import { unsellableCourses } from '#core/bundles/bundles.ts';
import { salesTermsOf } from '#core/sales/checkout.ts';
import { type AvatarDeps, avatarUrl } from '#core/storefront/public-profile.ts';
import { countOnce, type VisitorSeen } from '#core/visits/visitor-key.ts';

/**
 * What visitors and learners see of the creators' catalogues: a creator's page, a course's public page (no sign-in),
 * and the learner's Browse. Only published courses ever show; a creator is named by their public display name, or
 * DEFAULT_CREATOR_NAME before they set one, never by their email.
 */
export const CREATOR_NOT_FOUND = 'There is no creator page at this address.';

/** Course ids are ULIDs: anything much longer is no course (and would not fit a key). */
const COURSE_ID_MAX = 100;

/** At most this many creators' catalogues are read for one Browse: one Query each, side by side. */
export const BROWSE_CREATORS_MAX = 20;

export interface StorefrontDeps extends AvatarDeps {
  profiles: PublicProfileRepository;
  courses: Pick<CourseRepository, 'getCourse' | 'listByCreator'>;
  /** The creator's plan: whether a course is on sale now, its team licences' largest size (issue 29), its branding shown. */
  billing: Pick<BillingRepository, 'getSubscription'>;
  /** The creator's branding (issue 32), shown while their plan includes it. */
  branding: Pick<BrandingRepository, 'get'>;
}

/** The creator's branding on their pages: read beside the plan (no second round trip), shown while the plan has it. */
const brandingShown = async (deps: Omit<StorefrontDeps, 'courses'>, stored: StoredBranding | undefined, plan: PlanLevel): Promise<BrandingView | null> =>
  stored && hasFeature(plan, 'branding') ? brandingViewOf(deps, stored) : null;

export interface CourseViewDeps {
  courses: Pick<CourseRepository, 'getCourse'>;
  /** The sales funnel's first step: a view of a published course's page (the creator's analytics). */
  funnel: Pick<OrderRepository, 'countFunnel'>;
  visits: VisitMarks;
  clock: Clock;
}

const storefrontCourse = (course: CourseRecord): StorefrontCourse => ({
  id: course.id,
  title: course.title,
  description: course.description,
  priceAmount: course.priceAmount,
  lessonCount: course.lessonCount,
});

const published = (courses: CourseRecord[]) => courses.filter((c) => c.status === 'published');

/**
 * What the creator's page lists beside their courses (issue 34): their bundles and memberships. Absent (the other
 * public pages' compositions), the page lists none.
 */
export interface CreatorOffersDeps {
  bundles?: Pick<BundleRepository, 'listByCreator'>;
  memberships?: Pick<MembershipRepository, 'listByCreator'>;
}

/**
 * GET /api/public/creators/{slug}: the profile (one read), then side by side the creator's courses (one Query), plan,
 * branding, bundles and memberships (one Query each, at most 100 and 20). Published courses newest first; the bundles
 * on sale (active, every course still published, as their page checks) and the memberships taking members (active,
 * while the plan includes memberships).
 */
export const publicCreator = async (deps: StorefrontDeps & CreatorOffersDeps, slug: string): Promise<PublicCreator> => {
  const parsed = creatorSlug.safeParse(slug);
  const profile = parsed.success && parsed.data === slug ? await deps.profiles.getBySlug(slug) : undefined;
  if (!profile) throw new NotFoundError(CREATOR_NOT_FOUND);
  const [courses, picture, subscription, branding, bundles, memberships] = await Promise.all([
    deps.courses.listByCreator(profile.creatorId),
    avatarUrl(deps, profile),
    deps.billing.getSubscription(profile.creatorId),
    deps.branding.get(profile.creatorId),
    deps.bundles?.listByCreator(profile.creatorId) ?? [],
    deps.memberships?.listByCreator(profile.creatorId) ?? [],
  ]);
  const plan = planOf(subscription);
  return {
    slug: profile.slug,
    displayName: profile.displayName,
    bio: profile.bio,
    avatarUrl: picture,
    courses: published(courses).map(storefrontCourse),
    bundles: bundles
      .filter((b) => b.active && unsellableCourses(b.courseIds, courses).length === 0)
      .map((b) => ({ id: b.id, title: b.title, priceAmount: b.priceAmount, courseCount: b.courseIds.length })),
    memberships: hasFeature(plan, 'memberships')
      ? memberships.filter((m) => m.active).map((m) => ({ id: m.id, title: m.title, interval: m.interval, priceAmount: m.priceAmount, allCourses: m.courseIds === 'all' }))
      : [],
    branding: await brandingShown(deps, branding, plan),
  };
};

/**
 * POST /api/public/courses/{courseId}/views: the course page's view, counted in its creator's funnel once per visitor a
 * day (the page itself is cached at CloudFront, so its GET cannot count). 404 for a course that is not published; a
 * repeat is answered the same as a first view.
 */
export const recordCourseView = async (deps: CourseViewDeps, courseId: string, visitor: VisitorSeen): Promise<void> => {
  const course = courseId.length <= COURSE_ID_MAX ? await deps.courses.getCourse(courseId) : undefined;
  if (!course || course.status !== 'published') throw new NotFoundError(COURSE_NOT_FOUND);
  const now = deps.clock.now();
  if (await countOnce(deps.visits, `course-view:${course.id}`, visitor, now)) {
    await deps.funnel.countFunnel(course.creatorId, now.toISOString(), 'views');
  }
};

/**
 * GET /api/public/courses/{courseId}: the published course with its lesson titles and kinds (no lesson content), its
 * prices and its creator's public name, address and picture, and whether it is on sale now (its creator's plan sells);
 * 404 for a draft as for a course that does not exist.
 */
export const publicCoursePage = async (deps: StorefrontDeps, courseId: string): Promise<PublicCoursePage> => {
  const course = courseId.length <= COURSE_ID_MAX ? await deps.courses.getCourse(courseId) : undefined;
  if (!course || course.status !== 'published') throw new NotFoundError(COURSE_NOT_FOUND);
  const { onSale, ...seller } = await sellerOf(deps, course.creatorId);
  return {
    id: course.id,
    title: course.title,
    description: course.description,
    priceAmount: course.priceAmount,
    seatPriceAmount: course.seatPriceAmount,
    currency: COURSE_CURRENCY,
    lessons: course.lessons.map((lesson) => ({ title: lesson.title, kind: lesson.kind })),
    ...seller,
    onSale,
  };
};

/**
 * Who sells on a public page (a course's, a bundle's): the creator's public name, page and picture, whether their plan
 * sells now (and its team licences' largest size), and their branding while the plan includes it. Three reads side by
 * side (profile, plan, branding).
 */
export const sellerOf = async (
  deps: Omit<StorefrontDeps, 'courses'>,
  creatorId: string,
): Promise<PublicSeller & { teamSeatsMax: number | null }> => {
  const [profile, subscription, branding] = await Promise.all([deps.profiles.get(creatorId), deps.billing.getSubscription(creatorId), deps.branding.get(creatorId)]);
  return {
    creatorName: profile?.displayName ?? DEFAULT_CREATOR_NAME,
    creatorSlug: profile?.slug ?? null,
    creatorAvatarUrl: await avatarUrl(deps, profile),
    ...salesTermsOf(planOf(subscription)),
    branding: await brandingShown(deps, branding, planOf(subscription)),
  };
};

/**
 * GET /api/learner/browse: the courses on sale (published, priced) of the creators the learner already learns with,
 * except those they are enrolled in. Bounded reads: the learner's enrolments (one Query), then at most
 * BROWSE_CREATORS_MAX creators (those of the most recent activity first): one Query of each one's courses and one
 * batch read of their profiles, side by side.
 */
export const learnerBrowse = async (
  deps: { enrollments: Pick<EnrollmentRepository, 'listByLearner'>; courses: Pick<CourseRepository, 'listByCreator'>; profiles: PublicProfileRepository },
  learnerId: string,
): Promise<BrowseList> => {
  const enrollments = (await deps.enrollments.listByLearner(learnerId)).sort((a, b) => b.lastActivity.localeCompare(a.lastActivity));
  const creators = [...new Set(enrollments.map((e) => e.creatorId))].slice(0, BROWSE_CREATORS_MAX);
  if (creators.length === 0) return { items: [] };
  const [catalogues, profiles] = await Promise.all([Promise.all(creators.map((id) => deps.courses.listByCreator(id))), deps.profiles.getMany(creators)]);
  const enrolled = new Set(enrollments.map((e) => e.courseId));
  const profileOf = new Map(profiles.map((p) => [p.creatorId, p]));
  return {
    items: creators.flatMap((creatorId, i) => {
      const profile = profileOf.get(creatorId);
      return published(catalogues[i] ?? [])
        .filter((course) => course.priceAmount > 0 && !enrolled.has(course.id))
        .map((course) => ({
          ...storefrontCourse(course),
          creatorName: profile?.displayName ?? DEFAULT_CREATOR_NAME,
          creatorSlug: profile?.slug ?? null,
        }));
    }),
  };
};
