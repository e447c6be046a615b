import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CrmLearner, SEND_ENCOURAGEMENT_TEXT, SEND_RESOURCES_TEXT } from '#contracts/courses.ts';
import { CRM_PAGE_SIZE, listCrmLearners } from '#core/crm/learners.ts';
import { documentClient } from '#data/table.ts';
import { dynamoCrm } from '#data/crm.ts';
import { dynamoEnrollments } from '#data/enrollments.ts';
import { DEMO_LEARNER_PASSWORD, demoCourses, demoLearnerEmail, demoLearners, seedDemoCatalogue } from '#lib/local/demo-catalogue.ts';
import { accountWithRole, api, counted, dynamo, outputs, signIn, useLocalCloudEnv } from './support.ts';

/** The creator's CRM end to end: courses and invitations through the API, the learner's progress, notes, mail. */
type Account = Awaited<ReturnType<typeof accountWithRole>>;

const ok = <T>(res: { status: number; body: T }, status = 200): T => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};

const createCourse = async (creator: Account, title: string, lessons: string[]) => {
  const course = ok(await api('POST', '/api/courses', { token: creator.token, body: { title, description: `All about ${title}` } }), 201) as { id: string };
  const lessonIds: string[] = [];
  for (const lesson of lessons) {
    const created = ok(await api('POST', `/api/courses/${course.id}/lessons`, { token: creator.token, body: { title: lesson, kind: 'text', body: `<p>${lesson}</p>` } }), 201);
    lessonIds.push((created as { id: string }).id);
  }
  ok(await api('PATCH', `/api/courses/${course.id}`, { token: creator.token, body: { status: 'published' } }));
  return { id: course.id, title, lessonIds };
};

const enroll = async (creator: Account, courseId: string, learner: Account) =>
  ok(await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } }), 201);

const crmPage = async (token: string, query = '') => ok(await api('GET', `/api/crm/learners${query}`, { token })) as { items: CrmLearner[]; nextCursor: string | null };

interface StoredMail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
}
const mailsTo = async (to: string): Promise<StoredMail[]> => {
  const { emails } = (await (await fetch(`${outputs().SesEndpoint}/store`)).json()) as { emails: StoredMail[] };
  return emails.filter((mail) => mail.destination.to.includes(to));
};

