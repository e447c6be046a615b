import { s3ImageStore } from '#adapters/s3-file-store.ts';
import { s3ImageLinks } from '#adapters/s3-presigner.ts';
import type { BrandingView } from '#contracts/branding.ts';
import { brandingInForceView, type BrandingDeps } from '#core/branding/branding.ts';
import type { Ids, ImageStore, PublicProfileRepository } from '#core/ports.ts';
import type { AvatarDeps, PublicProfileDeps } from '#core/storefront/public-profile.ts';
import type { CourseViewDeps, StorefrontDeps } from '#core/storefront/storefront.ts';
import { dynamoPublicProfiles } from '#data/public-profiles.ts';
import { dynamoVisitMarks } from '#data/visits.ts';
import { brandingRepository, clock, courseRepository, enrollmentRepository, ids, orderRepository, subscriptionReader } from '#functions/composition/deps.ts';

/**
 * The composition of the storefront's handlers (the creators' public profiles, the public course and creator pages,
 * the learner's Browse): the profiles, the avatars in the files bucket, and the courses they show.
 */
let profiles: PublicProfileRepository | undefined;
let images: ImageStore | undefined;

export const publicProfileRepository = (): PublicProfileRepository => (profiles ??= dynamoPublicProfiles());
export const imageStore = (): ImageStore => (images ??= s3ImageStore());

/** A creator's branding (issue 32): saved with its logo checked (HeadObject) and the old one deleted; read with links. */
export const brandingDeps = (): BrandingDeps => ({ branding: brandingRepository(), images: imageStore(), clock, ids });
export const brandingLinkDeps = () => ({ branding: brandingRepository(), images: s3ImageLinks(), clock, ids });
/** The player's branding (issue 32): the creator's, while their plan includes it, its logo by a signed link. */
export const playerBranding = (creatorId: string): Promise<BrandingView | null> => brandingInForceView({ ...brandingLinkDeps(), billing: subscriptionReader() }, creatorId);

/** Saving the creator's own profile: its picture checked (HeadObject) and the old one deleted. */
export const publicProfileDeps = (): PublicProfileDeps => ({ profiles: publicProfileRepository(), images: imageStore(), clock });

/** Reading the profile, and its picture's upload link: links only, presigned without the S3 client (adapters/s3-presigner.ts). */
export const profileLinkDeps = (): AvatarDeps & { profiles: PublicProfileRepository; images: ReturnType<typeof s3ImageLinks>; ids: Ids } => ({
  profiles: publicProfileRepository(),
  images: s3ImageLinks(),
  clock,
  ids,
});

/** The public pages: profiles, pictures and courses. */
export const storefrontDeps = (): StorefrontDeps => ({
  profiles: publicProfileRepository(),
  images: s3ImageLinks(),
  courses: courseRepository(),
  billing: subscriptionReader(),
  branding: brandingRepository(),
  clock,
});

/** A course page's view: the course, its creator's funnel, and the visitors already counted today. */
export const courseViewDeps = (): CourseViewDeps => ({ courses: courseRepository(), funnel: orderRepository(), visits: dynamoVisitMarks(), clock });

/** Browse: the learner's enrolments, their creators' courses and profiles (no pictures). */
export const browseDeps = () => ({ enrollments: enrollmentRepository(), courses: courseRepository(), profiles: publicProfileRepository() });
