import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LandingSettings } from '#contracts/landing.ts';
import { dynamoLandingPages, landingKeys } from '#data/landing-pages.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const settings: LandingSettings = {
  companyName: 'Acme Academy',
  businessType: 'education',
  colorTheme: 'modern',
  missionStatement: 'Teach everyone to cook.',
  problemSolved: 'Recipes are confusing.',
};
const html = (text: string) => `<!DOCTYPE html>\n<html lang="en">\n<head><title>${text}</title></head>\n<body>\n<h1>${text}</h1>\n</body>\n</html>\n`;
const at = '2026-11-21T12:00:00.000Z';
const slugOf = (tag: string) => unique(tag).toLowerCase();

describe('the landing pages (DynamoDB Local)', () => {
  it('saves a page compressed and reads it back whole; nothing for a creator without one', async () => {
    const pages = dynamoLandingPages();
    const userId = unique('landing');
    const content = html('Acme '.repeat(5000));
    expect(await pages.savePage(userId, { content, settings, updatedAt: at })).toEqual({ content, settings, updatedAt: at, publication: null });
    expect(await pages.getPage(userId)).toEqual({ content, settings, updatedAt: at, publication: null });
    const stored = await rawItem(landingKeys.page(userId));
    expect(stored?.['content']).toBeInstanceOf(Uint8Array);
    expect((stored?.['content'] as Uint8Array).byteLength).toBeLessThan(content.length / 10);
    expect(await pages.getPage(unique('nobody'))).toBeUndefined();
  });

  it('refuses a page that does not fit an item even compressed, writing nothing', async () => {
    const pages = dynamoLandingPages();
    const userId = unique('landing-big');
    expect(await pages.savePage(userId, { content: randomBytes(400_000).toString('base64'), settings, updatedAt: at })).toBe('too-large');
    expect(await pages.getPage(userId)).toBeUndefined();
  });

  it('publishes: reserves the slug with the snapshot, sets the publication, and a later save keeps it', async () => {
    const pages = dynamoLandingPages();
    const userId = unique('landing-pub');
    const slug = slugOf('pub');
    await pages.savePage(userId, { content: html('First'), settings, updatedAt: at });
    expect(await pages.publish({ userId, publication: { slug, publishedAt: at }, html: html('First'), previousSlug: null })).toBe('published');
    expect(await pages.getPublished(slug)).toEqual({ creatorId: userId, html: html('First'), publishedAt: at });
    const resaved = await pages.savePage(userId, { content: html('Second'), settings, updatedAt: at });
    expect(resaved).toMatchObject({ content: html('Second'), publication: { slug, publishedAt: at } });
    expect((await pages.getPublished(slug))?.html).toBe(html('First'));
  });

  it("refuses another creator's slug, and a page that moved meanwhile; frees the old slug on a move", async () => {
    const pages = dynamoLandingPages();
    const [mine, theirs] = [unique('landing-a'), unique('landing-b')];
    const [taken, first, second] = [slugOf('taken'), slugOf('first'), slugOf('second')];
    for (const userId of [mine, theirs]) await pages.savePage(userId, { content: html(userId), settings, updatedAt: at });
    await pages.publish({ userId: theirs, publication: { slug: taken, publishedAt: at }, html: html('theirs'), previousSlug: null });
    expect(await pages.publish({ userId: mine, publication: { slug: taken, publishedAt: at }, html: html('mine'), previousSlug: null })).toBe('slug-taken');
    expect(await pages.publish({ userId: mine, publication: { slug: first, publishedAt: at }, html: html('mine'), previousSlug: 'not-where-it-is' })).toBe('changed');
    expect(await pages.getPublished(first)).toBeUndefined();
    expect(await pages.publish({ userId: mine, publication: { slug: first, publishedAt: at }, html: html('mine'), previousSlug: null })).toBe('published');
    expect(await pages.publish({ userId: mine, publication: { slug: second, publishedAt: at }, html: html('mine'), previousSlug: first })).toBe('published');
    expect(await pages.getPublished(first)).toBeUndefined();
    expect((await pages.getPage(mine))?.publication).toEqual({ slug: second, publishedAt: at });
    expect((await pages.getPublished(taken))?.creatorId).toBe(theirs);
  });

  it('refuses to publish a page that was never saved', async () => {
    const pages = dynamoLandingPages();
    const slug = slugOf('ghost');
    expect(await pages.publish({ userId: unique('ghost'), publication: { slug, publishedAt: at }, html: html('x'), previousSlug: null })).toBe('changed');
    expect(await pages.getPublished(slug)).toBeUndefined();
  });

  it('unpublishes: the slug is free and the publication gone; a stale unpublish changes nothing', async () => {
    const pages = dynamoLandingPages();
    const userId = unique('landing-unpub');
    const slug = slugOf('unpub');
    await pages.savePage(userId, { content: html('x'), settings, updatedAt: at });
    await pages.publish({ userId, publication: { slug, publishedAt: at }, html: html('x'), previousSlug: null });
    expect(await pages.unpublish({ userId, slug })).toBe('unpublished');
    expect(await pages.getPublished(slug)).toBeUndefined();
    expect((await pages.getPage(userId))?.publication).toBeNull();
    expect(await pages.unpublish({ userId, slug })).toBe('changed');
  });

  it('holds one generation slot per creator: taken when free or expired, freed only by its holder', async () => {
    const pages = dynamoLandingPages();
    const userId = unique('landing-lock');
    expect(await pages.acquireGenerationLock({ userId, holder: 'a', now: 1000, expiresAt: 1090 })).toBe(true);
    expect(await pages.acquireGenerationLock({ userId, holder: 'b', now: 1010, expiresAt: 1100 })).toBe(false);
    await pages.releaseGenerationLock({ userId, holder: 'b' });
    expect(await pages.acquireGenerationLock({ userId, holder: 'b', now: 1089, expiresAt: 1179 })).toBe(false);
    expect(await pages.acquireGenerationLock({ userId, holder: 'b', now: 1090, expiresAt: 1180 })).toBe(true);
    await pages.releaseGenerationLock({ userId, holder: 'a' });
    expect(await rawItem(landingKeys.lock(userId))).toMatchObject({ holder: 'b', expiresAt: 1180 });
    await pages.releaseGenerationLock({ userId, holder: 'b' });
    expect(await rawItem(landingKeys.lock(userId))).toBeUndefined();
  });

  it('keeps the outcome of a generation by key: the page, or the failure', async () => {
    const pages = dynamoLandingPages();
    const userId = unique('landing-replay');
    const generated = { outcome: 'generated', requestHash: 'h1', html: html('Replayed'), creditsRemaining: 85, expiresAt: 2000 } as const;
    await pages.putReplay(userId, 'k1', generated);
    await pages.putReplay(userId, 'k2', { outcome: 'failed', requestHash: 'h2', expiresAt: 2000 });
    expect(await pages.getReplay(userId, 'k1')).toEqual(generated);
    expect(await pages.getReplay(userId, 'k2')).toEqual({ outcome: 'failed', requestHash: 'h2', expiresAt: 2000 });
    expect(await pages.getReplay(userId, 'k3')).toBeUndefined();
  });

  it('treats a malformed stored page as an error, not as a page', async () => {
    const userId = unique('landing-bad');
    await putRaw({ ...landingKeys.page(userId), type: 'LandingPage', content: 'not compressed', settings, updatedAt: at });
    await expect(dynamoLandingPages().getPage(userId)).rejects.toThrow();
  });
});