const creatorItems = async (creatorId: string, prefix: string) =>
  (
    await dynamo().send(
      new QueryCommand({
        TableName: outputs().TableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}`, ':prefix': prefix },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

describe("the creator's CRM", () => {
  let creator: Account;
  let other: Account;
  let ada: Account;
  let bob: Account;
  let bread: { id: string; title: string; lessonIds: string[] };
  let pastry: { id: string; title: string; lessonIds: string[] };

  beforeAll(async () => {
    [creator, other, ada, bob] = await Promise.all([
      accountWithRole('creator', 'crm-creator'),
      accountWithRole('creator', 'crm-other'),
      accountWithRole('learner', 'crm-ada'),
      accountWithRole('learner', 'crm-bob'),
    ]);
    bread = await createCourse(creator, 'Baking Bread', ['Flour', 'Yeast']);
    pastry = await createCourse(creator, 'Pastry', ['Butter', 'Folding', 'Baking']);
    await enroll(creator, bread.id, ada);
    await enroll(creator, pastry.id, ada);
    await enroll(creator, pastry.id, bob);
    // Ada finishes one of Baking Bread's two lessons.
    ok(await api('POST', `/api/learner/courses/${bread.id}/lessons/${bread.lessonIds[0]}/complete`, { token: ada.token, body: {} }));
  });

  it('lists one row per enrolment in both courses, newest first, with progress and the learner', async () => {
    const page = await crmPage(creator.token);
    expect(page.nextCursor).toBeNull();
    expect(page.items.map((row) => [row.email, row.courseName, row.progress])).toEqual([
      [bob.email, 'Pastry', 0],
      [ada.email, 'Pastry', 0],
      [ada.email, 'Baking Bread', 50],
    ]);
    const adaBread = page.items[2]!;
    expect(adaBread).toMatchObject({ id: ada.id, createdAt: ada.createdAt, courseId: bread.id, notes: '', stalled: false });
  });

  it("filters by course with ?courseId=, and another creator's course is 404", async () => {
    const page = await crmPage(creator.token, `?courseId=${pastry.id}`);
    expect(page.items.map((row) => row.email).sort()).toEqual([ada.email, bob.email].sort());
    expect((await api('GET', `/api/crm/learners?courseId=${pastry.id}`, { token: other.token })).status).toBe(404);
  });

  it('shows nothing of one creator to another', async () => {
    expect(await crmPage(other.token)).toEqual({ items: [], nextCursor: null });
  });

  it('saves a note, shows it on every row of the learner and in the details panel', async () => {
    const saved = ok(await api('PUT', `/api/crm/learners/${ada.id}/notes`, { token: creator.token, body: { notes: 'Wants to open a bakery' } })) as { notes: string; updatedAt: string };
    expect(saved.notes).toBe('Wants to open a bakery');
    const rows = (await crmPage(creator.token)).items.filter((row) => row.id === ada.id);
    expect(rows.map((row) => row.notes)).toEqual(['Wants to open a bakery', 'Wants to open a bakery']);
    const details = ok(await api('GET', `/api/crm/learners/${ada.id}`, { token: creator.token })) as Record<string, unknown>;
    expect(details).toMatchObject({ id: ada.id, email: ada.email, notes: 'Wants to open a bakery', notesUpdatedAt: saved.updatedAt });
    expect((details['enrollments'] as { courseName: string; progress: number }[]).map((e) => [e.courseName, e.progress]).sort()).toEqual([
      ['Baking Bread', 50],
      ['Pastry', 0],
    ]);
  });

  it("emails a recommendation to the learner (SES store) and puts it on the learner's timeline", async () => {
    const before = (await mailsTo(bob.email)).length;
    const res = await api('POST', `/api/crm/learners/${bob.id}/recommendations`, { token: creator.token, body: { recommendation: SEND_ENCOURAGEMENT_TEXT } });
    expect(res).toEqual({ status: 202, body: { sent: true } });
    const mails = await mailsTo(bob.email);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)!.body.text).toContain(SEND_ENCOURAGEMENT_TEXT);
    // Issue 27 point 4: the platform's subject, the course in the body.
    expect(mails.at(-1)!.subject).toBe('A message from your course creator on Course Platform');
    expect(mails.at(-1)!.body.text).toContain('Pastry');

    ok(await api('POST', `/api/crm/learners/${bob.id}/recommendations`, { token: creator.token, body: { recommendation: SEND_RESOURCES_TEXT } }), 202);
    const details = ok(await api('GET', `/api/crm/learners/${bob.id}`, { token: creator.token })) as { timeline: { text: string }[] };
    expect(details.timeline.map((entry) => entry.text)).toEqual([SEND_RESOURCES_TEXT, SEND_ENCOURAGEMENT_TEXT]);
  });

  it("answers 404 to another creator on a learner's notes, details and recommendations, and writes and sends nothing", async () => {
    const mailsBefore = (await mailsTo(ada.email)).length;
    const attempts = [
      await api('PUT', `/api/crm/learners/${ada.id}/notes`, { token: other.token, body: { notes: 'stolen' } }),
      await api('GET', `/api/crm/learners/${ada.id}`, { token: other.token }),
      await api('POST', `/api/crm/learners/${ada.id}/recommendations`, { token: other.token, body: { recommendation: 'Hello from a stranger' } }),
    ];
    expect(attempts.map((res) => res.status)).toEqual([404, 404, 404]);
    expect(await creatorItems(other.id, 'NOTE#')).toEqual([]);
    expect(await creatorItems(other.id, 'TIMELINE#')).toEqual([]);
    expect(await mailsTo(ada.email)).toHaveLength(mailsBefore);
    // The real creator's note is as it was.
    const note = await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: { pk: `CREATOR#${creator.id}`, sk: `NOTE#${ada.id}` } }));
    expect(note.Item?.['notes']).toBe('Wants to open a bakery');
  });

  it("refuses a cursor of another creator's listing (400), rather than reading their learners", async () => {
    const forged = Buffer.from(
      JSON.stringify({ pk: `COURSE#${pastry.id}`, sk: `ENROLL#${bob.id}`, gsi1pk: `CREATOR#${creator.id}#LEARNERS`, gsi1sk: '9999' }),
    ).toString('base64url');
    expect((await api('GET', `/api/crm/learners?cursor=${forged}`, { token: other.token })).status).toBe(400);
    expect((await api('GET', '/api/crm/learners?cursor=not-a-cursor', { token: other.token })).status).toBe(400);
  });

  it('shows the dashboard figures: two courses, three students, the newest courses first', async () => {
    // The students come from the table's stream (decision 0040): read once it has counted the enrolments.
    const stats = ok(await counted(() => api('GET', '/api/creator/stats', { token: creator.token }))) as Record<string, unknown>;
    expect(stats).toMatchObject({ courses: 2, students: 3, completionRate: 0, revenuePence: 0 });
    expect((stats['recentCourses'] as { title: string }[]).map((c) => c.title)).toEqual(['Pastry', 'Baking Bread']);
  });
});

