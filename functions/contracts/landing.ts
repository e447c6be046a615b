import * as z from 'zod';
import { isoDate } from './common.ts';

/** SPEC.md section 2 (the generator form's selects), in the order the form lists them. */
export const businessTypes = ['business', 'technology', 'design', 'health', 'education', 'finance', 'lifestyle', 'other'] as const;
export const colorThemes = ['professional', 'modern', 'warm', 'fresh', 'elegant', 'vibrant'] as const;
export type BusinessType = (typeof businessTypes)[number];
export type ColorTheme = (typeof colorThemes)[number];

/** Longest company name and longest free-text field (mission, problem) the form and the API accept. */
export const COMPANY_NAME_MAX = 120;
export const LANDING_TEXT_MAX = 2000;
/** docs/api.md: the landing-page routes accept bodies up to 512 KiB; the HTML itself stays a little below. */
export const LANDING_BODY_LIMIT = 512 * 1024;
export const LANDING_CONTENT_MAX = 500 * 1024;

/** The generator form: what is generated from, and what is saved beside the page (`settings`). */
export const landingSettings = z.strictObject({
  companyName: z.string().trim().min(1, 'Enter your company or brand name.').max(COMPANY_NAME_MAX),
  businessType: z.enum(businessTypes),
  colorTheme: z.enum(colorThemes),
  missionStatement: z.string().trim().max(LANDING_TEXT_MAX),
  problemSolved: z.string().trim().max(LANDING_TEXT_MAX),
});
export type LandingSettings = z.infer<typeof landingSettings>;

/** POST /api/landing-pages/generate (optional Idempotency-Key header: the same key is charged and generated once). */
export const generateLandingBody = landingSettings;
export type GenerateLandingBody = LandingSettings;

export const generateLandingResponse = z.object({
  /** Sanitized: no script, event handler, javascript: URL, frame, object, base or meta refresh. */
  html: z.string(),
  creditsRemaining: z.number().int().min(0),
});
export type GenerateLandingResponse = z.infer<typeof generateLandingResponse>;

/** A public page address: lower-case letters, digits and single hyphens, 3-60 characters. */
export const landingSlug = z
  .string()
  .min(3, 'Use at least 3 characters.')
  .max(60, 'Use at most 60 characters.')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lower-case letters, digits and single hyphens (e.g. acme-academy).');

/** Where and since when the page is public; `path` is on the pages origin (config `pagesUrl`), e.g. /p/acme. */
export const landingPublication = z.object({
  slug: landingSlug,
  path: z.string(),
  publishedAt: isoDate,
});
export type LandingPublication = z.infer<typeof landingPublication>;

/** The creator's saved page (one per creator). */
export const landingPage = z.object({
  content: z.string(),
  settings: landingSettings,
  updatedAt: isoDate,
  /** null while not published. The published copy is the content as it was when published (publish again to update). */
  publication: landingPublication.nullable(),
});
export type LandingPage = z.infer<typeof landingPage>;

/** GET /api/landing-page: null before the first save. */
export const landingPageResponse = landingPage.nullable();

/** PUT /api/landing-page: content is sanitized again on save. */
export const saveLandingBody = z.strictObject({
  content: z.string().min(1, 'The page is empty.').max(LANDING_CONTENT_MAX),
  settings: landingSettings,
});
export type SaveLandingBody = z.infer<typeof saveLandingBody>;

/** PUT /api/landing-page/publication: publishes the saved page at /p/<slug> (or moves it there). */
export const publishLandingBody = z.strictObject({ slug: landingSlug });
export type PublishLandingBody = z.infer<typeof publishLandingBody>;

/** The public page's path on the pages origin. */
export const publicPagePath = (slug: string): string => `/p/${slug}`;

/**
 * The Content-Security-Policy of a published page (GET /api/public/pages/{slug}), also enforced by the pages
 * distribution in the cloud: no script at all, styles and images only, never framed, no form posts. `sandbox` makes
 * the page an opaque origin wherever it is served, so it can never read the app's storage or cookies.
 */
export const PUBLIC_PAGE_CSP = [
  'sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation',
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src https: data:',
  'font-src https: data:',
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
