import { BUNDLES_PER_CREATOR_MAX, bundlePricing, type Bundle, type BundleList, type CreateBundleBody, type PublicBundle, type PublicSeller, type UpdateBundleBody } from '#contracts/bundles.ts';
import { COURSE_CURRENCY } from '#contracts/courses.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import type { BundleRepository, Clock, CourseRepository, CourseRecord, Ids, StoredBundle } from '#core/ports.ts';

/**
 * Bundles (issue 34 point 1; API.md "Bundles and memberships"): a creator sells 2 to 50 of their own published courses
 * together at one price, the saving over the separate prices shown. The rules here; the checkout is the course
 * checkout's (core/sales/checkout.ts), the payment and its refund the course order's (core/sales/orders.ts), each
 * told the order's `bundleId` and its courses. A bundle of courses the creator no longer publishes is off sale (its
 * page and checkout 404) until they publish them again or change the bundle; its buyers keep what they bought.
 */

export const BUNDLE_NOT_FOUND = 'Bundle not found.';
export const TOO_MANY_BUNDLES = `You have ${BUNDLES_PER_CREATOR_MAX} bundles: delete one to make another.`;
export const notYourPublishedCourses = (ids: string[]): string =>
  `A bundle holds your own published courses: ${ids.join(', ')} ${ids.length === 1 ? 'is' : 'are'} not.`;

export interface BundleDeps {
  bundles: BundleRepository;
  courses: Pick<CourseRepository, 'listByCreator'>;
  clock: Clock;
  ids: Ids;
}

/** The separate prices added up and the saving: the contract's, shared with the creator's form. */
export { bundlePricing };

/** The bundle's courses as the creator's course list has them now, in the bundle's order (a course gone is left out). */
const coursesOf = (bundle: Pick<StoredBundle, 'courseIds'>, courses: readonly CourseRecord[]): CourseRecord[] => {
  const byId = new Map(courses.map((c) => [c.id, c]));
  return bundle.courseIds.flatMap((id) => byId.get(id) ?? []);
};

/** Which of `courseIds` are not the creator's published courses (none: the bundle may hold them). */
export const unsellableCourses = (courseIds: readonly string[], creatorCourses: readonly CourseRecord[]): string[] => {
  const published = new Set(creatorCourses.filter((c) => c.status === 'published').map((c) => c.id));
  return courseIds.filter((id) => !published.has(id));
};

/** 400 naming the courses that are not the creator's published ones (a bundle's, or a membership's with its own words). */
export const requireSellable = (courseIds: readonly string[], creatorCourses: readonly CourseRecord[], messageOf = notYourPublishedCourses): void => {
  const wrong = unsellableCourses(courseIds, creatorCourses);
  if (wrong.length > 0) {
    const message = messageOf(wrong);
    throw new ValidationError(message, [{ path: 'courseIds', code: 'custom', message }]);
  }
};

/** The bundle as its creator sees it, from their courses as they are now. */
export const bundleView = (bundle: StoredBundle, creatorCourses: readonly CourseRecord[]): Bundle => {
  const courses = coursesOf(bundle, creatorCourses);
  return {
    id: bundle.id,
    title: bundle.title,
    description: bundle.description,
    courses: courses.map((c) => ({ id: c.id, title: c.title, priceAmount: c.priceAmount })),
    priceAmount: bundle.priceAmount,
    currency: COURSE_CURRENCY,
    ...bundlePricing(bundle.priceAmount, courses.map((c) => c.priceAmount)),
    active: bundle.active,
    createdAt: bundle.createdAt,
    updatedAt: bundle.updatedAt,
  };
};

/**
 * A bundle on sale now, with its courses: active, and every one of its courses still the creator's and published;
 * undefined otherwise (its page and its checkout answer 404, as for a bundle that does not exist).
 */
export const bundleOnSale = async (
  deps: { bundles: Pick<BundleRepository, 'get'>; courses: Pick<CourseRepository, 'listByCreator'> },
  bundleId: string,
): Promise<{ bundle: StoredBundle; courses: CourseRecord[] } | undefined> => {
  const bundle = await deps.bundles.get(bundleId);
  if (!bundle?.active) return undefined;
  const creatorCourses = await deps.courses.listByCreator(bundle.creatorId);
  if (unsellableCourses(bundle.courseIds, creatorCourses).length > 0) return undefined;
  return { bundle, courses: coursesOf(bundle, creatorCourses) };
};

