import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PersonalExportStatus } from '#contracts/personal-exports.ts';
import { unzip } from '#test/functions/fakes/unzip.ts';
import { mailsTo } from './mail-support.ts';
import { dynamoOrders } from '#data/orders.ts';
import { pendingOrder } from '#test/functions/fakes/orders.ts';
import { accountWithRole, api, eventually, useLocalCloudEnv } from './support.ts';

/**
 * "Download my data" end to end (issue 37 point 1): the gateway, the 'personal-export' job on its queue, DynamoDB
 * Local, the S3 emulator and SES local. A person asks for their data, waits for it, downloads the ZIP from the link
 * the page shows and finds what they did on the platform in it (enrolment, quiz attempt, submission with its photo,
 * comments, and a course they left with every submission and comment in it); the emailed link is the same file.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;

const quiz = {
  passPercent: 100,
  maxAttempts: 3,
  questions: [{ prompt: 'Which knife for bread?', type: 'single', options: ['Paring', 'Serrated', 'Cleaver'], correct: [1] }],
};

let creator: Account;
let learner: Account;
let courseId: string;
let quizLessonId: string;
let assignmentId: string;
let submissionId: string;
let upload: { id: string; name: string };
let orderId: string;
let leftCourseId: string;
let leftSubmissions: string[];
const photo = randomBytes(40_000);

beforeAll(async () => {
  [creator, learner] = await Promise.all([accountWithRole('creator', 'export-creator'), accountWithRole('learner', 'export-learner')]);
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Bread knives' } })).body.id as string;
  const made = await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Knife check', kind: 'quiz', quiz } });
  expect(made.status).toBe(201);
  quizLessonId = made.body.id as string;
  expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
  expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
  const attempt = await api('POST', `/api/learner/courses/${courseId}/lessons/${quizLessonId}/attempts`, { token: learner.token, body: { answers: [[0]] } });
  expect(attempt.status).toBe(200);

  // An assignment handed in with a photo (the bytes PUT straight to S3, as the browser does), and a discussion.
  assignmentId = (await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Photograph your loaf', kind: 'assignment', assignment: { instructions: 'Upload a photo.', acceptsFiles: true } } })).body.id as string;
  const base = `/api/learner/courses/${courseId}/lessons/${assignmentId}`;
  const started = await api('POST', `${base}/submission-files`, { token: learner.token, body: { name: 'My loaf.png', contentType: 'image/png', size: photo.length } });
  expect(started.status).toBe(201);
  upload = started.body.file as { id: string; name: string };
  expect((await fetch(started.body.url as string, { method: 'PUT', body: photo, headers: { 'content-type': 'image/png' } })).status).toBe(200);
  const handedIn = await api('POST', `${base}/submissions`, { token: learner.token, body: { text: 'Here is my loaf.', fileIds: [upload.id] } });
  expect(handedIn.status).toBe(201);
  submissionId = handedIn.body.id as string;
  const comments = `/api/courses/${courseId}/lessons/${quizLessonId}/comments`;
  const question = await api('POST', comments, { token: learner.token, body: { body: 'Is a bread knife serrated?' } });
  expect(question.status).toBe(201);
  expect((await api('POST', comments, { token: creator.token, body: { body: 'Yes, always.', parentId: question.body.id } })).status).toBe(201);
  expect((await api('POST', comments, { token: learner.token, body: { body: 'Thank you!', parentId: question.body.id } })).status).toBe(201);

  // A course of another creator's they were in and left (its creator removed them): an assignment handed in, sent
  // back for revision and handed in again (the first superseded), and a question in its discussion.
  const other = await accountWithRole('creator', 'export-creator-left');
  leftCourseId = (await api('POST', '/api/courses', { token: other.token, body: { title: 'Rye breads' } })).body.id as string;
  const rye = (await api('POST', `/api/courses/${leftCourseId}/lessons`, { token: other.token, body: { title: 'Your rye', kind: 'assignment', assignment: { instructions: 'Describe it.', acceptsFiles: false } } })).body.id as string;
  expect((await api('PATCH', `/api/courses/${leftCourseId}`, { token: other.token, body: { status: 'published' } })).status).toBe(200);
  expect((await api('POST', `/api/courses/${leftCourseId}/enrollments`, { token: other.token, body: { email: learner.email } })).status).toBe(201);
  const ryeBase = `/api/learner/courses/${leftCourseId}/lessons/${rye}`;
  const firstTry = await api('POST', `${ryeBase}/submissions`, { token: learner.token, body: { text: 'Dense.', fileIds: [] } });
  expect(firstTry.status, JSON.stringify(firstTry.body)).toBe(201);
  expect((await api('POST', `/api/submissions/${firstTry.body.id as string}/grade`, { token: other.token, body: { status: 'needs_revision', feedback: 'Longer proof.' } })).status).toBe(200);
  const secondTry = await api('POST', `${ryeBase}/submissions`, { token: learner.token, body: { text: 'Airy.', fileIds: [] } });
  expect(secondTry.status, JSON.stringify(secondTry.body)).toBe(201);
  leftSubmissions = [firstTry.body.id as string, secondTry.body.id as string];
  expect((await api('POST', `/api/courses/${leftCourseId}/lessons/${rye}/comments`, { token: learner.token, body: { body: 'How long to proof?' } })).status).toBe(201);
  expect((await api('DELETE', `/api/courses/${leftCourseId}/enrollments/${learner.id}`, { token: other.token })).status).toBe(204);

  // A course they bought from another creator (under their email in another case) that could not be fulfilled: refunded
  // at once, no enrolment. Written through the orders module, as the Connect webhook writes it.
  useLocalCloudEnv();
  const orders = dynamoOrders();
  orderId = `export-order-${learner.id}`;
  await orders.create(pendingOrder({ id: orderId, creatorId: 'another-creator', courseTitle: 'Sourdough', price: 2900, amount: 2900, checkoutSessionId: 'cs_export_secret', checkoutUrl: 'https://checkout.example/cs_export_secret' }));
  const refunded = { amount: 2900, discount: 0, buyerEmail: learner.email.toUpperCase(), paymentIntentId: 'pi_export_secret', at: new Date().toISOString() };
  expect(await orders.markUnfulfilled({ event: { id: `evt_${orderId}`, type: 'checkout.session.completed' }, orderId, refunded, reason: 'enrolled-already' })).toBe('applied');
}, 120_000);

/** Asks for an export and waits for it to be ready (the job runs on its queue; a loaded machine is slow). */
const exportOf = async (person: Account): Promise<{ exportId: string; url: string; files: Map<string, Buffer> }> => {
  const started = await api('POST', '/api/me/exports', { token: person.token });
  expect(started.status).toBe(202);
  const exportId = started.body.exportId as string;
  const status = await eventually(
    () => api('GET', `/api/me/exports/${exportId}`, { token: person.token }),
    (r) => (r.body as PersonalExportStatus).status !== 'pending',
    120_000,
  );
  expect(status.status).toBe(200);
  const ready = status.body as PersonalExportStatus;
  expect(ready.status).toBe('ready');
  const download = await fetch(ready.url!);
  expect(download.status).toBe(200);
  return { exportId, url: ready.url!, files: unzip(new Uint8Array(await download.arrayBuffer())) };
};

