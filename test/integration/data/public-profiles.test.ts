import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredPublicProfile } from '#core/ports.ts';
import { dynamoPublicProfiles, publicProfileKeys } from '#data/public-profiles.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const at = '2026-11-25T10:00:00.000Z';
const slugOf = (tag: string) => unique(tag).toLowerCase();

const profile = (over: Partial<StoredPublicProfile> = {}): StoredPublicProfile => ({
  creatorId: unique('creator'),
  displayName: 'Jane Cooks',
  bio: 'Chef and teacher.',
  slug: slugOf('jane'),
  avatar: null,
  version: 1,
  updatedAt: at,
  ...over,
});

describe('the public profiles (DynamoDB Local)', () => {
  it('saves a first profile with its address, read back by creator and by address; nothing for strangers', async () => {
    const profiles = dynamoPublicProfiles();
    const first = profile({ avatar: { id: '01JD0000000000000000000000', contentType: 'image/png' } });
    expect(await profiles.save({ profile: first, previous: undefined })).toBe('saved');
    expect(await profiles.get(first.creatorId)).toEqual(first);
    expect(await profiles.getBySlug(first.slug)).toEqual(first);
    expect(await rawItem(publicProfileKeys.slug(first.slug))).toMatchObject({ type: 'CreatorSlug', creatorId: first.creatorId });
    expect(await rawItem(publicProfileKeys.profile(first.creatorId))).toMatchObject({ type: 'PublicProfile', slug: first.slug });
    expect(await profiles.get(unique('nobody'))).toBeUndefined();
    expect(await profiles.getBySlug(slugOf('nobody'))).toBeUndefined();
  });

  it("refuses an address another creator holds, writing nothing of the caller's", async () => {
    const profiles = dynamoPublicProfiles();
    const holder = profile();
    await profiles.save({ profile: holder, previous: undefined });
    const other = profile({ slug: holder.slug, displayName: 'Impostor' });
    expect(await profiles.save({ profile: other, previous: undefined })).toBe('slug-taken');
    expect(await profiles.get(other.creatorId)).toBeUndefined();
    expect((await profiles.getBySlug(holder.slug))?.displayName).toBe('Jane Cooks');
  });

  it('updates in place at the same address, keeping the copy behind the address in step', async () => {
    const profiles = dynamoPublicProfiles();
    const first = profile();
    await profiles.save({ profile: first, previous: undefined });
    const second = { ...first, bio: 'Now also bakes.', version: 2 };
    expect(await profiles.save({ profile: second, previous: first })).toBe('saved');
    expect(await profiles.getBySlug(first.slug)).toEqual(second);
  });

  it('moves to a new address and frees the old one, which another creator can then take', async () => {
    const profiles = dynamoPublicProfiles();
    const first = profile();
    await profiles.save({ profile: first, previous: undefined });
    const moved = { ...first, slug: slugOf('moved'), version: 2 };
    expect(await profiles.save({ profile: moved, previous: first })).toBe('saved');
    expect(await rawItem(publicProfileKeys.slug(first.slug))).toBeUndefined();
    expect((await profiles.getBySlug(moved.slug))?.creatorId).toBe(first.creatorId);
    const taker = profile({ slug: first.slug });
    expect(await profiles.save({ profile: taker, previous: undefined })).toBe('saved');
  });

  it("answers 'changed' when the profile is not at the version read (or exists already), writing nothing", async () => {
    const profiles = dynamoPublicProfiles();
    const first = profile();
    await profiles.save({ profile: first, previous: undefined });
    expect(await profiles.save({ profile: { ...first, bio: 'again', version: 2 }, previous: undefined })).toBe('changed');
    expect(await profiles.save({ profile: { ...first, bio: 'stale', slug: slugOf('elsewhere'), version: 5 }, previous: { slug: first.slug, version: 4 } })).toBe('changed');
    expect(await profiles.get(first.creatorId)).toEqual(first);
    expect(await profiles.getBySlug(first.slug)).toEqual(first);
  });

  it('one address for two creators saving it at once: exactly one gets it', async () => {
    const profiles = dynamoPublicProfiles();
    const slug = slugOf('race');
    const results = await Promise.all([0, 1, 2, 3].map(() => profiles.save({ profile: profile({ slug }), previous: undefined })));
    expect(results.filter((r) => r === 'saved')).toHaveLength(1);
    expect(results.filter((r) => r === 'slug-taken')).toHaveLength(3);
  });

  it('reads several profiles in one batch, skipping creators without one and repeated ids', async () => {
    const profiles = dynamoPublicProfiles();
    const a = profile();
    const b = profile();
    await profiles.save({ profile: a, previous: undefined });
    await profiles.save({ profile: b, previous: undefined });
    const found = await profiles.getMany([a.creatorId, b.creatorId, a.creatorId, unique('none')]);
    expect(found.map((p) => p.creatorId).sort()).toEqual([a.creatorId, b.creatorId].sort());
    expect(await profiles.getMany([])).toEqual([]);
  });

  it('reads an item written without an avatar attribute as having none', async () => {
    const creatorId = unique('legacy');
    await putRaw({ ...publicProfileKeys.profile(creatorId), type: 'PublicProfile', creatorId, displayName: 'Old', bio: '', slug: slugOf('old'), version: 1, updatedAt: at });
    expect((await dynamoPublicProfiles().get(creatorId))?.avatar).toBeNull();
  });
});
