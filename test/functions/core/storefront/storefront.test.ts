import { describe, expect, it } from 'vitest';
import { DEFAULT_CREATOR_NAME } from '#contracts/storefront.ts';
import type { LessonRecord } from '#contracts/courses.ts';
import { COURSE_NOT_FOUND } from '#core/courses/courses.ts';
import { NotFoundError } from '#core/errors.ts';
import type { CourseRecord, NewEnrollment, StoredPublicProfile } from '#core/ports.ts';
import { avatarKey } from '#core/storefront/public-profile.ts';
import { BROWSE_CREATORS_MAX, CREATOR_NOT_FOUND, learnerBrowse, publicCoursePage, publicCreator, recordCourseView } from '#core/storefront/storefront.ts';
import { memoryOrders } from '#test/functions/fakes/payouts.ts';
import { testClock } from '#test/functions/fakes/clock.ts';
import { courseRecord, memoryCourses } from '#test/functions/fakes/courses.ts';
import { memoryEnrollments } from '#test/functions/fakes/enrollments.ts';
import { memoryImageStore, memoryPublicProfiles } from '#test/functions/fakes/public-profiles.ts';
import { memoryVisitMarks } from '#test/functions/fakes/visits.ts';
import { memoryBranding } from '#test/functions/fakes/branding.ts';
import { onBehalfFakes, planSubscriptions } from '#test/functions/fakes/on-behalf.ts';

const AT = '2026-11-20T09:00:00.000Z';

const profile = (over: Partial<StoredPublicProfile> = {}): StoredPublicProfile => ({
  creatorId: 'c1',
  displayName: 'Jane Cooks',
  bio: 'Chef and teacher.',
  slug: 'jane-cooks',
  avatar: null,
  version: 1,
  updatedAt: AT,
  ...over,
});

const course = (over: Partial<CourseRecord> = {}): CourseRecord => courseRecord({ createdAt: AT, updatedAt: AT, ...over });

const lesson = (courseId: string, id: string, position: number, kind: 'text' | 'video'): LessonRecord => ({
  id,
  courseId,
  title: `Lesson ${id}`,
  kind,
  body: kind === 'text' ? '<p>Secret lesson content</p>' : null,
  videoUrl: kind === 'video' ? 'https://youtu.be/dQw4w9WgXcQ' : null,
  quiz: null,
  position,
  createdAt: AT,
  updatedAt: AT,
});

const setup = async (profiles: StoredPublicProfile[] = [profile()]) => {
  const courses = memoryCourses();
  const funnel = memoryOrders();
  // The creator c1 on Pro (issue 29: the page says whether the course is on sale, by the creator's plan).
  const { subscriptions, setPlan } = planSubscriptions({ c1: 'pro' });
  const { billing } = onBehalfFakes(subscriptions);
  const d = { courses, profiles: memoryPublicProfiles(profiles), images: memoryImageStore(), billing, branding: memoryBranding(), clock: testClock('2026-11-25T10:00:00.000Z'), enrollments: memoryEnrollments(), funnel, visits: memoryVisitMarks() };
  const add = async (over: Partial<CourseRecord>, lessons: ['text' | 'video', string][] = []) => {
    const c = course(over);
    await courses.create(c);
    for (const [i, [kind, id]] of lessons.entries()) await courses.createLesson({ creatorId: c.creatorId, lesson: lesson(c.id, id, i, kind) });
    return c;
  };
  return { d, add, setPlan };
};

