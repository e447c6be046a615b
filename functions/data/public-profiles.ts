import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import type { PublicProfileRepository, StoredPublicProfile } from '#core/ports.ts';
import { batchGet, documentClient, failedAt, tableName, transact } from '#data/table.ts';

/**
 * public_profiles (access patterns: the creator's own profile; a profile by its public address; the profiles of a few
 * creators at once, for the learner's Browse).
 * Profile:  pk USER#<creatorId>        sk PUBLICPROFILE  creatorId, displayName, bio, slug, avatar {id, contentType}?,
 *                                                       version, updatedAt
 * Slug:     pk CREATORSLUG#<slug>      sk CREATORSLUG    the same fields: a copy of the profile, so `/u/<slug>` is one read
 * A slug belongs to whoever holds its item: a save reserves it (and frees the one it leaves) in the same transaction
 * as the profile, as landing pages do with LANDINGSLUG# (functions/data/landing-pages.ts).
 */
export const publicProfileKeys = {
  profile: (creatorId: string) => ({ pk: `USER#${creatorId}`, sk: 'PUBLICPROFILE' }),
  slug: (slug: string) => ({ pk: `CREATORSLUG#${slug}`, sk: 'CREATORSLUG' }),
};

const profileItem = z.object({
  creatorId: z.string(),
  displayName: z.string(),
  bio: z.string(),
  slug: z.string(),
  avatar: z.object({ id: z.string(), contentType: z.string() }).nullish(),
  version: z.number().int().min(1),
  updatedAt: isoDate,
});

const toProfile = (item: unknown): StoredPublicProfile => {
  const { avatar, ...profile } = profileItem.parse(item);
  return { ...profile, avatar: avatar ?? null };
};

const get = async (key: { pk: string; sk: string }) =>
  (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** The slug item holds no one else's reservation: free, or already this creator's. */
const freeOrMine = (creatorId: string) => ({
  ConditionExpression: 'attribute_not_exists(pk) OR creatorId = :me',
  ExpressionAttributeValues: { ':me': creatorId },
});

/** A creator's profile by id alone: the functions that only name a creator take this, not the repository. */
export const readPublicProfile = async (creatorId: string): Promise<StoredPublicProfile | undefined> => {
  const item = await get(publicProfileKeys.profile(creatorId));
  return item ? toProfile(item) : undefined;
};

export const dynamoPublicProfiles = (): PublicProfileRepository => ({
  get: readPublicProfile,

  async getMany(creatorIds) {
    const unique = [...new Set(creatorIds)];
    return unique.length === 0 ? [] : (await batchGet(unique.map(publicProfileKeys.profile))).map(toProfile);
  },

  async getBySlug(slug) {
    const item = await get(publicProfileKeys.slug(slug));
    return item ? toProfile(item) : undefined;
  },

  async save({ profile, previous }) {
    const fields = { type: 'PublicProfile', ...profile };
    const moving = previous !== undefined && previous.slug !== profile.slug;
    const cancelled = await transact([
      {
        Put: {
          TableName: tableName(),
          Item: { ...publicProfileKeys.slug(profile.slug), ...fields, type: 'CreatorSlug' },
          ...freeOrMine(profile.creatorId),
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: { ...publicProfileKeys.profile(profile.creatorId), ...fields },
          ...(previous === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : { ConditionExpression: 'version = :seen', ExpressionAttributeValues: { ':seen': previous.version } }),
        },
      },
      // Only our own reservation is freed (and a slug item already gone is no failure).
      ...(moving ? [{ Delete: { TableName: tableName(), Key: publicProfileKeys.slug(previous.slug), ...freeOrMine(profile.creatorId) } }] : []),
    ]);
    if (!cancelled) return 'saved';
    return failedAt(cancelled, 0) ? 'slug-taken' : 'changed';
  },
});
