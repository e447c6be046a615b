import { describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES, AVATAR_UPLOAD_TTL_SECONDS, creatorSlug, publicProfileBody, type PublicProfileBody } from '#contracts/storefront.ts';
import { ConflictError } from '#core/errors.ts';
import {
  AVATAR_URL_TTL_SECONDS,
  avatarKey,
  getPublicProfile,
  PICTURE_NOT_UPLOADED,
  PROFILE_CHANGED,
  savePublicProfile,
  slugTakenMessage,
  startAvatarUpload,
} from '#core/storefront/public-profile.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { memoryImageStore, memoryPublicProfiles } from '#test/functions/fakes/public-profiles.ts';

const deps = () => ({ profiles: memoryPublicProfiles(), images: memoryImageStore(), clock: testClock('2026-11-25T10:07:30.000Z'), ids: sequentialIds('avatar') });
const body = (over: Partial<PublicProfileBody> = {}): PublicProfileBody => ({ displayName: 'Jane Cooks', bio: 'Chef, teacher.', slug: 'jane-cooks', ...over });
const save = (d: ReturnType<typeof deps>, over: Partial<PublicProfileBody> = {}, creatorId = 'c1') => savePublicProfile(d, { creatorId, body: body(over) });

/** A picture the browser uploaded with the URL the API gave. */
const uploaded = async (d: ReturnType<typeof deps>, creatorId = 'c1', type: 'image/png' | 'image/jpeg' | 'image/webp' = 'image/png', size = 40_000) => {
  const { avatarId } = await startAvatarUpload(d, { creatorId, body: { contentType: type, size } });
  d.images.put(avatarKey(creatorId, avatarId), size, type);
  return avatarId;
};

describe("a creator's public profile", () => {
  it('is null before the first save', async () => {
    expect(await getPublicProfile(deps(), 'c1')).toBeNull();
  });

  it('saves name, bio and address, and reads them back', async () => {
    const d = deps();
    const saved = await save(d);
    expect(saved).toEqual({ displayName: 'Jane Cooks', bio: 'Chef, teacher.', slug: 'jane-cooks', avatarUrl: null, updatedAt: '2026-11-25T10:07:30.000Z' });
    expect(await getPublicProfile(d, 'c1')).toEqual(saved);
    expect(await d.profiles.getBySlug('jane-cooks')).toMatchObject({ creatorId: 'c1', displayName: 'Jane Cooks' });
  });

  it('keeps an empty bio when none is sent', async () => {
    const d = deps();
    const { bio: _bio, ...rest } = body();
    expect((await savePublicProfile(d, { creatorId: 'c1', body: rest })).bio).toBe('');
  });

  it("refuses an address another creator holds (409), keeping theirs and writing nothing of the caller's", async () => {
    const d = deps();
    await save(d, {}, 'c1');
    await expect(save(d, { displayName: 'Impostor' }, 'c2')).rejects.toThrow(new ConflictError(slugTakenMessage('jane-cooks')));
    expect(await d.profiles.get('c2')).toBeUndefined();
    expect((await d.profiles.getBySlug('jane-cooks'))?.displayName).toBe('Jane Cooks');
  });

  it('moves to a new address and frees the old one for anyone', async () => {
    const d = deps();
    await save(d);
    await save(d, { slug: 'jane-bakes' });
    expect(await d.profiles.getBySlug('jane-cooks')).toBeUndefined();
    expect((await d.profiles.getBySlug('jane-bakes'))?.creatorId).toBe('c1');
    await save(d, { displayName: 'Other Jane' }, 'c2');
    expect((await d.profiles.getBySlug('jane-cooks'))?.creatorId).toBe('c2');
  });

  it('refuses a save when the profile changed since it was read (another tab), writing nothing', async () => {
    const d = deps();
    await save(d);
    d.profiles.before('save', async (call) => {
      if (call === 2) await d.profiles.save({ profile: { ...(await d.profiles.get('c1'))!, bio: 'Other tab', version: 2 }, previous: { slug: 'jane-cooks', version: 1 } });
    });
    await expect(save(d, { bio: 'This tab' })).rejects.toThrow(new ConflictError(PROFILE_CHANGED));
    expect((await d.profiles.get('c1'))?.bio).toBe('Other tab');
  });
});