describe('the public course page', () => {
  it("shows a published course: title, description, prices, lesson titles and kinds in order, the creator's public name and page", async () => {
    const { d, add } = await setup([profile({ avatar: { id: 'pic', contentType: 'image/png' } })]);
    await add({ id: 'course-1' }, [['video', 'l1'], ['text', 'l2']]);
    const page = await publicCoursePage(d, 'course-1');
    expect(page).toEqual({
      id: 'course-1',
      title: 'Knife skills',
      description: 'Chop like a chef.',
      priceAmount: 2900,
      seatPriceAmount: 2000,
      currency: 'gbp',
      lessons: [
        { title: 'Lesson l1', kind: 'video' },
        { title: 'Lesson l2', kind: 'text' },
      ],
      creatorName: 'Jane Cooks',
      creatorSlug: 'jane-cooks',
      creatorAvatarUrl: expect.stringContaining(avatarKey('c1', 'pic')),
      onSale: true,
      teamSeatsMax: null,
      branding: null,
    });
    expect(JSON.stringify(page)).not.toContain('Secret lesson content');
    // The page is cached at CloudFront: reading it counts nothing (the page's view beacon does).
    expect(await d.funnel.salesWindow('c1', '2026-11-25', '2026-11-25')).toMatchObject({ views: 0, checkouts: 0 });
  });

  it('names a creator without a profile "Course creator", never by their email, and links no page', async () => {
    const { d, add } = await setup([]);
    await add({ id: 'course-1' });
    expect(await publicCoursePage(d, 'course-1')).toMatchObject({ creatorName: DEFAULT_CREATOR_NAME, creatorSlug: null, creatorAvatarUrl: null });
  });

  it("says whether the course is on sale by its creator's plan (issue 29): Starter up to 10 seats a team, no plan not on sale", async () => {
    const { d, add, setPlan } = await setup();
    await add({ id: 'course-1' });
    setPlan('c1', 'starter');
    expect(await publicCoursePage(d, 'course-1')).toMatchObject({ onSale: true, teamSeatsMax: 10 });
    setPlan('c1', 'none');
    expect(await publicCoursePage(d, 'course-1')).toMatchObject({ onSale: false, title: 'Knife skills' });
  });

  it('shows a published course that is not for sale (price 0) as it is', async () => {
    const { d, add } = await setup();
    await add({ id: 'free', priceAmount: 0, seatPriceAmount: 0 });
    expect((await publicCoursePage(d, 'free')).priceAmount).toBe(0);
  });

  it('is 404 for a draft, for an unknown course and for an impossible id', async () => {
    const { d, add } = await setup();
    await add({ id: 'draft', status: 'draft' });
    for (const id of ['draft', 'nope', 'x'.repeat(500)]) await expect(publicCoursePage(d, id)).rejects.toThrow(new NotFoundError(COURSE_NOT_FOUND));
  });
});

describe("a course page's view", () => {
  const ann = { ip: '203.0.113.7', userAgent: 'Firefox' };
  const views = async (d: Awaited<ReturnType<typeof setup>>['d']) => (await d.funnel.salesWindow('c1', '2026-11-25', '2026-11-25')).views;

  it('counts once per visitor a day: 20 views from one visitor count 1, a second visitor 2', async () => {
    const { d, add } = await setup();
    await add({ id: 'course-1' });
    for (let i = 0; i < 20; i++) await recordCourseView(d, 'course-1', ann);
    expect(await views(d)).toBe(1);
    await recordCourseView(d, 'course-1', { ip: '198.51.100.4', userAgent: 'Firefox' });
    await recordCourseView(d, 'course-1', { ...ann, userAgent: 'Safari' });
    expect(await views(d)).toBe(3);
  });

  it("keeps no address: the mark is a hash, and expires at the end of the next day", async () => {
    const { d, add } = await setup();
    await add({ id: 'course-1' });
    await recordCourseView(d, 'course-1', ann);
    const [[mark, expiresAt]] = [...d.visits.marks.entries()] as [[string, Date]];
    expect(mark).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mark).not.toContain('203.0.113.7');
    expect(expiresAt.toISOString()).toBe('2026-11-27T00:00:00.000Z');
  });

  it('counts the same visitor again the next day', async () => {
    const { d, add } = await setup();
    await add({ id: 'course-1' });
    await recordCourseView(d, 'course-1', ann);
    await recordCourseView({ ...d, clock: testClock('2026-11-26T10:00:00.000Z') }, 'course-1', ann);
    expect((await d.funnel.salesWindow('c1', '2026-11-25', '2026-11-26')).views).toBe(2);
  });

  it('is 404 for a draft or an unknown course, and counts nothing', async () => {
    const { d, add } = await setup();
    await add({ id: 'draft', status: 'draft' });
    for (const id of ['draft', 'nope', 'x'.repeat(500)]) await expect(recordCourseView(d, id, ann)).rejects.toThrow(new NotFoundError(COURSE_NOT_FOUND));
    expect(d.visits.marks.size).toBe(0);
  });
});

