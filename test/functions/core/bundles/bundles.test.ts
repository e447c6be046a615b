import { describe, expect, it } from 'vitest';
import { BUNDLES_PER_CREATOR_MAX, createBundleBody } from '#contracts/bundles.ts';
import { BUNDLE_NOT_FOUND, bundlePricing, createBundle, deleteBundle, listBundles, publicBundle, updateBundle } from '#core/bundles/bundles.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import type { CourseRecord } from '#core/ports.ts';
import { memoryBundles } from '#test/functions/fakes/bundles.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { courseRecord } from '#test/functions/fakes/courses.ts';

const world = (courses: CourseRecord[] = [
  courseRecord({ id: 'knives', creatorId: 'u1', title: 'Knife skills', priceAmount: 2000 }),
  courseRecord({ id: 'stocks', creatorId: 'u1', title: 'Stocks', priceAmount: 1500 }),
  courseRecord({ id: 'draft', creatorId: 'u1', title: 'Draft', status: 'draft' }),
  courseRecord({ id: 'theirs', creatorId: 'u2', title: 'Theirs' }),
]) => {
  const records = [...courses];
  return {
    bundles: memoryBundles(),
    courses: { listByCreator: async (creatorId: string) => records.filter((c) => c.creatorId === creatorId) },
    records,
    clock: testClock(),
    ids: sequentialIds('b'),
    /** Who sells, as the storefront names them; u1 sells, on a plan with branding. */
    seller: async (creatorId: string) => ({
      creatorName: `Chef ${creatorId}`,
      creatorSlug: creatorId,
      creatorAvatarUrl: null,
      onSale: true,
      branding: { schoolName: 'Chef school', primaryColor: '#aa3300', onPrimaryColor: '#ffffff' as const, logoUrl: null },
    }),
  };
};

const body = { title: 'Kitchen basics', courseIds: ['knives', 'stocks'], priceAmount: 3000 };

describe('the bundle body', () => {
  it('takes 2 to 50 different courses and a price of at least £1', () => {
    expect(createBundleBody.safeParse(body).success).toBe(true);
    expect(createBundleBody.safeParse({ ...body, courseIds: ['knives'] }).success).toBe(false);
    expect(createBundleBody.safeParse({ ...body, courseIds: Array.from({ length: 51 }, (_, i) => `c${i}`) }).success).toBe(false);
    expect(createBundleBody.safeParse({ ...body, courseIds: Array.from({ length: 50 }, (_, i) => `c${i}`) }).success).toBe(true);
    expect(createBundleBody.safeParse({ ...body, courseIds: ['knives', 'knives'] }).success).toBe(false);
    expect(createBundleBody.safeParse({ ...body, priceAmount: 0 }).success).toBe(false);
    expect(createBundleBody.safeParse({ ...body, priceAmount: 12.5 }).success).toBe(false);
  });
});

describe('the saving over the separate prices', () => {
  it('is the separate prices added up less the bundle’s, never below 0', () => {
    expect(bundlePricing(3000, [2000, 1500])).toEqual({ separateAmount: 3500, savingAmount: 500 });
    expect(bundlePricing(4000, [2000, 1500])).toEqual({ separateAmount: 3500, savingAmount: 0 });
  });
});

describe('a creator’s bundles', () => {
  it('hold their own published courses only: a draft, another creator’s or an unknown course is 400 naming it', async () => {
    const d = world();
    for (const wrong of ['draft', 'theirs', 'nope']) {
      const refused = createBundle(d, { creatorId: 'u1', body: { ...body, courseIds: ['knives', wrong] } });
      await expect(refused).rejects.toThrow(ValidationError);
      await expect(refused).rejects.toThrow(wrong);
    }
    expect(d.bundles.stored.size).toBe(0);
  });

  it('are made, listed with their courses and saving, changed and deleted by their creator; another creator’s is 404', async () => {
    const d = world();
    const made = await createBundle(d, { creatorId: 'u1', body });
    expect(made).toMatchObject({
      title: 'Kitchen basics',
      description: '',
      courses: [{ id: 'knives', title: 'Knife skills', priceAmount: 2000 }, { id: 'stocks', title: 'Stocks', priceAmount: 1500 }],
      priceAmount: 3000,
      separateAmount: 3500,
      savingAmount: 500,
      active: true,
    });
    expect((await listBundles(d, 'u1')).items.map((b) => b.id)).toEqual([made.id]);
    expect((await listBundles(d, 'u2')).items).toEqual([]);
    expect(await updateBundle(d, { creatorId: 'u1', bundleId: made.id, body: { priceAmount: 2500 } })).toMatchObject({ priceAmount: 2500, savingAmount: 1000 });
    await expect(updateBundle(d, { creatorId: 'u1', bundleId: made.id, body: { courseIds: ['knives', 'draft'] } })).rejects.toThrow(ValidationError);
    await expect(updateBundle(d, { creatorId: 'u2', bundleId: made.id, body: { title: 'Mine' } })).rejects.toThrow(BUNDLE_NOT_FOUND);
    await expect(deleteBundle(d, { creatorId: 'u2', bundleId: made.id })).rejects.toThrow(NotFoundError);
    await deleteBundle(d, { creatorId: 'u1', bundleId: made.id });
    expect((await listBundles(d, 'u1')).items).toEqual([]);
  });

  it(`are at most ${BUNDLES_PER_CREATOR_MAX} per creator`, async () => {
    const d = world();
    for (let i = 0; i < BUNDLES_PER_CREATOR_MAX; i++) await createBundle(d, { creatorId: 'u1', body });
    await expect(createBundle(d, { creatorId: 'u1', body })).rejects.toThrow(ConflictError);
  });
});

describe('the public bundle page', () => {
  it('shows an active bundle of published courses with who sells it; off sale, or a course unpublished since, it is 404', async () => {
    const d = world();
    const made = await createBundle(d, { creatorId: 'u1', body });
    expect(await publicBundle(d, made.id)).toEqual({
      id: made.id,
      title: 'Kitchen basics',
      description: '',
      priceAmount: 3000,
      currency: 'gbp',
      separateAmount: 3500,
      savingAmount: 500,
      courses: [{ id: 'knives', title: 'Knife skills' }, { id: 'stocks', title: 'Stocks' }],
      creatorName: 'Chef u1',
      creatorSlug: 'u1',
      creatorAvatarUrl: null,
      onSale: true,
      branding: { schoolName: 'Chef school', primaryColor: '#aa3300', onPrimaryColor: '#ffffff' as const, logoUrl: null },
    });
    await updateBundle(d, { creatorId: 'u1', bundleId: made.id, body: { active: false } });
    await expect(publicBundle(d, made.id)).rejects.toThrow(NotFoundError);
    await updateBundle(d, { creatorId: 'u1', bundleId: made.id, body: { active: true } });
    d.records[1] = { ...d.records[1]!, status: 'draft' };
    await expect(publicBundle(d, made.id)).rejects.toThrow(NotFoundError);
    await expect(publicBundle(d, 'nope')).rejects.toThrow(NotFoundError);
  });
});