describe('the cost of a CRM page', () => {
  it('is one Query and three BatchGetItems (the course titles where they live, the notes, the pending submissions), with 40 learners as with 3, and the pages join up', async () => {
    const creator = await accountWithRole('creator', 'crm-cost');
    const creatorId = creator.id;
    const course = await createCourse(creator, 'Sourdough', []);
    const enrollments = dynamoEnrollments();
    const learners = Array.from({ length: 40 }, (_, i) => `learner-${String(i).padStart(2, '0')}`);
    for (const [i, learnerId] of learners.entries()) {
      const result = await enrollments.enroll({
        courseId: course.id,
        learnerId,
        creatorId,
        learnerEmail: `${learnerId}@example.com`,
        learnerJoinedAt: '2026-01-01T00:00:00.000Z',
        courseTitle: 'Sourdough',
        enrolledAt: new Date(Date.UTC(2026, 0, 2) + i * 60_000).toISOString(),
      });
      expect(result.status).toBe('enrolled');
    }
    const crm = dynamoCrm();
    await crm.saveNote(creatorId, 'learner-39', { notes: 'The newest', updatedAt: new Date().toISOString() });

    const sent: string[] = [];
    const counting = 'count-crm-calls';
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        sent.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: counting },
    );
    try {
      const clock = { now: () => new Date() };
      const first = await listCrmLearners({ crm, clock }, { creatorId });
      expect(first.items).toHaveLength(CRM_PAGE_SIZE);
      expect(sent).toEqual(['QueryCommand', 'BatchGetItemCommand', 'BatchGetItemCommand', 'BatchGetItemCommand']);
      expect(first.items[0]).toMatchObject({ id: 'learner-39', notes: 'The newest', courseName: 'Sourdough' });

      sent.length = 0;
      const second = await listCrmLearners({ crm, clock }, { creatorId, cursor: first.nextCursor! });
      expect(sent).toEqual(['QueryCommand', 'BatchGetItemCommand', 'BatchGetItemCommand', 'BatchGetItemCommand']);
      const all = [...first.items, ...second.items].map((row) => row.id);
      expect(new Set(all).size).toBe(learners.length);
      expect(second.nextCursor).toBeNull();
    } finally {
      documentClient().middlewareStack.remove(counting);
    }
  });
});

describe("the demo seed's catalogue", () => {
  const demo = { email: 'creator@example.com', password: 'CreatorPass123' };

  it('gives the demo creator two published courses and a dozen learners at varied progress, some stalled, one with a note', async () => {
    const token = await signIn(demo.email, demo.password);
    const courses = ok(await api('GET', '/api/courses', { token })) as { items: { title: string; status: string; lessonCount: number }[] };
    expect(courses.items.map((c) => [c.title, c.status])).toEqual(expect.arrayContaining(demoCourses.map((c) => [c.title, 'published'])));
    expect(courses.items.every((c) => c.lessonCount >= 3 && c.lessonCount <= 5)).toBe(true);

    const rows = (await crmPage(token)).items;
    const more = (await crmPage(token, `?cursor=${(await crmPage(token)).nextCursor ?? ''}`)).items;
    const all = (await crmPage(token)).nextCursor ? [...rows, ...more] : rows;
    expect(new Set(all.map((row) => row.email)).size).toBe(demoLearners.length);
    expect(new Set(all.map((row) => row.progress)).size).toBeGreaterThanOrEqual(5);
    expect(all.filter((row) => row.stalled).length).toBeGreaterThanOrEqual(3);
    expect(all.filter((row) => row.progress === 100).length).toBe(2);
    expect(all.filter((row) => row.notes !== '').map((row) => row.email)).toEqual(['tom.nguyen@example.com']);

    const learner = await signIn(demoLearnerEmail, DEMO_LEARNER_PASSWORD);
    expect(((ok(await api('GET', '/api/learner/courses', { token: learner })) as { items: unknown[] }).items)).toHaveLength(2);
  });

  // How long the seeding takes (5 s, for a fresh creator and for a second run) is `npm run bench`'s (test/bench/crm.ts):
  // here it would measure the machine's load as much as the seeding.
  it('is idempotent (a second run duplicates nothing)', async () => {
    useLocalCloudEnv();
    const token = await signIn(demo.email, demo.password);
    const before = ok(await counted(() => api('GET', '/api/creator/stats', { token })));
    await seedDemoCatalogue({ creatorEmail: demo.email, log: () => {} });
    expect(ok(await counted(() => api('GET', '/api/creator/stats', { token })))).toEqual(before);
  });

  it("seeds a fresh creator's catalogue, counted in the creator's figures", async () => {
    const fresh = await accountWithRole('creator', 'seed-fresh');
    await seedDemoCatalogue({ creatorEmail: fresh.email, log: () => {} });
    // Its enrolments' figures from the table's stream (decision 0040), once counted.
    expect(ok(await counted(() => api('GET', '/api/creator/stats', { token: fresh.token })))).toMatchObject({
      courses: 2,
      students: demoLearners.flatMap((learner) => learner.enrollments).length,
      completionRate: Math.round((100 * 2) / demoLearners.flatMap((learner) => learner.enrollments).length),
    });
  });
});