describe("a creator's public page", () => {
  it('shows the profile and the published courses only, newest first, with their prices and lesson counts', async () => {
    const { d, add } = await setup();
    await add({ id: 'old', createdAt: '2026-11-01T00:00:00.000Z', title: 'Old course' }, [['text', 'a']]);
    await add({ id: 'new', createdAt: '2026-11-10T00:00:00.000Z', title: 'New course', priceAmount: 0 });
    await add({ id: 'draft', status: 'draft', title: 'Draft course' });
    await add({ id: 'someone-else', creatorId: 'c2' });
    expect(await publicCreator(d, 'jane-cooks')).toEqual({
      slug: 'jane-cooks',
      displayName: 'Jane Cooks',
      bio: 'Chef and teacher.',
      avatarUrl: null,
      courses: [
        { id: 'new', title: 'New course', description: 'Chop like a chef.', priceAmount: 0, lessonCount: 0 },
        { id: 'old', title: 'Old course', description: 'Chop like a chef.', priceAmount: 2900, lessonCount: 1 },
      ],
      bundles: [],
      memberships: [],
      branding: null,
    });
  });

  it("list the creator's bundles on sale and, while they are on Pro, their active memberships (issue 34), each with its page's id", async () => {
    const { d, add, setPlan } = await setup();
    await add({ id: 'knives' });
    await add({ id: 'stocks' });
    await add({ id: 'draft', status: 'draft' });
    const bundle = (id: string, courseIds: string[], active = true) => ({ id, creatorId: 'c1', title: `Bundle ${id}`, description: '', courseIds, priceAmount: 4000, active, createdAt: AT, updatedAt: AT });
    const membership = (id: string, active = true) => ({
      id, creatorId: 'c1', title: `Club ${id}`, description: '', interval: 'year' as const, priceAmount: 9900, courseIds: 'all' as const, active, createdAt: AT, updatedAt: AT,
    });
    const offers = {
      bundles: { listByCreator: async (creatorId: string) => (creatorId === 'c1' ? [bundle('b1', ['knives', 'stocks']), bundle('off', ['knives', 'stocks'], false), bundle('unpublished', ['knives', 'draft'])] : []) },
      memberships: { listByCreator: async (creatorId: string) => (creatorId === 'c1' ? [membership('m1'), membership('off', false)] : []) },
    };
    const page = await publicCreator({ ...d, ...offers }, 'jane-cooks');
    expect(page.bundles).toEqual([{ id: 'b1', title: 'Bundle b1', priceAmount: 4000, courseCount: 2 }]);
    expect(page.memberships).toEqual([{ id: 'm1', title: 'Club m1', interval: 'year', priceAmount: 9900, allCourses: true }]);
    // Off Pro a membership takes no new members: the page does not offer it.
    setPlan('c1', 'starter');
    expect((await publicCreator({ ...d, ...offers }, 'jane-cooks')).memberships).toEqual([]);
  });

  it("carry the creator's branding while their plan includes it (issue 32), on the creator's page and each course's", async () => {
    const { d, add, setPlan } = await setup();
    await add({ id: 'course-1' });
    await d.branding.save({ creatorId: 'c1', schoolName: 'Jane\'s Kitchen', primaryColor: '#facc15', logo: { id: 'logo1', contentType: 'image/png' }, updatedAt: AT });
    const branding = { schoolName: "Jane's Kitchen", primaryColor: '#facc15', onPrimaryColor: '#000000', logoUrl: expect.stringContaining('avatars/c1/logos/logo1?signed=') };
    expect((await publicCreator(d, 'jane-cooks')).branding).toEqual(branding);
    expect((await publicCoursePage(d, 'course-1')).branding).toEqual(branding);
    // Moved down to Starter: the pages look as the platform's; the branding is kept for a return to Pro.
    setPlan('c1', 'starter');
    expect((await publicCreator(d, 'jane-cooks')).branding).toBeNull();
    expect((await publicCoursePage(d, 'course-1')).branding).toBeNull();
    expect(d.branding.stored.get('c1')).toMatchObject({ schoolName: "Jane's Kitchen" });
  });

  it('is 404 for an address nobody holds, and for one that is not an address at all (no read)', async () => {
    const { d } = await setup();
    for (const slug of ['nobody-here', 'Jane-Cooks', 'admin', '../x']) await expect(publicCreator(d, slug)).rejects.toThrow(new NotFoundError(CREATOR_NOT_FOUND));
    expect(d.profiles.calls('getBySlug')).toBe(1);
  });
});

