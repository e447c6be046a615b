import * as z from 'zod';
import { brandingView } from './branding.ts';
import { isoDate } from './common.ts';
import { publicCourse } from './sales.ts';

/**
 * The storefront (issue 12 points 2 and 7; docs/api.md "Selling courses"): each creator's public profile at
 * `/u/<slug>` with their published courses, a course's public page at `/c/<courseId>`, and the learner's Browse.
 */

export const DISPLAY_NAME_MAX = 80;
export const BIO_MAX = 500;
export const CREATOR_SLUG_MIN = 3;
export const CREATOR_SLUG_MAX = 40;

/**
 * Addresses no creator may take: the app's own words, and words a visitor would take for the platform speaking.
 * (`/u/<slug>` never collides with a route, but `/u/admin` would still read as the platform's.)
 */
export const RESERVED_CREATOR_SLUGS: readonly string[] = [
  'about', 'account', 'admin', 'administrator', 'api', 'app', 'assets', 'auth', 'billing', 'blog', 'c', 'checkout',
  'contact', 'course', 'course-platform', 'courses', 'creator', 'creators', 'dashboard', 'edit', 'help', 'leader',
  'learner', 'learners', 'legal', 'login', 'logout', 'mail', 'me', 'new', 'null', 'official', 'p', 'platform',
  'pricing', 'privacy', 'profile', 'public', 'reset-password', 'root', 'security', 'settings', 'sign-in', 'sign-up',
  'signin', 'signup', 'staff', 'static', 'status', 'stripe', 'support', 'system', 'team', 'terms', 'u', 'undefined',
  'user', 'users', 'www',
];

export const SLUG_RESERVED_MESSAGE = 'This address is reserved. Choose another.';

/** A creator's public address: lower-case letters, digits and single hyphens, 3-40 characters, not a reserved word. */
export const creatorSlug = z
  .string()
  .trim()
  .toLowerCase()
  .min(CREATOR_SLUG_MIN, `Use at least ${CREATOR_SLUG_MIN} characters.`)
  .max(CREATOR_SLUG_MAX, `Use at most ${CREATOR_SLUG_MAX} characters.`)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lower-case letters, digits and single hyphens (e.g. jane-cooks).')
  .refine((slug) => !RESERVED_CREATOR_SLUGS.includes(slug), SLUG_RESERVED_MESSAGE);

/** The avatar: a PNG, JPEG or WebP picture of up to 2 MB, uploaded straight to the private files bucket. */
export const AVATAR_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/** How long the presigned PUT of an avatar works. */
export const AVATAR_UPLOAD_TTL_SECONDS = 10 * 60;
export const AVATAR_TYPE_MESSAGE = 'Choose a PNG, JPEG or WebP picture.';
export const AVATAR_SIZE_MESSAGE = 'A picture can be up to 2 MB.';

/** An uploaded avatar's id, as POST /api/creator/public-profile/avatar handed it out (a ULID). */
export const avatarId = z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'Not a picture uploaded for this profile.');

/** POST /api/creator/public-profile/avatar: the picture about to be uploaded. */
export const avatarUploadBody = z.strictObject({
  contentType: z.enum(AVATAR_CONTENT_TYPES, AVATAR_TYPE_MESSAGE),
  size: z.number().int().min(1, 'The file is empty.').max(AVATAR_MAX_BYTES, AVATAR_SIZE_MESSAGE),
});
export type AvatarUploadBody = z.infer<typeof avatarUploadBody>;

/**
 * Its answer: PUT the bytes to `uploadUrl` with `headers` (the signature covers the type and the exact size) before
 * `expiresAt`, then save the profile with `avatarId`.
 */
export const avatarUpload = z.object({
  avatarId,
  uploadUrl: z.url(),
  headers: z.record(z.string(), z.string()),
  expiresAt: isoDate,
});
export type AvatarUpload = z.infer<typeof avatarUpload>;

