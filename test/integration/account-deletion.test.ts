import { ScanCommand, type ScanCommandOutput, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { cancelSubscriptionNow, deleteCustomer } from '#adapters/stripe-payments.ts';
import { runAccountDeletion } from '#core/accounts/delete-account.ts';
import { accountDeletionJobDeps, emailPseudonym } from '#functions/composition/deps-account-deletion.ts';
import { submissionFileKey } from '#core/assignments/rules.ts';
import { deletionKeys } from '#data/account-deletion.ts';
import { affiliateKeys } from '#data/affiliates.ts';
import { billingKeys } from '#data/billing.ts';
import { enrollmentKeys } from '#data/enrollments.ts';
import { learnerProfileKey } from '#data/learner-profiles.ts';
import { licenseKeys } from '#data/licenses.ts';
import { membershipKeys } from '#data/memberships.ts';
import { dynamoOrders, orderKeys } from '#data/orders.ts';
import { payoutKeys } from '#data/payouts.ts';
import { sequenceKeys } from '#data/sequences.ts';
import { submissionKeys } from '#data/submissions.ts';
import { userKeys } from '#data/users.ts';
import { dynamoAccountDeletions } from '#data/account-deletion.ts';
import { senderDeps } from '#functions/composition/deps-campaigns.ts';
import { mailer } from '#functions/composition/deps.ts';
import { pendingOrder } from '#test/functions/fakes/orders.ts';
import { mailsTo } from './mail-support.ts';
import { deliver, subscriptionEvent } from './billing-support.ts';
import { accountWithRole, api, dynamo, eventually, filesBucketHolds, outputs, putFilesObject, signIn, useLocalCloudEnv } from './support.ts';

/**
 * "Delete my account" (issue 37 point 2) end to end: the gateway, the handler, the 'account-deletion' run on the local
 * SQS stand-in and its event source, cognito-local, DynamoDB Local and the Stripe stand-in. After the run, a full Scan
 * of the table (a test may scan; the job never does) finds the learner's email nowhere but in their suppression and
 * the audit log.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let creator: Account;
let learner: Account;
let courseId: string;
let textLessonId: string;
let quizLessonId: string;
let orderId: string;
/** The creator's connected Stripe account, where their course checkouts are made. */
let accountId: string;

const quiz = { passPercent: 100, maxAttempts: 3, questions: [{ prompt: 'Which knife for bread?', type: 'single', options: ['Paring', 'Serrated'], correct: [1] }] };

const put = async (it: Record<string, unknown>) => void (await dynamo().send(new PutCommand({ TableName: outputs().TableName, Item: it })));
const item = async (key: { pk: string; sk: string }) => (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: key, ConsistentRead: true }))).Item;
const stripe = () => new Stripe('sk_test_local', { telemetry: false, host: new URL(outputs().StripeApiUrl).hostname, port: Number(new URL(outputs().StripeApiUrl).port), protocol: 'http' });

/** An item's attributes as one text; a number past 2^53 (the packed counters other features keep) as its digits. */
const textOf = (it: Record<string, unknown>): string => JSON.stringify(it, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));

/** Every item of the table whose attributes mention `text` anywhere (case-insensitive). */
const itemsMentioning = async (text: string): Promise<Record<string, unknown>[]> => {
  const found: Record<string, unknown>[] = [];
  let start: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page: ScanCommandOutput = await dynamo().send(new ScanCommand({ TableName: outputs().TableName, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }));
    for (const it of page.Items ?? []) if (textOf(it).toLowerCase().includes(text.toLowerCase())) found.push(it);
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
};

