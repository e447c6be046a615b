import { describe, expect, it } from 'vitest';
import type { AdminCourseList } from '#contracts/admin-courses.ts';
import type { Course } from '#contracts/courses.ts';
import { accountWithRole, api } from './support.ts';

/** The admin's view of every creator's courses, end to end: the gateway, the handler and DynamoDB Local. */
describe("the admin's course list", () => {
  it("lists two creators' newest courses first, each with its creator's email, status and counts; only admins may", async () => {
    const [admin, ann, bob] = await Promise.all([
      accountWithRole('admin', 'courses-admin'),
      accountWithRole('creator', 'courses-ann'),
      accountWithRole('creator', 'courses-bob'),
    ]);
    const create = async (token: string, title: string) =>
      (await api('POST', '/api/courses', { token, body: { title, description: 'For the admin list.' } })).body as Course;
    const first = await create(ann.token, 'Bread at home');
    const second = await create(bob.token, 'Sourdough starter');
    await api('POST', `/api/courses/${first.id}/lessons`, { token: ann.token, body: { title: 'Flour', kind: 'text', body: '<p>Flour</p>' } });
    expect((await api('PATCH', `/api/courses/${first.id}`, { token: ann.token, body: { status: 'published' } })).status).toBe(200);

    const res = await api('GET', '/api/admin/courses', { token: admin.token });
    expect(res.status).toBe(200);
    const { items } = res.body as AdminCourseList;
    expect(items.slice(0, 2).map((c) => c.id)).toEqual([second.id, first.id]);
    expect(items[0]).toEqual({
      id: second.id,
      title: 'Sourdough starter',
      status: 'draft',
      creatorId: bob.id,
      creatorEmail: bob.email,
      lessonCount: 0,
      enrolledCount: 0,
      priceAmount: 0,
      seatPriceAmount: 0,
      createdAt: second.createdAt,
      updatedAt: expect.any(String),
    });
    expect(items[1]).toMatchObject({ creatorEmail: ann.email, status: 'published', lessonCount: 1 });

    expect((await api('GET', '/api/admin/courses', { token: ann.token })).status).toBe(403);
    expect((await api('GET', '/api/admin/courses')).status).toBe(401);
    expect((await api('GET', '/api/admin/courses?cursor=bm90LWEta2V5', { token: admin.token })).status).toBe(400);
  });
});
