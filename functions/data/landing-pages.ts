import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import { landingSettings, landingSlug } from '#contracts/landing.ts';
import type { LandingPageRepository, StoredLandingPage } from '#core/landing/ports.ts';
import { documentClient, failedAt, tableName, transact, writeIf } from '#data/table.ts';

/**
 * landing_pages (access patterns: the creator's own page; a public page by its address).
 * Page:     pk USER#<id>            sk LANDING            content (gzip, Binary), settings, updatedAt, publication {slug, publishedAt}?
 * Slug:     pk LANDINGSLUG#<slug>   sk LANDINGSLUG        creatorId, html (gzip, Binary): the published snapshot, publishedAt
 * Lock:     pk USER#<id>            sk LANDINGGEN         holder, expiresAt (epoch s, also the TTL): one generation at a time
 * Replay:   pk USER#<id>            sk LANDINGREPLAY#<key> outcome, requestHash, html (gzip)?, creditsRemaining?, expiresAt (TTL 24 h)
 * HTML is stored compressed: an item holds at most 400 KB and a page may be 500 KiB of text (it shrinks 5-10 times).
 * A slug belongs to whoever holds its item: publishing reserves it in the same transaction as the page's publication.
 */
export const landingKeys = {
  page: (userId: string) => ({ pk: `USER#${userId}`, sk: 'LANDING' }),
  slug: (slug: string) => ({ pk: `LANDINGSLUG#${slug}`, sk: 'LANDINGSLUG' }),
  lock: (userId: string) => ({ pk: `USER#${userId}`, sk: 'LANDINGGEN' }),
  replay: (userId: string, key: string) => ({ pk: `USER#${userId}`, sk: `LANDINGREPLAY#${key}` }),
};

/** Room left in a 400 KB item for the keys and the other attributes. */
export const MAX_COMPRESSED_HTML = 380_000;

const compress = (html: string): Uint8Array => gzipSync(Buffer.from(html, 'utf8'));
const binary = z.instanceof(Uint8Array).transform((bytes) => gunzipSync(bytes).toString('utf8'));

const publicationItem = z.object({ slug: landingSlug, publishedAt: isoDate });

const pageItem = z.object({
  content: binary,
  settings: landingSettings,
  updatedAt: isoDate,
  publication: publicationItem.nullish(),
});

const slugItem = z.object({ creatorId: z.string(), html: binary, publishedAt: isoDate });

const replayItem = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('generated'), requestHash: z.string(), html: binary, creditsRemaining: z.number().int().min(0), expiresAt: z.number() }),
  z.object({ outcome: z.literal('failed'), requestHash: z.string(), expiresAt: z.number() }),
]);

const toPage = (item: unknown): StoredLandingPage => {
  const { publication, ...page } = pageItem.parse(item);
  return { ...page, publication: publication ?? null };
};

const get = async (key: { pk: string; sk: string }) =>
  (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** The page exists and is still published where the caller read it (`slug`), or still unpublished (null). */
const stillPublishedAt = (slug: string | null): { ConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> } =>
  slug === null
    ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(publication)', ExpressionAttributeValues: {} }
    : { ConditionExpression: 'attribute_exists(pk) AND publication.slug = :previous', ExpressionAttributeValues: { ':previous': slug } };

export const dynamoLandingPages = (): LandingPageRepository => ({
  async getPage(userId) {
    const item = await get(landingKeys.page(userId));
    return item ? toPage(item) : undefined;
  },

  async savePage(userId, page) {
    const content = compress(page.content);
    if (content.byteLength > MAX_COMPRESSED_HTML) return 'too-large';
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: landingKeys.page(userId),
        UpdateExpression: 'SET #type = :type, content = :content, settings = :settings, updatedAt = :updatedAt',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': 'LandingPage', ':content': content, ':settings': page.settings, ':updatedAt': page.updatedAt },
        // The publication is the only field the caller did not just write: read it back from the same write.
        ReturnValues: 'ALL_NEW',
      }),
    );
    const publication = publicationItem.nullish().parse(Attributes?.['publication']);
    return { ...page, publication: publication ?? null };
  },

  async publish({ userId, publication, html, previousSlug }) {
    const snapshot = compress(html);
    if (snapshot.byteLength > MAX_COMPRESSED_HTML) return 'too-large';
    const moving = previousSlug !== null && previousSlug !== publication.slug;
    const condition = stillPublishedAt(previousSlug);
    const cancelled = await transact([
      {
        Put: {
          TableName: tableName(),
          Item: { ...landingKeys.slug(publication.slug), type: 'LandingSlug', creatorId: userId, html: snapshot, publishedAt: publication.publishedAt },
          ConditionExpression: 'attribute_not_exists(pk) OR creatorId = :me',
          ExpressionAttributeValues: { ':me': userId },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: landingKeys.page(userId),
          UpdateExpression: 'SET publication = :publication',
          ConditionExpression: condition.ConditionExpression,
          ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ':publication': publication },
        },
      },
      ...(moving
        ? [
            {
              // Only our own reservation is freed (and a slug item already gone is no failure).
              Delete: {
                TableName: tableName(),
                Key: landingKeys.slug(previousSlug),
                ConditionExpression: 'attribute_not_exists(pk) OR creatorId = :me',
                ExpressionAttributeValues: { ':me': userId },
              },
            },
          ]
        : []),
    ]);
    if (!cancelled) return 'published';
    return failedAt(cancelled, 0) ? 'slug-taken' : 'changed';
  },

  async unpublish({ userId, slug }) {
    const cancelled = await transact([
      {
        Delete: {
          TableName: tableName(),
          Key: landingKeys.slug(slug),
          ConditionExpression: 'attribute_not_exists(pk) OR creatorId = :me',
          ExpressionAttributeValues: { ':me': userId },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: landingKeys.page(userId),
          UpdateExpression: 'REMOVE publication',
          ...stillPublishedAt(slug),
        },
      },
    ]);
    return cancelled ? 'changed' : 'unpublished';
  },

  async getPublished(slug) {
    const item = await get(landingKeys.slug(slug));
    return item ? slugItem.parse(item) : undefined;
  },

  async acquireGenerationLock({ userId, holder, now, expiresAt }) {
    return writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...landingKeys.lock(userId), type: 'LandingGenerationLock', holder, expiresAt },
          // TTL deletes expired items late (hours): an expired lock is free whether or not it is still there.
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now',
          ExpressionAttributeValues: { ':now': now },
        }),
      ),
    );
  },

  async releaseGenerationLock({ userId, holder }) {
    await writeIf(() =>
      documentClient().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: landingKeys.lock(userId),
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': holder },
        }),
      ),
    );
  },

  async getReplay(userId, key) {
    const item = await get(landingKeys.replay(userId, key));
    return item ? replayItem.parse(item) : undefined;
  },

  async putReplay(userId, key, replay) {
    const fields = replay.outcome === 'generated' ? { ...replay, html: compress(replay.html) } : replay;
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { ...landingKeys.replay(userId, key), type: 'LandingGenerationReplay', ...fields } }),
    );
  },
});