const json = (files: Map<string, Buffer>, name: string) => {
  expect([...files.keys()]).toContain(name);
  return JSON.parse(files.get(name)!.toString('utf8')) as Record<string, unknown>[];
};

describe('download my data', () => {
  it("gives a learner a ZIP with their enrolment, quiz attempt, submission and its photo, and comments; emails its link; keeps it from anyone else", async () => {
    const { exportId, files } = await exportOf(learner);
    expect(files.get('README.txt')!.toString('utf8')).toContain(learner.email);
    expect(json(files, 'account.json').some((r) => r['email'] === learner.email)).toBe(true);
    expect(json(files, 'enrolments.json')).toEqual([expect.objectContaining({ courseId, learnerId: learner.id })]);
    const attempts = json(files, `quiz-attempts/${courseId}.json`);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ learnerId: learner.id, lessonId: quizLessonId });
    expect(json(files, `submissions/${courseId}.json`)).toEqual([expect.objectContaining({ id: submissionId, lessonId: assignmentId, text: 'Here is my loaf.', superseded: false })]);
    expect(json(files, 'comments.json').map((c) => [c['authorId'], c['body']])).toEqual([
      [learner.id, 'Is a bread knife serrated?'],
      [learner.id, 'Thank you!'],
      // In the course they left, after those of the courses they are in.
      [learner.id, 'How long to proof?'],
    ]);
    // The course they left: its enrolment (removed, not among the current ones) and every submission, the earlier
    // one marked superseded with its feedback.
    expect(json(files, 'enrolments.json').map((e) => e['courseId'])).not.toContain(leftCourseId);
    expect(json(files, 'left-courses.json')).toEqual([expect.objectContaining({ courseId: leftCourseId, learnerId: learner.id, status: 'removed' })]);
    expect(json(files, `submissions/${leftCourseId}.json`).map((r) => [r['id'], r['text'], r['superseded']])).toEqual([
      [leftSubmissions[0], 'Dense.', true],
      [leftSubmissions[1], 'Airy.', false],
    ]);
    expect(json(files, `submissions/${leftCourseId}.json`)[0]).toMatchObject({ status: 'needs_revision', feedback: 'Longer proof.', supersededBy: leftSubmissions[1] });
    // What they bought, refunded too (no enrolment holds it), without the payment's Stripe ids.
    expect(json(files, 'orders.json')).toEqual([expect.objectContaining({ id: orderId, courseTitle: 'Sourdough', amount: 2900, currency: 'gbp', status: 'refunded' })]);
    expect(files.get('orders.json')!.toString('utf8')).not.toMatch(/cs_export_secret|pi_export_secret|acct_|evt_/);
    // The photo, byte for byte.
    expect(files.get(`files/${courseId}/${assignmentId}/${upload.id}-My loaf.png`)?.equals(photo)).toBe(true);

    // The email holds a link to the same ZIP.
    const mail = await eventually(
      () => mailsTo(learner.email),
      (mails) => mails.some((m) => m.subject.includes('your data is ready')),
      60_000,
    );
    const sent = mail.find((m) => m.subject.includes('your data is ready'))!;
    const link = /https?:\/\/\S+/.exec(sent.body.text ?? '')?.[0];
    expect(link).toBeDefined();
    const emailed = await fetch(link!);
    expect(emailed.status).toBe(200);
    expect(unzip(new Uint8Array(await emailed.arrayBuffer())).has(`quiz-attempts/${courseId}.json`)).toBe(true);

    // Another person's id, and an unknown one, answer 404.
    expect((await api('GET', `/api/me/exports/${exportId}`, { token: creator.token })).status).toBe(404);
    expect((await api('GET', '/api/me/exports/no-such-export', { token: learner.token })).status).toBe(404);
  }, 240_000);

  it("gives a creator their courses, the learners in their CRM and their own replies", async () => {
    const { files } = await exportOf(creator);
    expect(json(files, 'creator/courses.json')).toEqual([expect.objectContaining({ id: courseId, title: 'Bread knives' })]);
    expect(json(files, 'creator/crm-learners.json')).toEqual([expect.objectContaining({ courseId, learnerId: learner.id })]);
    // Their own reply in their course's discussion, and not the learner's comments.
    expect(json(files, 'comments.json').map((c) => c['body'])).toEqual(['Yes, always.']);
    // They bought nothing: the learner's order is not theirs.
    expect(json(files, 'orders.json')).toEqual([]);
    // Nothing of the learner's own quiz attempts: those are theirs.
    expect([...files.keys()].some((name) => /^(quiz-attempts|submissions|files)\//.test(name))).toBe(false);
  }, 180_000);
});
