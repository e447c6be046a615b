import { GetCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORDER_REVERSAL_REASON } from '#core/certificates/access.ts';
import { orderKeys } from '#data/orders.ts';
import { payoutKeys } from '#data/payouts.ts';
import { work as issuerWork } from '#functions/jobs/certificate-issuer.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { firstSignIn, mailTo } from './mail-support.ts';
import { accountWithRole, api, dynamo, eventually, outputs, uniqueEmail, useLocalCloudEnv } from './support.ts';

/**
 * Certificates follow access (issue 27 point 2), through the real routes, the Stripe stand-in's Connect webhooks and
 * the issuing job: a learner who lost the course before the job runs (refund, creator's removal, seat revoked) gets no
 * certificate; one issued for an order later refunded or disputed is revoked with that reason.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let creator: Account;
let courseId: string;
let lessonId: string;
let accountId: string;

const issue = async () => {
  useLocalCloudEnv();
  return runToEnd('certificate-issuer', issuerWork);
};
const item = async (key: { pk: string; sk: string }) => (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: key, ConsistentRead: true }))).Item;
const stripe = () => new Stripe('sk_test_local', { telemetry: false, host: new URL(outputs().StripeApiUrl).hostname, port: Number(new URL(outputs().StripeApiUrl).port), protocol: 'http' });
type Held = { id: string; courseId: string; status: string };
const certificatesOf = async (token: string) => ((await api('GET', '/api/learner/certificates', { token })).body.items as Held[]).filter((c) => c.courseId === courseId);
const complete = async (token: string) => expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${lessonId}/complete`, { token, body: {} })).status).toBe(200);

/** A visitor buys the course on the stand-in's hosted page, signs in with the invitation's password: the order and their token. */
const buy = async () => {
  const email = uniqueEmail('cert-buyer');
  const started = await api('POST', `/api/public/courses/${courseId}/checkout`, { body: { email, successUrl: `${outputs().WebUrl}/ok`, cancelUrl: `${outputs().WebUrl}/no` } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  expect((await fetch(`${started.body.url as string}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
  const sessionId = new URL(started.body.url as string).pathname.split('/').pop()!;
  const orderId = (await stripe().checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId })).metadata?.['orderId'] as string;
  const order = (await eventually(() => item(orderKeys.order(orderId)), (o) => o?.['status'] === 'paid'))!;
  const invitation = await eventually(() => mailTo(email), (m) => m !== undefined);
  const password = /Temporary password: (\S+)/.exec(invitation?.body.text ?? '')?.[1];
  return { orderId, paymentIntentId: order['paymentIntentId'] as string, token: await firstSignIn(email, password!, 'MyOwnPassw0rd!') };
};

/** Runs the job until the learner's certificate of the course is there (the scheduler's own runs may be first). */
const issuedTo = async (token: string) => {
  for (let i = 0; i < 10; i++) {
    const [held] = await certificatesOf(token);
    if (held) return held;
    await issue();
  }
  throw new Error('no certificate was issued');
};

beforeAll(async () => {
  creator = await accountWithRole('creator', 'cert-seller');
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Knots', description: 'Tie them.' } })).body.id as string;
  lessonId = (await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Bowline', kind: 'text', body: '<p>Rabbit and tree.</p>' } })).body.id as string;
  await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published', priceAmount: 1900, seatPriceAmount: 1000 } });
  await api('POST', '/api/creator/payouts/connect', { token: creator.token, body: { returnUrl: `${outputs().WebUrl}/r`, refreshUrl: `${outputs().WebUrl}/f` } });
  accountId = (await item(payoutKeys.account(creator.id)))!['accountId'] as string;
  await fetch(`${outputs().StripeApiUrl}/_stand-in/accounts/${accountId}/ready`, { method: 'POST' });
  await eventually(() => api('GET', '/api/creator/payouts', { token: creator.token }), (r) => r.body.status === 'enabled');
});

describe('certificates follow access', () => {
  it('a sale refunded before the job runs: no valid certificate', async () => {
    const { orderId, token } = await buy();
    await complete(token);
    expect((await api('POST', `/api/sales/${orderId}/refund`, { token: creator.token })).status).toBe(200);
    await issue();
    // None (or, had the scheduler's own run come between the completion and the refund, one revoked by the refund).
    expect((await certificatesOf(token)).filter((c) => c.status === 'valid')).toEqual([]);
  });

  it('a certificate issued for a sale later refunded is revoked with that reason: its page and any verification say so', async () => {
    const { orderId, token } = await buy();
    await complete(token);
    const held = await issuedTo(token);
    expect(held.status).toBe('valid');
    expect((await api('POST', `/api/sales/${orderId}/refund`, { token: creator.token })).status).toBe(200);
    const shown = (await api('GET', `/api/public/certificates/${held.id}`)).body as { status: string; credential: string; certificate: { revocationReason: string } };
    expect(shown).toMatchObject({ status: 'revoked', certificate: { revocationReason: ORDER_REVERSAL_REASON.refunded } });
    expect((await api('POST', '/api/public/certificates/verify', { body: { credential: shown.credential } })).body).toMatchObject({ verified: true, status: 'revoked' });
    expect(await certificatesOf(token)).toEqual([expect.objectContaining({ id: held.id, status: 'revoked' })]);
  });

  it('a certificate issued for a sale later disputed on Stripe is revoked with that reason', async () => {
    const { orderId, paymentIntentId, token } = await buy();
    await complete(token);
    const held = await issuedTo(token);
    const intent = await stripe().paymentIntents.retrieve(paymentIntentId, {}, { stripeAccount: accountId });
    expect((await fetch(`${outputs().StripeApiUrl}/_stand-in/charges/${String(intent.latest_charge)}/dispute`, { method: 'POST' })).status).toBe(200);
    await eventually(() => item(orderKeys.order(orderId)), (o) => o?.['status'] === 'disputed');
    const shown = await eventually(() => api('GET', `/api/public/certificates/${held.id}`), (r) => r.body.status === 'revoked');
    expect(shown.body).toMatchObject({ status: 'revoked', certificate: { revocationReason: ORDER_REVERSAL_REASON.disputed } });
  });

  it("a learner the creator removed before the job runs gets none", async () => {
    const learner = await accountWithRole('learner', 'cert-removed');
    expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
    await complete(learner.token);
    expect((await api('DELETE', `/api/courses/${courseId}/enrollments/${learner.id}`, { token: creator.token })).status).toBeLessThan(300);
    await issue();
    expect((await certificatesOf(learner.token)).filter((c) => c.status === 'valid')).toEqual([]);
  });

  it('a learner whose seat the leader revoked before the job runs gets none', async () => {
    const leader = await accountWithRole('leader', 'cert-leader');
    const learner = await accountWithRole('learner', 'cert-seat');
    const license = (await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: leader.email, seats: 1 } })).body as { id: string };
    expect((await api('POST', `/api/leader/licenses/${license.id}/seats`, { token: leader.token, body: { email: learner.email } })).status).toBe(201);
    await complete(learner.token);
    expect((await api('DELETE', `/api/leader/licenses/${license.id}/seats/${encodeURIComponent(learner.email)}`, { token: leader.token })).status).toBeLessThan(300);
    await issue();
    expect((await certificatesOf(learner.token)).filter((c) => c.status === 'valid')).toEqual([]);
  });
});