/** GET /api/bundles: the creator's bundles, newest first. */
export const listBundles = async (deps: Pick<BundleDeps, 'bundles' | 'courses'>, creatorId: string): Promise<BundleList> => {
  const [bundles, courses] = await Promise.all([deps.bundles.listByCreator(creatorId), deps.courses.listByCreator(creatorId)]);
  return { items: bundles.map((b) => bundleView(b, courses)) };
};

/** POST /api/bundles: 2-50 of the creator's own published courses (400 naming the others), at most BUNDLES_PER_CREATOR_MAX bundles (409). */
export const createBundle = async (deps: BundleDeps, input: { creatorId: string; body: CreateBundleBody }): Promise<Bundle> => {
  const [existing, courses] = await Promise.all([deps.bundles.listByCreator(input.creatorId), deps.courses.listByCreator(input.creatorId)]);
  if (existing.length >= BUNDLES_PER_CREATOR_MAX) throw new ConflictError(TOO_MANY_BUNDLES);
  requireSellable(input.body.courseIds, courses);
  const now = deps.clock.now().toISOString();
  const bundle: StoredBundle = {
    id: deps.ids.newId(),
    creatorId: input.creatorId,
    title: input.body.title,
    description: input.body.description ?? '',
    courseIds: input.body.courseIds,
    priceAmount: input.body.priceAmount,
    active: true,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await deps.bundles.create(bundle))) throw new ConflictError('A bundle with that id exists already: try again.');
  return bundleView(bundle, courses);
};

/** PATCH /api/bundles/{bundleId}: another creator's bundle is 404; new courses must be the creator's published ones. */
export const updateBundle = async (deps: BundleDeps, input: { creatorId: string; bundleId: string; body: UpdateBundleBody }): Promise<Bundle> => {
  const courses = await deps.courses.listByCreator(input.creatorId);
  if (input.body.courseIds) requireSellable(input.body.courseIds, courses);
  const saved = await deps.bundles.update(input.creatorId, input.bundleId, { ...input.body, updatedAt: deps.clock.now().toISOString() });
  if (!saved) throw new NotFoundError(BUNDLE_NOT_FOUND);
  return bundleView(saved, courses);
};

/** DELETE /api/bundles/{bundleId}: off sale for good; its buyers keep their courses (their orders name it). */
export const deleteBundle = async (deps: Pick<BundleDeps, 'bundles'>, input: { creatorId: string; bundleId: string }): Promise<void> => {
  if (!(await deps.bundles.delete(input.creatorId, input.bundleId))) throw new NotFoundError(BUNDLE_NOT_FOUND);
};

export interface PublicBundleDeps extends Pick<BundleDeps, 'bundles' | 'courses'> {
  /** Who sells it, as the course page names them (core/storefront's sellerOf): name, page, plan on sale, branding. */
  seller: (creatorId: string) => Promise<PublicSeller>;
}

/** GET /api/public/bundles/{bundleId}: an active bundle of published courses as a visitor sees it, with its seller (404 otherwise). */
export const publicBundle = async (deps: PublicBundleDeps, bundleId: string): Promise<PublicBundle> => {
  const found = await bundleOnSale(deps, bundleId);
  if (!found) throw new NotFoundError(BUNDLE_NOT_FOUND);
  const { bundle, courses } = found;
  const { creatorName, creatorSlug, creatorAvatarUrl, onSale, branding } = await deps.seller(bundle.creatorId);
  return {
    id: bundle.id,
    title: bundle.title,
    description: bundle.description,
    priceAmount: bundle.priceAmount,
    currency: COURSE_CURRENCY,
    ...bundlePricing(bundle.priceAmount, courses.map((c) => c.priceAmount)),
    courses: courses.map((c) => ({ id: c.id, title: c.title })),
    creatorName,
    creatorSlug,
    creatorAvatarUrl,
    onSale,
    branding,
  };
};