/**
 * PUT /api/creator/public-profile: the whole public profile. `avatarId`: a picture uploaded for it (new), null to
 * remove the current one, absent to keep it. `bio` is plain text (absent: empty).
 */
export const publicProfileBody = z.strictObject({
  displayName: z.string().trim().min(1, 'Enter the name visitors see.').max(DISPLAY_NAME_MAX, `Use at most ${DISPLAY_NAME_MAX} characters.`),
  bio: z.string().trim().max(BIO_MAX, `Keep the bio to ${BIO_MAX} characters.`).optional(),
  slug: creatorSlug,
  avatarId: avatarId.nullable().optional(),
});
export type PublicProfileBody = z.infer<typeof publicProfileBody>;

/**
 * The creator's public profile as they edit it (PUT's answer; GET's when one exists). `avatarUrl` is a short-lived
 * signed URL of the picture.
 */
export const publicProfile = z.object({
  displayName: z.string(),
  bio: z.string(),
  slug: z.string(),
  avatarUrl: z.string().nullable(),
  updatedAt: isoDate,
});
export type PublicProfile = z.infer<typeof publicProfile>;

/** GET /api/creator/public-profile: the profile, or null before the creator saved one. */
export const ownPublicProfile = publicProfile.nullable();

/** A published course as a creator's page and Browse list it. */
export const storefrontCourse = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** Pence; 0 = not for sale. */
  priceAmount: z.number().int().min(0),
  lessonCount: z.number().int().min(0),
});
export type StorefrontCourse = z.infer<typeof storefrontCourse>;

/** GET /api/public/creators/{slug}: the creator's page (no sign-in); their published courses, newest first. */
export const publicCreator = z.object({
  slug: z.string(),
  displayName: z.string(),
  bio: z.string(),
  avatarUrl: z.string().nullable(),
  courses: z.array(storefrontCourse),
  /** The creator's bundles on sale (issue 34): active, every course still published; newest first. Page: /b/{id}. */
  bundles: z.array(z.object({ id: z.string(), title: z.string(), priceAmount: z.number().int(), courseCount: z.number().int() })),
  /** The creator's memberships taking members (issue 34): active, while their plan sells them; newest first. Page: /m/{id}. */
  memberships: z.array(z.object({ id: z.string(), title: z.string(), interval: z.enum(['month', 'year']), priceAmount: z.number().int(), allCourses: z.boolean() })),
  /** The creator's school branding (issue 32), null without it or while their plan does not include it. */
  branding: brandingView.nullable(),
});
export type PublicCreator = z.infer<typeof publicCreator>;

/**
 * GET /api/public/courses/{courseId}: API.md's fields (`publicCourse`) plus where the creator's page is
 * (`creatorSlug`, null before they have one) and their picture.
 */
export const publicCoursePage = publicCourse.extend({
  creatorSlug: z.string().nullable(),
  creatorAvatarUrl: z.string().nullable(),
  /**
   * Whether it can be bought now (issue 29): false while its creator's plan does not sell (none, or ended); the page
   * says 'This course is not on sale at the moment.' and a checkout answers 409 with that sentence.
   */
  onSale: z.boolean(),
  /** The most seats one team licence of it may have (the creator's Starter plan: 10); null: any number. */
  teamSeatsMax: z.number().int().nullable(),
  /** The creator's school branding (issue 32), null without it or while their plan does not include it. */
  branding: brandingView.nullable(),
});
export type PublicCoursePage = z.infer<typeof publicCoursePage>;

export { DEFAULT_CREATOR_NAME } from './common.ts';

/** GET /api/learner/browse: the published, priced courses of the creators the learner learns with, not yet theirs. */
export const browseCourse = storefrontCourse.extend({ creatorName: z.string(), creatorSlug: z.string().nullable() });
export type BrowseCourse = z.infer<typeof browseCourse>;
export const browseList = z.object({ items: z.array(browseCourse) });
export type BrowseList = z.infer<typeof browseList>;