describe("the learner's Browse", () => {
  const enrol = (d: Awaited<ReturnType<typeof setup>>['d'], over: Partial<NewEnrollment>) =>
    d.enrollments.enroll({ courseId: 'course-1', learnerId: 'l1', creatorId: 'c1', learnerEmail: 'l1@example.com', learnerJoinedAt: AT, courseTitle: 'x', enrolledAt: AT, ...over });

  it("lists the courses on sale of the learner's creators, not those they already have, drafts or unpriced ones, nor other creators'", async () => {
    const { d, add } = await setup([profile(), profile({ creatorId: 'c2', displayName: 'Bob Bakes', slug: 'bob-bakes' })]);
    await add({ id: 'mine' });
    await add({ id: 'on-sale', title: 'Sauces', createdAt: '2026-11-02T00:00:00.000Z' });
    await add({ id: 'draft', status: 'draft' });
    await add({ id: 'free', priceAmount: 0 });
    await add({ id: 'bob-1', creatorId: 'c2', title: 'Bread' });
    await add({ id: 'stranger', creatorId: 'c3' });
    await enrol(d, { courseId: 'mine' });
    await enrol(d, { courseId: 'bob-x', creatorId: 'c2' });
    const { items } = await learnerBrowse(d, 'l1');
    expect(items.map((i) => [i.id, i.creatorName, i.creatorSlug])).toEqual(
      expect.arrayContaining([
        ['on-sale', 'Jane Cooks', 'jane-cooks'],
        ['bob-1', 'Bob Bakes', 'bob-bakes'],
      ]),
    );
    expect(items).toHaveLength(2);
    expect(items.find((i) => i.id === 'on-sale')).toEqual({
      id: 'on-sale',
      title: 'Sauces',
      description: 'Chop like a chef.',
      priceAmount: 2900,
      lessonCount: 0,
      creatorName: 'Jane Cooks',
      creatorSlug: 'jane-cooks',
    });
  });

  it('is empty for a learner with no courses, and reads nothing more', async () => {
    const { d } = await setup();
    expect(await learnerBrowse(d, 'nobody')).toEqual({ items: [] });
    expect(d.courses.calls('listByCreator')).toBe(0);
    expect(d.profiles.calls('getMany')).toBe(0);
  });

  it('names a creator without a profile "Course creator"', async () => {
    const { d, add } = await setup([]);
    await add({ id: 'on-sale' });
    await enrol(d, { courseId: 'other' });
    expect((await learnerBrowse(d, 'l1')).items[0]).toMatchObject({ creatorName: DEFAULT_CREATOR_NAME, creatorSlug: null });
  });

  it(`reads at most ${BROWSE_CREATORS_MAX} creators' catalogues, those learned with most recently, with one batch read of profiles`, async () => {
    const { d } = await setup([]);
    for (let i = 0; i < BROWSE_CREATORS_MAX + 5; i++) {
      await enrol(d, { courseId: `k${i}`, creatorId: `creator-${i}`, enrolledAt: new Date(Date.parse(AT) + i * 60_000).toISOString() });
    }
    await learnerBrowse(d, 'l1');
    expect(d.courses.calls('listByCreator')).toBe(BROWSE_CREATORS_MAX);
    expect(d.profiles.calls('getMany')).toBe(1);
  });
});
