import {
  AVATAR_CONTENT_TYPES,
  AVATAR_MAX_BYTES,
  AVATAR_UPLOAD_TTL_SECONDS,
  type AvatarUpload,
  type AvatarUploadBody,
  type PublicProfile,
  type PublicProfileBody,
} from '#contracts/storefront.ts';
import { ConflictError, ValidationError } from '#core/errors.ts';
import type { Clock, Ids, ImageStore, PublicProfileRepository, StoredPublicProfile } from '#core/ports.ts';

/**
 * A creator's public profile (issue 12 point 2): the name, bio, picture and address visitors see at `/u/<slug>` and
 * on each course page. The address is unique across creators (reserved with the profile in one transaction); the
 * picture is uploaded straight to the private files bucket and shown through short-lived signed URLs.
 */

/** Where a creator's picture lives: under `avatars/<creatorId>/`, the only objects the avatar grants reach. */
export const avatarKey = (creatorId: string, avatarId: string): string => `avatars/${creatorId}/${avatarId}`;

/** How long a picture's signed URL works, and the window it is signed in (one URL per window: the browser caches it). */
export const AVATAR_URL_TTL_SECONDS = 60 * 60;
export const AVATAR_URL_WINDOW_MS = 10 * 60 * 1000;

export const PICTURE_NOT_UPLOADED = 'The picture was not uploaded, or is not a PNG, JPEG or WebP image of up to 2 MB. Choose it again.';
export const PROFILE_CHANGED = 'Your public profile changed while it was being saved (in another tab?). Reload it and try again.';
export const slugTakenMessage = (slug: string) => `The address /u/${slug} is already taken. Choose another.`;

/** What shows a picture: its signed view link (the public pages, the profile as read). */
export interface AvatarDeps {
  images: Pick<ImageStore, 'viewUrl'>;
  clock: Clock;
}

/** Saving a profile: the picture checked and the old one deleted too. */
export interface PublicProfileDeps {
  profiles: PublicProfileRepository;
  images: ImageStore;
  clock: Clock;
}

/** A creator's picture's signed URL (an avatar, a school's logo), the same all through its window. */
export const pictureUrl = (deps: AvatarDeps, key: string): Promise<string> => {
  const now = deps.clock.now().getTime();
  return deps.images.viewUrl(key, { ttlSeconds: AVATAR_URL_TTL_SECONDS, signedAt: new Date(now - (now % AVATAR_URL_WINDOW_MS)) });
};

/** The picture's signed URL, or null without one. */
export const avatarUrl = async (deps: AvatarDeps, profile: Pick<StoredPublicProfile, 'creatorId' | 'avatar'> | undefined): Promise<string | null> =>
  profile?.avatar ? pictureUrl(deps, avatarKey(profile.creatorId, profile.avatar.id)) : null;

/**
 * A new picture the browser says it uploaded: there, of an allowed type and size (HeadObject), or 400 with `message`
 * on `field`. Answers what is kept of it.
 */
export const uploadedPicture = async (images: Pick<ImageStore, 'head'>, key: string, id: string, refusal: { field: string; message: string }): Promise<{ id: string; contentType: string }> => {
  const stored = await images.head(key);
  const type = stored?.contentType;
  if (!stored || stored.size > AVATAR_MAX_BYTES || !type || !(AVATAR_CONTENT_TYPES as readonly string[]).includes(type)) {
    throw new ValidationError(refusal.message, [{ path: refusal.field, message: refusal.message }]);
  }
  return { id, contentType: type };
};

const view = async (deps: AvatarDeps, profile: StoredPublicProfile): Promise<PublicProfile> => ({
  displayName: profile.displayName,
  bio: profile.bio,
  slug: profile.slug,
  avatarUrl: await avatarUrl(deps, profile),
  updatedAt: profile.updatedAt,
});

/** GET /api/creator/public-profile: the creator's profile, or null before the first save. */
export const getPublicProfile = async (deps: AvatarDeps & Pick<PublicProfileDeps, 'profiles'>, creatorId: string): Promise<PublicProfile | null> => {
  const profile = await deps.profiles.get(creatorId);
  return profile ? view(deps, profile) : null;
};

/**
 * POST /api/creator/public-profile/avatar: a new picture's id and a presigned PUT under the creator's own prefix,
 * signed over the declared type and exact size, for AVATAR_UPLOAD_TTL_SECONDS.
 */
export const startAvatarUpload = async (deps: { images: Pick<ImageStore, 'uploadUrl'>; clock: Clock; ids: Ids }, input: { creatorId: string; body: AvatarUploadBody }): Promise<AvatarUpload> => {
  const id = deps.ids.newId();
  return { avatarId: id, ...(await pictureUpload(deps, avatarKey(input.creatorId, id), input.body)) };
};

/** A presigned PUT of a picture to `key`, signed over its declared type and exact size, for AVATAR_UPLOAD_TTL_SECONDS. */
export const pictureUpload = async (deps: { images: Pick<ImageStore, 'uploadUrl'>; clock: Clock }, key: string, body: { contentType: string; size: number }) => ({
  uploadUrl: await deps.images.uploadUrl(key, { contentType: body.contentType, contentLength: body.size, ttlSeconds: AVATAR_UPLOAD_TTL_SECONDS }),
  headers: { 'content-type': body.contentType },
  expiresAt: new Date(deps.clock.now().getTime() + AVATAR_UPLOAD_TTL_SECONDS * 1000).toISOString(),
});

/** The picture the save asks for: kept, removed, or a new upload that must be there and be what the upload allowed. */
const chosenAvatar = async (deps: PublicProfileDeps, creatorId: string, current: StoredPublicProfile | undefined, requested: string | null | undefined) => {
  if (requested === undefined) return current?.avatar ?? null;
  if (requested === null) return null;
  if (current?.avatar?.id === requested) return current.avatar;
  return uploadedPicture(deps.images, avatarKey(creatorId, requested), requested, { field: 'avatarId', message: PICTURE_NOT_UPLOADED });
};

/**
 * PUT /api/creator/public-profile: 1. read the current profile; 2. check a new picture in the bucket; 3. write the
 * profile with its address in one transaction (409 when another creator holds the address, or when the profile
 * changed since step 1); 4. the picture it replaced goes from the bucket.
 */
export const savePublicProfile = async (deps: PublicProfileDeps, input: { creatorId: string; body: PublicProfileBody }): Promise<PublicProfile> => {
  const current = await deps.profiles.get(input.creatorId);
  const avatar = await chosenAvatar(deps, input.creatorId, current, input.body.avatarId);
  const profile: StoredPublicProfile = {
    creatorId: input.creatorId,
    displayName: input.body.displayName,
    bio: input.body.bio ?? '',
    slug: input.body.slug,
    avatar,
    version: (current?.version ?? 0) + 1,
    updatedAt: deps.clock.now().toISOString(),
  };
  const result = await deps.profiles.save({ profile, previous: current && { slug: current.slug, version: current.version } });
  if (result === 'slug-taken') throw new ConflictError(slugTakenMessage(profile.slug));
  if (result === 'changed') throw new ConflictError(PROFILE_CHANGED);
  if (current?.avatar && current.avatar.id !== avatar?.id) await deps.images.delete(avatarKey(input.creatorId, current.avatar.id));
  return view(deps, profile);
};
