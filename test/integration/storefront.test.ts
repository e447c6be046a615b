import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountWithRole, api } from './support.ts';

/**
 * The storefront end to end: the gateway, the handlers, DynamoDB Local and the files bucket (s3rver). Creators' public
 * profiles and pictures, a creator's public page, a course's public page (no sign-in) and the learner's Browse.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let ann: Account;
let bob: Account;

beforeAll(async () => {
  ann = await accountWithRole('creator', 'store-ann');
  bob = await accountWithRole('creator', 'store-bob');
});

const slugOf = (tag: string) => `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

const course = async (token: string, fields: { title: string; publish?: boolean; priceAmount?: number; lessons?: ['text' | 'video', string][] }) => {
  const created = await api('POST', '/api/courses', { token, body: { title: fields.title, description: `All about ${fields.title}.` } });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  for (const [kind, title] of fields.lessons ?? []) {
    const body = kind === 'text' ? { title, kind, body: '<p>Members only: the secret sauce.</p>' } : { title, kind, videoUrl: 'https://youtu.be/dQw4w9WgXcQ' };
    expect((await api('POST', `/api/courses/${id}/lessons`, { token, body })).status).toBe(201);
  }
  if (fields.publish || fields.priceAmount !== undefined) {
    const patch = { ...(fields.publish ? { status: 'published' } : {}), ...(fields.priceAmount !== undefined ? { priceAmount: fields.priceAmount } : {}) };
    expect((await api('PATCH', `/api/courses/${id}`, { token, body: patch })).status).toBe(200);
  }
  return id;
};

const saveProfile = (token: string, body: Record<string, unknown>) => api('PUT', '/api/creator/public-profile', { token, body });

describe("a creator's public profile", () => {
  it('is null until saved; saved, it is what the creator reads back and what visitors see at its address', async () => {
    const creator = await accountWithRole('creator', 'store-profile');
    expect(await api('GET', '/api/creator/public-profile', { token: creator.token })).toEqual({ status: 200, body: null });
    const slug = slugOf('jane');
    const saved = await saveProfile(creator.token, { displayName: '  Jane Cooks ', bio: 'Chef & teacher.\nLondon.', slug: slug.toUpperCase() });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ displayName: 'Jane Cooks', bio: 'Chef & teacher.\nLondon.', slug, avatarUrl: null });
    expect((await api('GET', '/api/creator/public-profile', { token: creator.token })).body).toEqual(saved.body);

    const published = await course(creator.token, { title: 'Knife skills', publish: true, priceAmount: 2900, lessons: [['text', 'Grip']] });
    await course(creator.token, { title: 'Secret draft' });
    const page = await api('GET', `/api/public/creators/${slug}`);
    expect(page).toEqual({
      status: 200,
      body: {
        slug,
        displayName: 'Jane Cooks',
        bio: 'Chef & teacher.\nLondon.',
        avatarUrl: null,
        courses: [{ id: published, title: 'Knife skills', description: 'All about Knife skills.', priceAmount: 2900, lessonCount: 1 }],
        // No bundle on sale, and no membership (a Pro feature this creator has not used).
        bundles: [],
        memberships: [],
        branding: null,
      },
    });
    expect(JSON.stringify(page.body)).not.toContain(creator.email);
  });

  it('refuses an address another creator holds (409), reserved words and malformed ones (400)', async () => {
    const slug = slugOf('taken');
    expect((await saveProfile(ann.token, { displayName: 'Ann', slug })).status).toBe(200);
    const taken = await saveProfile(bob.token, { displayName: 'Bob', slug });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'CONFLICT', message: `The address /u/${slug} is already taken. Choose another.` });
    expect((await api('GET', `/api/public/creators/${slug}`)).body.displayName).toBe('Ann');
    for (const bad of ['admin', 'dashboard', 'api', 'ab', 'no spaces', 'x'.repeat(41)]) {
      expect((await saveProfile(bob.token, { displayName: 'Bob', slug: bad })).status, bad).toBe(400);
    }
    expect((await saveProfile(bob.token, { displayName: '', slug: slugOf('bob') })).status).toBe(400);
    expect((await saveProfile(bob.token, { displayName: 'Bob', slug: slugOf('bob'), bio: 'x'.repeat(501) })).status).toBe(400);
  });

  it("cannot be edited by another creator: each edits their own, and cannot take the other's address or picture", async () => {
    const annSlug = slugOf('ann');
    await saveProfile(ann.token, { displayName: 'Ann Original', slug: annSlug });
    const bobSlug = slugOf('bob');
    expect((await saveProfile(bob.token, { displayName: 'Bob', slug: bobSlug })).status).toBe(200);
    expect((await api('GET', `/api/public/creators/${annSlug}`)).body.displayName).toBe('Ann Original');

    const upload = await api('POST', '/api/creator/public-profile/avatar', { token: ann.token, body: { contentType: 'image/png', size: 68 } });
    await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: new Uint8Array(68) });
    const stolen = await saveProfile(bob.token, { displayName: 'Bob', slug: bobSlug, avatarId: upload.body.avatarId });
    expect(stolen.status).toBe(400);
    expect((await api('GET', '/api/creator/public-profile', { token: bob.token })).body.avatarUrl).toBeNull();
  });

  it('moving to a new address frees the old one', async () => {
    const creator = await accountWithRole('creator', 'store-move');
    const first = slugOf('first');
    const second = slugOf('second');
    await saveProfile(creator.token, { displayName: 'Mover', slug: first });
    await saveProfile(creator.token, { displayName: 'Mover', slug: second });
    expect((await api('GET', `/api/public/creators/${first}`)).status).toBe(404);
    expect((await api('GET', `/api/public/creators/${second}`)).status).toBe(200);
    expect((await saveProfile(bob.token, { displayName: 'Bob', slug: first })).status).toBe(200);
  });

  it('is 404 for an address nobody holds, and needs no sign-in to read', async () => {
    const res = await api('GET', `/api/public/creators/${slugOf('nobody')}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe("the profile's picture", () => {
  it('is uploaded straight to the bucket, checked on save, shown to visitors through a signed URL, and replaced', async () => {
    const creator = await accountWithRole('creator', 'store-avatar');
    const png = randomBytes(2048);
    const upload = await api('POST', '/api/creator/public-profile/avatar', { token: creator.token, body: { contentType: 'image/png', size: png.byteLength } });
    expect(upload.status).toBe(200);
    expect(upload.body.uploadUrl).toContain(`avatars/${creator.id}/${upload.body.avatarId}`);
    expect((await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: png })).status).toBe(200);

    const slug = slugOf('pictured');
    const saved = await saveProfile(creator.token, { displayName: 'Pictured', slug, avatarId: upload.body.avatarId });
    expect(saved.status).toBe(200);
    const shown = await api('GET', `/api/public/creators/${slug}`);
    const image = await fetch(shown.body.avatarUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);

    // Removed: the profile has none, and the object is gone from the bucket.
    expect((await saveProfile(creator.token, { displayName: 'Pictured', slug, avatarId: null })).body.avatarUrl).toBeNull();
    expect((await fetch(shown.body.avatarUrl)).status).toBe(404);
  });

  it('refuses a picture that was never uploaded, or one of another type or too big (400)', async () => {
    const creator = await accountWithRole('creator', 'store-avatar-bad');
    const slug = slugOf('bad-pic');
    const never = await api('POST', '/api/creator/public-profile/avatar', { token: creator.token, body: { contentType: 'image/jpeg', size: 1000 } });
    expect((await saveProfile(creator.token, { displayName: 'X', slug, avatarId: never.body.avatarId })).status).toBe(400);
    for (const body of [{ contentType: 'image/svg+xml', size: 100 }, { contentType: 'image/png', size: 2 * 1024 * 1024 + 1 }, { contentType: 'image/png', size: 0 }]) {
      expect((await api('POST', '/api/creator/public-profile/avatar', { token: creator.token, body })).status).toBe(400);
    }
    // The emulator does not enforce the signed type: the save checks the stored object again.
    const lying = await api('POST', '/api/creator/public-profile/avatar', { token: creator.token, body: { contentType: 'image/png', size: 5 } });
    await fetch(lying.body.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: '<svg>' });
    expect((await saveProfile(creator.token, { displayName: 'X', slug, avatarId: lying.body.avatarId })).status).toBe(400);
  });
});

describe('the public course page', () => {
  it("shows a published course to anyone: lessons' titles and kinds (never their content), prices, the creator's public name", async () => {
    const creator = await accountWithRole('creator', 'store-course');
    const slug = slugOf('teacher');
    await saveProfile(creator.token, { displayName: 'The Teacher', slug });
    const id = await course(creator.token, { title: 'Sauces', publish: true, priceAmount: 4500, lessons: [['video', 'Roux'], ['text', 'Velouté']] });
    const res = await api('GET', `/api/public/courses/${id}`);
    expect(res).toEqual({
      status: 200,
      body: {
        id,
        title: 'Sauces',
        description: 'All about Sauces.',
        priceAmount: 4500,
        seatPriceAmount: 0,
        currency: 'gbp',
        lessons: [
          { title: 'Roux', kind: 'video' },
          { title: 'Velouté', kind: 'text' },
        ],
        creatorName: 'The Teacher',
        creatorSlug: slug,
        creatorAvatarUrl: null,
        onSale: true,
        teamSeatsMax: null,
        branding: null,
      },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/secret sauce|youtu/);
  });

  it('is 404 for a draft, for an unknown course, and for a course unpublished again', async () => {
    const draft = await course(ann.token, { title: 'Draft', priceAmount: 1000 });
    expect((await api('GET', `/api/public/courses/${draft}`)).status).toBe(404);
    expect((await api('GET', '/api/public/courses/01JD0000000000000000000000')).status).toBe(404);
    const gone = await course(ann.token, { title: 'Was public', publish: true });
    expect((await api('GET', `/api/public/courses/${gone}`)).status).toBe(200);
    await api('PATCH', `/api/courses/${gone}`, { token: ann.token, body: { status: 'draft' } });
    expect((await api('GET', `/api/public/courses/${gone}`)).status).toBe(404);
  });

  it('names a creator without a public profile "Course creator", never by their email', async () => {
    const creator = await accountWithRole('creator', 'store-anon');
    const id = await course(creator.token, { title: 'Nameless', publish: true, priceAmount: 1500 });
    const res = await api('GET', `/api/public/courses/${id}`);
    expect(res.body).toMatchObject({ creatorName: 'Course creator', creatorSlug: null });
    expect(JSON.stringify(res.body)).not.toContain(creator.email);
    expect(JSON.stringify(res.body)).not.toContain(creator.email.split('@')[0]);
  });
});

describe("the learner's Browse", () => {
  it("lists the courses on sale of the learner's creators, not the ones they have, drafts, unpriced ones or other creators'", async () => {
    const creator = await accountWithRole('creator', 'store-browse');
    const slug = slugOf('browse');
    await saveProfile(creator.token, { displayName: 'Browse Teacher', slug });
    const owned = await course(creator.token, { title: 'Owned', publish: true, priceAmount: 1000 });
    const onSale = await course(creator.token, { title: 'On sale', publish: true, priceAmount: 2500, lessons: [['text', 'One']] });
    await course(creator.token, { title: 'Free', publish: true });
    await course(creator.token, { title: 'Unfinished', priceAmount: 2500 });
    await course(bob.token, { title: 'Bob sells this', publish: true, priceAmount: 999 });

    const learner = await accountWithRole('learner', 'store-learner');
    expect((await api('GET', '/api/learner/browse', { token: learner.token })).body).toEqual({ items: [] });
    expect((await api('POST', `/api/courses/${owned}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
    const browse = await api('GET', '/api/learner/browse', { token: learner.token });
    expect(browse).toEqual({
      status: 200,
      body: { items: [{ id: onSale, title: 'On sale', description: 'All about On sale.', priceAmount: 2500, lessonCount: 1, creatorName: 'Browse Teacher', creatorSlug: slug }] },
    });
    expect((await api('GET', '/api/learner/browse', { token: creator.token })).status).toBe(403);
  });
});
