import { s3ImageStore } from '#adapters/s3-file-store.ts';
import type { Ids, ImageStore, PublicProfileRepository } from '#core/ports.ts';
import type { PublicProfileDeps } from '#core/storefront/public-profile.ts';
import type { StorefrontDeps } from '#core/storefront/storefront.ts';
import { dynamoPublicProfiles } from '#data/public-profiles.ts';
import { clock, courseRepository, enrollmentRepository, ids, orderRepository } from '#functions/deps.ts';

/**
 * The composition of the storefront's handlers (the creators' public profiles, the public course and creator pages,
 * the learner's Browse): the profiles, the avatars in the files bucket, and the courses they show.
 */
let profiles: PublicProfileRepository | undefined;
let images: ImageStore | undefined;

export const publicProfileRepository = (): PublicProfileRepository => (profiles ??= dynamoPublicProfiles());
export const imageStore = (): ImageStore => (images ??= s3ImageStore());

/** The creator's own profile and its picture. */
export const publicProfileDeps = (): PublicProfileDeps & { ids: Ids } => ({ profiles: publicProfileRepository(), images: imageStore(), clock, ids });

/** The public pages: profiles, pictures and courses. */
export const storefrontDeps = (): StorefrontDeps => ({ profiles: publicProfileRepository(), images: imageStore(), courses: courseRepository(), funnel: orderRepository(), clock });

/** Browse: the learner's enrolments, their creators' courses and profiles (no pictures). */
export const browseDeps = () => ({ enrollments: enrollmentRepository(), courses: courseRepository(), profiles: publicProfileRepository() });
