import { onPrimaryColor, type BrandingBody, type BrandingView, type LogoUpload, type LogoUploadBody } from '#contracts/branding.ts';
import { hasFeature } from '#contracts/entitlements.ts';
import { NotFoundError } from '#core/errors.ts';
import { planOf } from '#core/billing/subscription-state.ts';
import type { BillingRepository, BrandingRepository, Clock, Ids, ImageStore, MailSchool, StoredBranding } from '#core/ports.ts';
import { pictureUpload, pictureUrl, uploadedPicture, type AvatarDeps } from '#core/storefront/public-profile.ts';

/**
 * A creator's branding (issue 32 point 1): the school's name, primary colour and logo. Saved by a Pro creator; shown
 * wherever their learners and visitors meet them while their plan includes `branding` (a creator who leaves Pro keeps
 * what they saved, and their pages look as the platform's until they return). The logo is uploaded like their avatar:
 * a presigned PUT under their own prefix of the files bucket, checked on save, shown through signed links.
 */
export const LOGO_NOT_UPLOADED = 'The logo was not uploaded, or is not a PNG, JPEG or WebP image of up to 2 MB. Choose it again.';

/** Where a school's logo lives: beside the creator's avatars (the 'avatars' grants reach `avatars/<creatorId>/`). */
export const logoKey = (creatorId: string, logoId: string): string => `avatars/${creatorId}/logos/${logoId}`;

export interface BrandingDeps {
  branding: BrandingRepository;
  images: ImageStore;
  clock: Clock;
  ids: Ids;
}

/** The branding as its pages and answers show it: the readable text colour computed, the logo's signed link. */
export const brandingViewOf = async (deps: AvatarDeps, stored: StoredBranding): Promise<BrandingView> => ({
  schoolName: stored.schoolName,
  primaryColor: stored.primaryColor,
  onPrimaryColor: onPrimaryColor(stored.primaryColor),
  logoUrl: stored.logo ? await pictureUrl(deps, logoKey(stored.creatorId, stored.logo.id)) : null,
});

/** GET /api/branding: the creator's branding, or null before the first save. */
export const getBranding = async (deps: AvatarDeps & Pick<BrandingDeps, 'branding'>, creatorId: string): Promise<BrandingView | null> => {
  const stored = await deps.branding.get(creatorId);
  return stored ? brandingViewOf(deps, stored) : null;
};

/** POST /api/branding/logo/uploads: a new logo's id and its presigned PUT. */
export const startLogoUpload = async (deps: { images: Pick<ImageStore, 'uploadUrl'>; clock: Clock; ids: Ids }, input: { creatorId: string; body: LogoUploadBody }): Promise<LogoUpload> => {
  const fileId = deps.ids.newId();
  return { fileId, ...(await pictureUpload(deps, logoKey(input.creatorId, fileId), input.body)) };
};

/**
 * PUT /api/branding: the whole branding. A new logo must be in the bucket as its upload allowed (400 otherwise); the
 * logo it replaces goes from the bucket once the branding is saved.
 */
export const saveBranding = async (deps: BrandingDeps, input: { creatorId: string; body: BrandingBody }): Promise<BrandingView> => {
  const current = await deps.branding.get(input.creatorId);
  const requested = input.body.logoFileId;
  const logo =
    requested === undefined
      ? (current?.logo ?? null)
      : requested === null
        ? null
        : current?.logo?.id === requested
          ? current.logo
          : await uploadedPicture(deps.images, logoKey(input.creatorId, requested), requested, { field: 'logoFileId', message: LOGO_NOT_UPLOADED });
  const branding: StoredBranding = { creatorId: input.creatorId, schoolName: input.body.schoolName, primaryColor: input.body.primaryColor, logo, updatedAt: deps.clock.now().toISOString() };
  await deps.branding.save(branding);
  if (current?.logo && current.logo.id !== logo?.id) await deps.images.delete(logoKey(input.creatorId, current.logo.id));
  return brandingViewOf(deps, branding);
};

/** What finds a creator's school for their learners' emails: the branding, the plan, the app's origin for the logo's link. */
export interface MailSchoolDeps {
  branding: Pick<BrandingRepository, 'get'>;
  billing: Pick<BillingRepository, 'getSubscription'>;
  appOrigin: string;
}

/** The creator's branding while their plan includes it (the two read side by side), else undefined. */
const brandingInForce = async (deps: Omit<MailSchoolDeps, 'appOrigin'>, creatorId: string): Promise<StoredBranding | undefined> => {
  const [branding, subscription] = await Promise.all([deps.branding.get(creatorId), deps.billing.getSubscription(creatorId)]);
  return branding && hasFeature(planOf(subscription), 'branding') ? branding : undefined;
};

/** The branding a creator's learners see in the player (issue 32): theirs while their plan includes it, else null. */
export const brandingInForceView = async (deps: AvatarDeps & Omit<MailSchoolDeps, 'appOrigin'>, creatorId: string): Promise<BrandingView | null> => {
  const branding = await brandingInForce(deps, creatorId);
  return branding ? brandingViewOf(deps, branding) : null;
};

/** The lasting link of a school's logo in emails (the public logo route; `v` changes with the logo, for caches). */
export const schoolLogoLink = (appOrigin: string, creatorId: string, logoId: string): string =>
  `${appOrigin.replace(/\/+$/, '')}/api/public/schools/${encodeURIComponent(creatorId)}/logo?v=${encodeURIComponent(logoId)}`;

/**
 * The school an email to a creator's learners comes from (issue 32): its name as the sender's and its logo on top,
 * while the creator's plan includes branding; undefined otherwise (the platform's own email, as before).
 */
export const mailSchoolOf = async (deps: MailSchoolDeps, creatorId: string): Promise<MailSchool | undefined> => {
  const branding = await brandingInForce(deps, creatorId);
  if (!branding) return undefined;
  return { name: branding.schoolName, logoUrl: branding.logo ? schoolLogoLink(deps.appOrigin, creatorId, branding.logo.id) : null };
};

export const NO_SCHOOL_LOGO = 'This school has no logo.';

/**
 * GET /api/public/schools/{creatorId}/logo: where an email's logo is read from. The logo's signed link (short-lived, so
 * never put in an email itself), or 404 without a logo or while the plan does not include branding.
 */
export const schoolLogoLocation = async (deps: AvatarDeps & Omit<MailSchoolDeps, 'appOrigin'>, creatorId: string): Promise<string> => {
  const branding = await brandingInForce(deps, creatorId);
  if (!branding?.logo) throw new NotFoundError(NO_SCHOOL_LOGO);
  return pictureUrl(deps, logoKey(creatorId, branding.logo.id));
};
