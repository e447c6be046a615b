import * as z from 'zod';

/**
 * A Pro creator's branding (issue 32 point 1; docs/api.md "Branding and custom domains (Pro)"): the school's name, its
 * primary colour and its logo, shown on the creator's public pages, the learner's player for their courses, the emails
 * to their learners and their certificates' issuer. The text colour on the primary colour (`onPrimaryColor`) is black
 * or white, whichever reaches 4.5:1 (WCAG AA for normal text); computed here so the web app's live preview and the
 * server agree.
 */
export const SCHOOL_NAME_MAX = 60;
/** The logo: a PNG, JPEG or WebP image of up to 2 MiB (no SVG: it can carry script), as the creators' avatars. */
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_TYPE_MESSAGE = 'Choose a PNG, JPEG or WebP image.';
export const LOGO_SIZE_MESSAGE = 'A logo can be up to 2 MB.';
/** The colour a school starts from (the platform's own primary). */
export const DEFAULT_PRIMARY_COLOR = '#18181b';
export const MIN_TEXT_CONTRAST = 4.5;

const hexColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #1d4ed8.')
  .transform((c) => c.toLowerCase());

/** A ULID, as POST /api/branding/logo/uploads handed it out. */
export const logoFileId = z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'Not a logo uploaded for this school.');

/** PUT /api/branding. `logoFileId`: a logo uploaded for it (new), null to remove the current one, absent to keep it. */
export const brandingBody = z.strictObject({
  schoolName: z.string().trim().min(1, 'Enter the name of your school.').max(SCHOOL_NAME_MAX, `Use at most ${SCHOOL_NAME_MAX} characters.`),
  primaryColor: hexColor,
  logoFileId: logoFileId.nullable().optional(),
});
export type BrandingBody = z.infer<typeof brandingBody>;

/** The branding as shown (GET and PUT /api/branding; `branding` on the public course and creator pages). */
export const brandingView = z.object({
  schoolName: z.string(),
  primaryColor: z.string(),
  onPrimaryColor: z.enum(['#000000', '#ffffff']),
  /** A short-lived signed link to the logo, or null without one. */
  logoUrl: z.string().nullable(),
});
export type BrandingView = z.infer<typeof brandingView>;

/** GET /api/branding: the creator's branding, or null before the first save (their pages look as the platform's). */
export const brandingAnswer = brandingView.nullable();

/** POST /api/branding/logo/uploads: the logo about to be uploaded. */
export const logoUploadBody = z.strictObject({
  contentType: z.enum(LOGO_CONTENT_TYPES, LOGO_TYPE_MESSAGE),
  size: z.number().int().min(1, 'The file is empty.').max(LOGO_MAX_BYTES, LOGO_SIZE_MESSAGE),
});
export type LogoUploadBody = z.infer<typeof logoUploadBody>;

/** Its answer: PUT the bytes to `uploadUrl` with `headers` before `expiresAt`, then save the branding with `fileId`. */
export const logoUpload = z.object({ fileId: logoFileId, uploadUrl: z.url(), headers: z.record(z.string(), z.string()), expiresAt: z.string() });
export type LogoUpload = z.infer<typeof logoUpload>;

/** The relative luminance of an sRGB colour `#rrggbb` (WCAG 2.x). */
export const relativeLuminance = (hex: string): number => {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
};

/** The contrast ratio of two colours (1 to 21). */
export const contrastRatio = (a: string, b: string): number => {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** The text colour for the primary colour: black or white, whichever has more contrast (it always reaches 4.5:1). */
export const onPrimaryColor = (primary: string): '#000000' | '#ffffff' =>
  contrastRatio(primary, '#ffffff') >= contrastRatio(primary, '#000000') ? '#ffffff' : '#000000';