beforeAll(async () => {
  creator = await accountWithRole('creator', 'erase-creator');
  learner = await accountWithRole('learner', 'erase-learner');
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Bread for beginners', description: 'Bake.' } })).body.id as string;
  textLessonId = (await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Starter', kind: 'text', body: '<p>Flour and water.</p>' } })).body.id as string;
  quizLessonId = (await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Check', kind: 'quiz', quiz } })).body.id as string;
  expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published', priceAmount: 2900 } })).status).toBe(200);

  // The learner buys the course on the creator's Stripe account (the stand-in), as the sales tests do.
  await api('POST', '/api/creator/payouts/connect', { token: creator.token, body: { returnUrl: `${outputs().WebUrl}/r`, refreshUrl: `${outputs().WebUrl}/f` } });
  accountId = (await item(payoutKeys.account(creator.id)))!['accountId'] as string;
  await fetch(`${outputs().StripeApiUrl}/_stand-in/accounts/${accountId}/ready`, { method: 'POST' });
  await eventually(() => api('GET', '/api/creator/payouts', { token: creator.token }), (r) => r.body.status === 'enabled');
  const origin = outputs().WebUrl;
  const started = await api('POST', `/api/public/courses/${courseId}/checkout`, { body: { successUrl: `${origin}/c/${courseId}?purchase=success`, cancelUrl: `${origin}/c/${courseId}`, email: learner.email } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const sessionId = new URL(started.body.url as string).pathname.split('/').pop()!;
  orderId = (await stripe().checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId })).metadata?.['orderId'] as string;
  expect((await fetch(`${started.body.url as string}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
  await eventually(() => item({ pk: `COURSE#${courseId}`, sk: `ENROLL#${learner.id}` }), (e) => e?.['status'] === 'active', 30_000);

  // Progress, a quiz attempt and a comment.
  expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${textLessonId}/complete`, { token: learner.token })).status).toBe(200);
  expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${quizLessonId}/attempts`, { token: learner.token, body: { answers: [[0]] } })).status).toBe(200);
  expect((await api('POST', `/api/courses/${courseId}/lessons/${textLessonId}/comments`, { token: learner.token, body: { body: 'How warm should the water be?' } })).status).toBe(201);
}, 120_000);

describe('deleting one’s account', () => {
  it('needs the typed confirmation (400 otherwise) and refuses a creator with learners on a published course (409), changing nothing', async () => {
    for (const body of [{}, { confirm: 'delete' }]) expect((await api('DELETE', '/api/me', { token: learner.token, body })).status).toBe(400);
    const refused = await api('DELETE', '/api/me', { token: creator.token, body: { confirm: 'DELETE' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('Unpublish these courses first');
    expect(refused.body.error.message).toContain('Bread for beginners');
    expect(refused.body.error.details).toEqual({ courses: ['Bread for beginners'] });
    expect((await api('GET', '/api/me', { token: creator.token })).status).toBe(200);
    expect(await signIn(creator.email, creator.password)).toBeTruthy();
  });

  it('refuses a creator whose learner was enrolled a moment ago (409), before any counter has caught up', async () => {
    const other = await accountWithRole('creator', 'erase-creator-now');
    const otherCourse = (await api('POST', '/api/courses', { token: other.token, body: { title: 'Sourdough at once', description: 'Bake.' } })).body.id as string;
    expect((await api('PATCH', `/api/courses/${otherCourse}`, { token: other.token, body: { status: 'published' } })).status).toBe(200);
    const enrolled = await api('POST', `/api/courses/${otherCourse}/enrollments`, { token: other.token, body: { email: `now-${Date.now()}@example.com` } });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    // No waiting: the course's enrolled count moves a stream batch later; the refusal must not depend on it.
    const refused = await api('DELETE', '/api/me', { token: other.token, body: { confirm: 'DELETE' } });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error.details).toEqual({ courses: ['Sourdough at once'] });
    expect((await api('GET', '/api/me', { token: other.token })).status).toBe(200);
  });

  it('a learner deletes their account: after the run sign-in fails and no item holds their email but the suppression and the audit log', async () => {
    const first = await api('DELETE', '/api/me', { token: learner.token, body: { confirm: 'DELETE' } });
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body).toMatchObject({ status: 'deleting' });
    expect(await api('DELETE', '/api/me', { token: learner.token, body: { confirm: 'DELETE' } })).toMatchObject({ status: 202, body: first.body });

    await eventually(() => item(deletionKeys.deletion(learner.id)), (d) => d?.['step'] === 'done', 60_000);
    // Checked once the run is done: the stand-in's shim reads a user deleted between its two calls as enabled, a race
    // Cognito does not have (the disable at the request itself is the unit tests' and the admin's disable test's).
    await expect(signIn(learner.email, learner.password)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    const left = await itemsMentioning(learner.email);
    const where = left.map((it) => `${String(it['pk']).split('#')[0]}/${String(it['sk']).split('#')[0]}`);
    expect(where.sort()).toEqual(['AUDIT/' + String(left.find((it) => it['pk'] === 'AUDIT')?.['sk'] ?? '').split('#')[0], 'SUPPRESS/SUPPRESSION'].sort());
    expect(left.find((it) => it['pk'] === 'AUDIT')).toMatchObject({ action: 'account-deleted', actor: { id: learner.id, email: learner.email }, target: { kind: 'user', id: learner.id } });
    expect(left.find((it) => String(it['pk']).startsWith('SUPPRESS#'))).toMatchObject({ reason: 'deleted' });

    // A repeated request with the old token, before it expires: the same answer, nothing queued again.
    const again = await api('DELETE', '/api/me', { token: learner.token, body: { confirm: 'DELETE' } });
    expect([202, 403], JSON.stringify(again.body)).toContain(again.status);
    if (again.status === 202) expect(again.body).toEqual(first.body);
    await expect(signIn(learner.email, learner.password)).rejects.toThrow();
  }, 120_000);

  it('drops at the SES ports any email still meant for the deleted learner (one at a time, or in a bulk send), and sends the others', async () => {
    useLocalCloudEnv();
    const other = `erase-mail-control-${Date.now()}@example.com`;
    const subject = `Left behind ${Date.now()}`;
    for (const to of [learner.email, other]) await mailer().send({ to, subject, text: 'x', html: '<p>x</p>' });
    const bulk = await senderDeps(() => 60_000).mailer.sendBulk({ subject: `${subject} (bulk)`, text: 'x', html: '<p>x</p>', entries: [learner.email, other].map((to) => ({ to, headers: [], data: {} })) });
    expect(bulk.map((r) => [r.to, r.ok])).toEqual([[learner.email, false], [other, true]]);
    expect((await mailsTo(other)).map((m) => m.subject)).toEqual([subject, `${subject} (bulk)`]);
    expect((await mailsTo(learner.email)).filter((m) => m.subject.startsWith(subject))).toEqual([]);
  });

  it("leaves the creator's CRM and sales without a trace of the email, the order with its amount, the comment by \"Deleted user\"", async () => {
    const crm = await api('GET', '/api/crm/learners', { token: creator.token });
    expect(crm.status).toBe(200);
    expect(JSON.stringify(crm.body)).not.toContain(learner.email);
    const sales = await api('GET', '/api/sales', { token: creator.token });
    expect(sales.status).toBe(200);
    expect(JSON.stringify(sales.body)).not.toContain(learner.email);
    expect(sales.body.items).toEqual([expect.objectContaining({ id: orderId, amount: 2900, buyerEmail: emailPseudonym(learner.email) })]);
    expect(await item(orderKeys.order(orderId))).toMatchObject({ status: 'paid', amount: 2900, buyerEmail: emailPseudonym(learner.email) });
    const comments = await api('GET', `/api/courses/${courseId}/lessons/${textLessonId}/comments`, { token: creator.token });
    expect(JSON.stringify(comments.body)).toContain('Deleted user');
    expect(JSON.stringify(comments.body)).toContain('How warm should the water be?');
    // The creator's course no longer counts the learner.
    expect((await api('GET', `/api/courses/${courseId}`, { token: creator.token })).body).toMatchObject({ enrolledCount: 0 });
  });

  it("a subscribed creator deletes their account: the run cancels their Stripe subscription at once, and a rerun's cancel is harmless", async () => {
    const subscriber = await accountWithRole('creator', 'erase-subscriber', { plan: 'none' });
    const origin = new URL(outputs().WebUrl).origin;
    const checkout = await api('POST', '/api/billing/checkout', { token: subscriber.token, body: { planType: 'starter', successUrl: `${origin}/checkout/success`, cancelUrl: `${origin}/#pricing` } });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    expect((await fetch(`${checkout.body.url as string}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    const stored = await eventually(() => item(billingKeys.subscription(subscriber.id)), (sub) => sub?.['status'] === 'trialing');
    const subscriptionId = String(stored!['subscriptionId']);
    expect(await stripe().subscriptions.retrieve(subscriptionId)).toMatchObject({ status: 'trialing', cancel_at_period_end: false });

    expect((await api('DELETE', '/api/me', { token: subscriber.token, body: { confirm: 'DELETE' } })).status).toBe(202);
    await eventually(() => item(deletionKeys.deletion(subscriber.id)), (d) => d?.['step'] === 'done', 60_000);
    const cancelled = await stripe().subscriptions.retrieve(subscriptionId);
    expect(cancelled.status).toBe('canceled');
    expect(cancelled.ended_at).not.toBeNull();
    // A rerun of the step (a kill before it was recorded): Stripe's cancelled subscription is left as it is.
    useLocalCloudEnv();
    await expect(cancelSubscriptionNow(subscriptionId)).resolves.toBeUndefined();
    await expect(cancelSubscriptionNow('sub_never_existed')).resolves.toBeUndefined();
    expect(await item(billingKeys.subscription(subscriber.id))).toBeUndefined();
  }, 120_000);

  it("a creator with a plan and a credit top-up open deletes their account: the top-up's checkout is closed, the Stripe customer deleted, and plan webhooks landing after write nothing of theirs back", async () => {
    const subscriber = await accountWithRole('creator', 'erase-customer', { plan: 'none' });
    const origin = new URL(outputs().WebUrl).origin;
    const checkout = await api('POST', '/api/billing/checkout', { token: subscriber.token, body: { planType: 'starter', successUrl: `${origin}/checkout/success`, cancelUrl: `${origin}/#pricing` } });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    expect((await fetch(`${checkout.body.url as string}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    const stored = await eventually(() => item(billingKeys.subscription(subscriber.id)), (sub) => sub?.['status'] === 'trialing');
    await eventually(() => item({ pk: `USER#${subscriber.id}`, sk: 'CREDITS' }), (account) => account !== undefined);
    const subscriptionId = String(stored!['subscriptionId']);
    const customerId = String((await item(billingKeys.customer(subscriber.id)))!['customerId']);
    expect(await stripe().customers.retrieve(customerId)).toMatchObject({ id: customerId, email: subscriber.email });
    // A top-up started and left open: its session is on no item of the person's but their purchase record.
    const topUp = await api('POST', '/api/credits/purchase', { token: subscriber.token, body: { creditAmount: 100, successUrl: `${origin}/credits?ok=1`, cancelUrl: `${origin}/credits` } });
    expect(topUp.status, JSON.stringify(topUp.body)).toBe(200);
    const topUpSession = new URL(topUp.body.url as string).pathname.split('/').pop()!;
    expect(await stripe().checkout.sessions.retrieve(topUpSession)).toMatchObject({ status: 'open', customer: customerId });

    expect((await api('DELETE', '/api/me', { token: subscriber.token, body: { confirm: 'DELETE' } })).status).toBe(202);
    await eventually(() => item(deletionKeys.deletion(subscriber.id)), (d) => d?.['step'] === 'done', 60_000);
    expect(await stripe().checkout.sessions.retrieve(topUpSession)).toMatchObject({ status: 'expired' });
    await expect(stripe().customers.retrieve(customerId)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
    expect(await stripe().subscriptions.retrieve(subscriptionId)).toMatchObject({ status: 'canceled' });
    // A rerun of the billing step: the customer Stripe no longer knows is done.
    useLocalCloudEnv();
    await expect(deleteCustomer(customerId)).resolves.toBeUndefined();

    // Webhooks landing after the own-items step (a late retry, a payment that got in before the expiry), Stripe-signed
    // through the real route: each recorded, none writes the person's subscription or credits back.
    const now = Math.floor(Date.now() / 1000) + 60;
    const late = [
      subscriptionEvent({ type: 'customer.subscription.updated', created: now, customer: customerId, subscription: subscriptionId, status: 'active' }),
      subscriptionEvent({ type: 'customer.subscription.deleted', created: now + 1, customer: customerId, subscription: subscriptionId, status: 'canceled' }),
      {
        id: `evt_late_topup_${subscriber.id}`,
        object: 'event',
        type: 'checkout.session.completed',
        created: now,
        livemode: false,
        data: { object: { id: topUpSession, object: 'checkout.session', mode: 'payment', customer: customerId, payment_status: 'paid', metadata: { userId: subscriber.id, purpose: 'credits' } } },
      },
    ];
    for (const event of late) expect((await deliver(event)).status).toBe(200);
    const { Items: left = [] } = await dynamo().send(
      new QueryCommand({ TableName: outputs().TableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${subscriber.id}` }, ConsistentRead: true }),
    );
    // Only the credit ledger's rows stay (money records, with no name or email).
    expect(left.map((it) => String(it['sk']).split('#')[0])).toEqual(left.map(() => 'CREDITTX'));
    expect(left.length).toBeGreaterThan(0);
    expect((await itemsMentioning(subscriber.email)).map((it) => String(it['pk']).split('#')[0]).sort()).toEqual(['AUDIT', 'SUPPRESS']);
  }, 120_000);

  it("a buyer with a course checkout still open deletes their account: the checkout is expired on the creator's account and the order keeps only the pseudonym", async () => {
    const buyer = await accountWithRole('learner', 'erase-open-checkout');
    const origin = outputs().WebUrl;
    const started = await api('POST', `/api/public/courses/${courseId}/checkout`, { body: { successUrl: `${origin}/c/${courseId}?purchase=success`, cancelUrl: `${origin}/c/${courseId}`, email: buyer.email } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const sessionId = new URL(started.body.url as string).pathname.split('/').pop()!;
    const pendingId = (await stripe().checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId })).metadata?.['orderId'] as string;
    expect(await item(orderKeys.order(pendingId))).toMatchObject({ status: 'pending', buyerEmail: buyer.email });

    expect((await api('DELETE', '/api/me', { token: buyer.token, body: { confirm: 'DELETE' } })).status).toBe(202);
    await eventually(() => item(deletionKeys.deletion(buyer.id)), (d) => d?.['step'] === 'done', 60_000);
    expect(await stripe().checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId })).toMatchObject({ status: 'expired' });
    // The hosted page takes no payment for it any more.
    expect((await fetch(`${started.body.url as string}/pay`, { method: 'POST', redirect: 'manual' })).status).not.toBe(303);
    const order = await eventually(() => item(orderKeys.order(pendingId)), (o) => o?.['status'] === 'expired');
    expect(order).toMatchObject({ buyerEmail: emailPseudonym(buyer.email) });
    expect(order).not.toHaveProperty('gsi2pk');
  }, 120_000);

  it("a payment that gets in on an order the deletion already pseudonymised is refunded at once on the creator's account: no account, enrolment or mail for the address, which no item holds", async () => {
    const email = `erase-race-${Date.now()}@example.com`;
    const origin = outputs().WebUrl;
    const started = await api('POST', `/api/public/courses/${courseId}/checkout`, { body: { successUrl: `${origin}/c/${courseId}?purchase=success`, cancelUrl: `${origin}/c/${courseId}`, email } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const sessionId = new URL(started.body.url as string).pathname.split('/').pop()!;
    const raceId = (await stripe().checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId })).metadata?.['orderId'] as string;
    // The deletion's 'orders' step erased the order, and the buyer paid before its expiry reached Stripe.
    useLocalCloudEnv();
    await dynamoAccountDeletions().eraseOrder({ orderId: raceId, creatorId: creator.id, couponCode: null, pendingCheckout: null }, email, emailPseudonym(email));
    expect((await fetch(`${started.body.url as string}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);

    const refunded = await eventually(() => item(orderKeys.order(raceId)), (o) => o?.['status'] === 'refunded', 30_000);
    expect(refunded).toMatchObject({ unfulfilled: 'buyer-deleted', buyerEmail: emailPseudonym(email), amount: 2900 });
    expect(refunded).not.toHaveProperty('gsi2pk');
    const refunds = await stripe().refunds.list({ payment_intent: refunded!['paymentIntentId'] as string }, { stripeAccount: accountId });
    expect(refunds.data.map((r) => [r.amount, r.status])).toEqual([[2900, 'succeeded']]);
    // Given the sender's minute: nothing was queued for the address, no account made, nothing holds it.
    expect(await itemsMentioning(email)).toEqual([]);
    expect(await item(userKeys.email(email))).toBeUndefined();
  }, 120_000);

  it('changes nothing when the run is started again', async () => {
    useLocalCloudEnv();
    const before = await itemsMentioning(learner.id);
    expect(await runAccountDeletion(accountDeletionJobDeps(), learner.id, () => false)).toEqual({ finished: true, steps: 0 });
    expect(await itemsMentioning(learner.id)).toEqual(before);
  });
  it('erases every other kind of item a learner leaves (submissions and their files, seat, membership row, sequence entry, affiliate record, a led licence, the Stripe customer): no item holds their email or name', async () => {
    const person = await accountWithRole('learner', 'erase-everything');
    const name = `Zed Quinn ${person.id.slice(0, 8)}`;
    const creatorId = creator.id;
    const at = new Date().toISOString();
    // Their profile's name (certificates) and their Stripe customer.
    await put({ ...learnerProfileKey(person.id), type: 'LearnerProfile', certificateName: name, updatedAt: at });
    await put({ ...billingKeys.customer(person.id), type: 'StripeCustomer', customerId: `cus_${person.id}` });
    await put({ ...billingKeys.customerUser(`cus_${person.id}`), type: 'StripeCustomerUser', userId: person.id });
    // A seat on a licence (one of two used), and a membership's subscription: both hold the enrolment on the course.
    const licenseId = `erase-licence-${person.id}`;
    await put({ ...licenseKeys.license(licenseId), type: 'License', id: licenseId, courseId, creatorId, leaderId: 'some-leader', leaderEmail: 'leader@example.com', seatsTotal: 5, seatsUsed: 2, status: 'active' });
    await put({ ...licenseKeys.seat(licenseId, person.email), type: 'Seat', licenseId, email: person.email, learnerId: person.id, status: 'active', assignedAt: at });
    const membershipId = `erase-membership-${person.id}`;
    const member = membershipKeys.member(membershipId, `sub_${person.id}`);
    await put({ ...member, type: 'Member', membershipId, subscriptionId: `sub_${person.id}`, creatorId, accountId: 'acct_1', email: person.email, learnerId: person.id, status: 'active', createdAt: at });
    await put({
      ...enrollmentKeys.enrollment(courseId, person.id),
      ...enrollmentKeys.byCreator(creatorId, at, courseId, person.id),
      ...enrollmentKeys.byLearner(person.id, courseId),
      type: 'Enrollment',
      courseId,
      creatorId,
      learnerId: person.id,
      learnerEmail: person.email,
      learnerJoinedAt: at,
      courseTitle: 'Bread for beginners',
      status: 'active',
      enrolledAt: at,
      completedLessonIds: [],
      progress: 0,
      lastActivity: at,
      completedAt: null,
      licenseId,
      sources: ['own', `membership:${membershipId}:sub_${person.id}`],
    });
    // Two submissions of an assignment (the first superseded), a file handed in with its bytes, the pending count.
    const submission = (id: string, submittedAt: string) => ({
      ...submissionKeys.submission(id),
      ...submissionKeys.ofCourse({ courseId, learnerId: person.id, submittedAt, id }),
      type: 'Submission',
      id,
      courseId,
      lessonId: textLessonId,
      creatorId,
      learnerId: person.id,
      learnerEmail: person.email,
      text: `${name}'s loaf`,
      status: 'submitted',
      submittedAt,
    });
    await put({ ...submission(`sub-a-${person.id}`, at), status: 'needs_revision', supersededBy: `sub-b-${person.id}` });
    await put(submission(`sub-b-${person.id}`, at));
    await put({ ...submissionKeys.latest(courseId, textLessonId, person.id), type: 'LatestSubmission', submissionId: `sub-b-${person.id}` });
    const upload = { courseId, lessonId: textLessonId, learnerId: person.id, id: 'file-1' };
    await put({ ...submissionKeys.file(courseId, textLessonId, person.id, 'file-1'), type: 'SubmissionFile', ...upload, name: 'loaf.jpg', contentType: 'image/jpeg', size: 4, createdAt: at });
    await putFilesObject(submissionFileKey(upload), 'loaf');
    await put({ ...submissionKeys.pending(courseId, person.id), type: 'PendingSubmissions', courseId, learnerId: person.id, pending: 1 });
    // An entry in one of the creator's sequences.
    const sequenceId = `erase-seq-${person.id}`;
    await put({ ...sequenceKeys.sequence(creatorId, sequenceId), type: 'Sequence', id: sequenceId, creatorId });
    await put({ ...sequenceKeys.entry({ sequenceId, courseId, learnerId: person.id, event: 'enrolled' }), type: 'SequenceEntry', creatorId, email: person.email, step: 0 });
    // They are also the creator's affiliate, and lead a licence of their own.
    const affiliateId = `erase-aff-${person.id}`;
    await put({ ...affiliateKeys.affiliate(creatorId, affiliateId), type: 'Affiliate', id: affiliateId, creatorId, code: `Z${person.id.slice(0, 6)}`, name, email: person.email });
    await put({ ...affiliateKeys.email(creatorId, person.email), ...affiliateKeys.byEmail(person.email, creatorId), type: 'AffiliateEmail', affiliateId, creatorId });
    const ledId = `erase-led-${person.id}`;
    await put({ ...licenseKeys.license(ledId), ...licenseKeys.byLeader({ leaderId: person.id, createdAt: at, id: ledId }), type: 'License', id: ledId, leaderId: person.id, leaderEmail: person.email, seatsTotal: 3, seatsUsed: 0, status: 'active' });
    // A course they bought that was refunded at once (no enrolment ever held it), with the order module's buyer index.
    const refundedOrder = `erase-refunded-${person.id}`;
    const orders = dynamoOrders();
    await orders.create(pendingOrder({ id: refundedOrder, creatorId, courseId, courseTitle: 'Bread for beginners' }));
    const refund = { amount: 2900, discount: 0, buyerEmail: person.email, paymentIntentId: `pi_${person.id}`, at };
    expect(await orders.markUnfulfilled({ event: { id: `evt_${refundedOrder}`, type: 'checkout.session.completed' }, orderId: refundedOrder, refunded: refund, reason: 'enrolled-already' })).toBe('applied');
    // The seeds are found (so the checks below would fail without the erasure).
    expect((await itemsMentioning(person.email)).length).toBeGreaterThanOrEqual(10);
    expect((await itemsMentioning(name)).length).toBeGreaterThanOrEqual(4);
    expect(await filesBucketHolds(submissionFileKey(upload))).toBe(true);

    expect((await api('DELETE', '/api/me', { token: person.token, body: { confirm: 'DELETE' } })).status).toBe(202);
    await eventually(() => item(deletionKeys.deletion(person.id)), (d) => d?.['step'] === 'done', 60_000);

    // The whole table: the email only in the suppression and the audit line; the name nowhere.
    const left = await itemsMentioning(person.email);
    expect(left.map((it) => String(it['pk']).split('#')[0]).sort()).toEqual(['AUDIT', 'SUPPRESS']);
    expect(await itemsMentioning(name)).toEqual([]);
    expect(await filesBucketHolds(submissionFileKey(upload))).toBe(false);
    // What must stay stays, without them: the seat freed, the subscription, the affiliate and the led licence kept.
    const pseudonym = emailPseudonym(person.email);
    expect(await item(licenseKeys.license(licenseId))).toMatchObject({ seatsUsed: 1, seatsTotal: 5 });
    expect(await item(member)).toMatchObject({ email: pseudonym, status: 'active' });
    expect(await item(affiliateKeys.affiliate(creatorId, affiliateId))).toMatchObject({ email: pseudonym, name: 'Deleted user' });
    expect(await item(licenseKeys.license(ledId))).toMatchObject({ leaderEmail: pseudonym, seatsTotal: 3 });
    expect(await item(billingKeys.customerUser(`cus_${person.id}`))).toBeUndefined();
    const kept = await item(orderKeys.order(refundedOrder));
    expect(kept).toMatchObject({ status: 'refunded', amount: 2900, buyerEmail: pseudonym });
    expect(kept).not.toHaveProperty('gsi2pk');
  }, 120_000);

  it('erases what a course kept about a person who left it (removed by its creator): their submission and its file, quiz attempt, comment and the CRM note', async () => {
    const person = await accountWithRole('learner', 'erase-left');
    const name = `Ivo Left ${person.id.slice(0, 8)}`;
    expect((await api('PUT', '/api/learner/profile', { token: person.token, body: { certificateName: name } })).status).toBe(200);
    const enrolled = await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: person.email } });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    // While in the course: a quiz attempt, a comment (under their name), an assignment handed in with a photo (the
    // bytes PUT straight to S3, as the browser does), and the creator's note about them.
    expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${quizLessonId}/attempts`, { token: person.token, body: { answers: [[0]] } })).status).toBe(200);
    expect((await api('POST', `/api/courses/${courseId}/lessons/${textLessonId}/comments`, { token: person.token, body: { body: 'Rye or wheat?' } })).status).toBe(201);
    const assignment = await api('POST', `/api/courses/${courseId}/lessons`, {
      token: creator.token,
      body: { title: 'Photograph your crumb', kind: 'assignment', assignment: { instructions: 'Upload a photo.', acceptsFiles: true } },
    });
    expect(assignment.status).toBe(201);
    const base = `/api/learner/courses/${courseId}/lessons/${assignment.body.id as string}`;
    const started = await api('POST', `${base}/submission-files`, { token: person.token, body: { name: 'crumb.png', contentType: 'image/png', size: 5 } });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect((await fetch(started.body.url as string, { method: 'PUT', body: 'crumb', headers: { 'content-type': 'image/png' } })).status).toBe(200);
    const handedIn = await api('POST', `${base}/submissions`, { token: person.token, body: { text: `${name}'s crumb`, fileIds: [started.body.file.id] } });
    expect(handedIn.status, JSON.stringify(handedIn.body)).toBe(201);
    const upload = submissionFileKey({ courseId, lessonId: assignment.body.id as string, learnerId: person.id, id: started.body.file.id as string });
    expect((await api('PUT', `/api/crm/learners/${person.id}/notes`, { token: creator.token, body: { notes: `${name} prefers rye.` } })).status).toBe(200);

    // The creator removes them from the course (the removal path every other one shares): the enrolment stays,
    // removed, among the courses they left; everything above stays with the course.
    expect((await api('DELETE', `/api/courses/${courseId}/enrollments/${person.id}`, { token: creator.token })).status).toBe(204);
    expect(await item(enrollmentKeys.enrollment(courseId, person.id))).toMatchObject({ status: 'removed', ...enrollmentKeys.left(person.id, courseId) });
    expect((await itemsMentioning(person.email)).length).toBeGreaterThanOrEqual(2);
    expect((await itemsMentioning(name)).map((it) => String(it['pk']).split('#')[0]).sort()).toEqual(expect.arrayContaining(['COMMENT', 'CREATOR', 'SUBMISSION', 'USER']));
    expect(await filesBucketHolds(upload)).toBe(true);
    const kept = [`QUIZ#${person.id}#`, `NOTE#${person.id}`, submissionKeys.submitter(courseId, person.id), handedIn.body.id as string];
    for (const key of kept) expect((await itemsMentioning(key)).length, key).toBeGreaterThan(0);

    expect((await api('DELETE', '/api/me', { token: person.token, body: { confirm: 'DELETE' } })).status).toBe(202);
    await eventually(() => item(deletionKeys.deletion(person.id)), (d) => d?.['step'] === 'done', 60_000);

    const left = await itemsMentioning(person.email);
    expect(left.map((it) => String(it['pk']).split('#')[0]).sort()).toEqual(['AUDIT', 'SUPPRESS']);
    expect(await itemsMentioning(name)).toEqual([]);
    // Their quiz attempt, the CRM's note and their partition of the course's submissions: gone, not only unnamed.
    for (const key of kept) expect(await itemsMentioning(key), key).toEqual([]);
    expect(await filesBucketHolds(upload)).toBe(false);
    expect(await item(enrollmentKeys.enrollment(courseId, person.id))).toBeUndefined();
    // The comment stays in the thread, by "Deleted user".
    const comments = await api('GET', `/api/courses/${courseId}/lessons/${textLessonId}/comments`, { token: creator.token });
    expect(JSON.stringify(comments.body)).toContain('Rye or wheat?');
    expect(JSON.stringify(comments.body)).not.toContain(name);
  }, 180_000);
});