describe('the address rules (contract)', () => {
  it.each(['jane', 'jane-cooks-2', 'abc', 'a'.repeat(40)])('accepts %s', (slug) => {
    expect(creatorSlug.safeParse(slug).success).toBe(true);
  });

  it.each(['ab', 'a'.repeat(41), 'jane_cooks', '-jane', 'jane-', 'jane--cooks', 'jané', 'admin', 'api', 'dashboard'])('refuses %s', (slug) => {
    expect(creatorSlug.safeParse(slug).success).toBe(false);
  });

  it('takes an address typed in capitals or with spaces around as its lower-case form', () => {
    expect(creatorSlug.parse('  Jane-Cooks ')).toBe('jane-cooks');
  });

  it('wants a display name of 1 to 80 characters and a bio of at most 500', () => {
    expect(publicProfileBody.safeParse(body({ displayName: '  ' })).success).toBe(false);
    expect(publicProfileBody.safeParse(body({ displayName: 'x'.repeat(81) })).success).toBe(false);
    expect(publicProfileBody.safeParse(body({ bio: 'x'.repeat(501) })).success).toBe(false);
    expect(publicProfileBody.safeParse(body({ displayName: 'x'.repeat(80), bio: 'x'.repeat(500) })).success).toBe(true);
  });
});

describe("the profile's picture", () => {
  it('is uploaded with a presigned PUT under the creator\'s own prefix, its type and exact size signed, for ten minutes', async () => {
    const d = deps();
    const upload = await startAvatarUpload(d, { creatorId: 'c1', body: { contentType: 'image/webp', size: 123_456 } });
    expect(upload).toEqual({
      avatarId: 'avatar-1',
      uploadUrl: `https://files.test/avatars/c1/avatar-1?put&type=image%2Fwebp&length=123456&expires=${AVATAR_UPLOAD_TTL_SECONDS}`,
      headers: { 'content-type': 'image/webp' },
      expiresAt: '2026-11-25T10:17:30.000Z',
    });
  });

  it('joins the profile once uploaded, shown through a signed URL that stays the same within its ten-minute window', async () => {
    const d = deps();
    const avatarId = await uploaded(d);
    const saved = await save(d, { avatarId });
    expect(saved.avatarUrl).toBe(`https://files.test/avatars/c1/${avatarId}?signed=2026-11-25T10:00:00.000Z&expires=${AVATAR_URL_TTL_SECONDS}`);
    d.clock.advance(2 * 60 * 1000);
    expect((await getPublicProfile(d, 'c1'))?.avatarUrl).toBe(saved.avatarUrl);
    d.clock.advance(10 * 60 * 1000);
    expect((await getPublicProfile(d, 'c1'))?.avatarUrl).toContain('signed=2026-11-25T10:10:00.000Z');
  });

  it('is kept by a save that does not mention it, and removed (object and all) by avatarId null', async () => {
    const d = deps();
    const avatarId = await uploaded(d);
    await save(d, { avatarId });
    expect((await save(d, { bio: 'New bio' })).avatarUrl).toContain(avatarId);
    expect((await save(d, { avatarId: null })).avatarUrl).toBeNull();
    expect(d.images.keys()).toEqual([]);
  });

  it('replaces the previous picture, whose object goes', async () => {
    const d = deps();
    const first = await uploaded(d);
    await save(d, { avatarId: first });
    const second = await uploaded(d, 'c1', 'image/jpeg');
    expect((await save(d, { avatarId: second })).avatarUrl).toContain(second);
    expect(d.images.keys()).toEqual([avatarKey('c1', second)]);
  });

  it('is refused (400) when nothing was uploaded, when the stored object is too big or not an image we take, or is another creator\'s', async () => {
    const d = deps();
    const refused = { code: 'VALIDATION_FAILED', message: PICTURE_NOT_UPLOADED, details: [{ path: 'avatarId', message: PICTURE_NOT_UPLOADED }] };
    await expect(save(d, { avatarId: 'never-uploaded' })).rejects.toMatchObject(refused);
    const big = await uploaded(d, 'c1', 'image/png', AVATAR_MAX_BYTES + 1);
    await expect(save(d, { avatarId: big })).rejects.toMatchObject(refused);
    const { avatarId: svg } = await startAvatarUpload(d, { creatorId: 'c1', body: { contentType: 'image/png', size: 10 } });
    d.images.put(avatarKey('c1', svg), 10, 'image/svg+xml');
    await expect(save(d, { avatarId: svg })).rejects.toMatchObject(refused);
    const theirs = await uploaded(d, 'c2');
    await expect(save(d, { avatarId: theirs })).rejects.toMatchObject(refused);
    expect(await d.profiles.get('c1')).toBeUndefined();
  });

  it('keeps the old picture when the save fails on a taken address', async () => {
    const d = deps();
    await save(d, { slug: 'taken-one' }, 'c2');
    const first = await uploaded(d);
    await save(d, { avatarId: first });
    const second = await uploaded(d);
    await expect(save(d, { avatarId: second, slug: 'taken-one' })).rejects.toThrow(ConflictError);
    expect(d.images.keys()).toContain(avatarKey('c1', first));
    expect((await getPublicProfile(d, 'c1'))?.avatarUrl).toContain(first);
  });
});
