import { beforeAll, describe, expect, it } from 'vitest';
import { apiScopes, type ApiScope } from '#contracts/api-keys.ts';
import type { Role } from '#contracts/common.ts';
import { featureKeys, requiredPlan, type FeatureKey } from '#contracts/entitlements.ts';
import { routeKey, routes } from '#functions/routes.ts';
import { work as issuerWork } from '#functions/jobs/certificate-issuer.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { apiCaller, buyCourse, connectPayouts, subscribeToPlan } from '#lib/local/demo-flows.ts';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { affiliateKeys } from '#data/affiliates.ts';
import { dynamoWebhookDeliveries } from '#data/webhooks.ts';
import { accountWithRole, api, dynamo, outputs, uniqueEmail, useLocalCloudEnv } from './support.ts';

/**
 * THE EXPECTED ACCESS, written by hand (never derived from functions/routes.ts, which it checks): one row per route.
 *   method  path  admitted  owner  [feature]
 * `admitted`: `public`, or the roles let through (comma-separated); anyone else gets 403, no token 401; or
 * `key:<scope>` (the public API at /v1, issue 31): an API key with that scope, and no Cognito token of any role (401);
 * keys, scopes, plans and other creators' ids are test/integration/public-api.test.ts's.
 * `feature` (issue 29, optional): the plan feature a creator needs (functions/contracts/entitlements.ts); a creator on
 * the plan below the lowest that includes it gets 403 PLAN_REQUIRED naming that plan. No feature: open to every plan.
 * `owner`: who owns the ids in the path. On a `creator` row another creator calling with the first creator's real ids
 * gets 404 (never the data, never a change); on a `leader` row another leader with the first leader's licence, on a
 * `learner` row a learner not enrolled in the course: 404 too. `-`: no one's ids (or none in the path).
 * A new route in functions/routes.ts fails this test until its row is added here (and a row without a route too):
 * add the row, and an `isolation` body below if it is an owned row whose route takes one.
 */
const EXPECTED = `
GET    /api/health                                                     public                        -
GET    /api/me                                                         admin,creator,leader,learner  -
GET    /api/me/subscription                                            admin,creator,leader,learner  -
GET    /api/me/credits                                                 admin,creator,leader,learner  -
POST   /api/me/exports                                                 admin,creator,leader,learner  -
GET    /api/me/exports/{exportId}                                      admin,creator,leader,learner  -
DELETE /api/me                                                         admin,creator,leader,learner  -
POST   /api/billing/checkout                                           creator                       -
POST   /api/billing/portal                                             creator                       -
POST   /api/credits/purchase                                           creator                       -  courses
POST   /api/credits/use                                                creator                       -  courses
POST   /api/landing-pages/generate                                     creator                       -  courses
GET    /api/ai/prices                                                  creator                       -
POST   /api/ai/course-outline                                          creator                       -  courses
POST   /api/ai/lesson-draft                                            creator                       -  courses
POST   /api/ai/quiz-from-lesson                                        creator                       -  courses
GET    /api/landing-page                                               creator                       -
PUT    /api/landing-page                                               creator                       -  courses
PUT    /api/landing-page/publication                                   creator                       -  courses
DELETE /api/landing-page/publication                                   creator                       -  courses
GET    /api/public/pages/{slug}                                        public                        -
GET    /api/integrations                                               creator                       -
PUT    /api/integrations                                               creator                       -  courses
POST   /api/integrations/{provider}/test                               creator                       -  courses
POST   /api/integrations/google/connect                                creator                       -  courses
GET    /api/integrations/google/callback                               public                        -
GET    /api/admin/stats                                                admin                         -
GET    /api/admin/users                                                admin                         -
POST   /api/admin/users                                                admin                         -
GET    /api/admin/courses                                              admin                         -
PATCH  /api/admin/users/{userId}                                       admin                         -
POST   /api/admin/emails                                               admin                         -
GET    /api/admin/emails                                               admin                         -
GET    /api/admin/email-templates                                      admin                         -
PUT    /api/admin/email-templates/{templateId}                         admin                         -
GET    /api/admin/email-automations                                    admin                         -
PUT    /api/admin/email-automations/{automationId}                     admin                         -
GET    /api/unsubscribe                                                public                        -
POST   /api/unsubscribe                                                public                        -
GET    /api/courses                                                    creator                       -
POST   /api/courses                                                    creator                       -  courses
GET    /api/courses/{courseId}                                         creator                       creator
PATCH  /api/courses/{courseId}                                         creator                       creator  courses
DELETE /api/courses/{courseId}                                         creator                       creator  courses
POST   /api/courses/{courseId}/lessons                                 creator                       creator  courses
GET    /api/courses/{courseId}/sessions                                creator                       creator
POST   /api/courses/{courseId}/sessions                                creator                       creator  courses
PATCH  /api/courses/{courseId}/sessions/{sessionId}                    creator                       creator  courses
DELETE /api/courses/{courseId}/sessions/{sessionId}                    creator                       creator
GET    /api/learner/sessions                                           learner                       -
GET    /api/learner/sessions/{sessionId}/calendar.ics                  learner                       learner
PATCH  /api/courses/{courseId}/lessons/{lessonId}                      creator                       creator  courses
DELETE /api/courses/{courseId}/lessons/{lessonId}                      creator                       creator  courses
PUT    /api/courses/{courseId}/lessons/order                           creator                       creator  courses
POST   /api/courses/{courseId}/lessons/{lessonId}/files                creator                       creator  courses
POST   /api/courses/{courseId}/files/{fileId}/parts                    creator                       creator  courses
GET    /api/courses/{courseId}/files/{fileId}/parts                    creator                       creator
POST   /api/courses/{courseId}/files/{fileId}/complete                 creator                       creator  courses
DELETE /api/courses/{courseId}/files/{fileId}                          creator                       creator  courses
GET    /api/courses/{courseId}/files/{fileId}/url                      creator                       creator
POST   /api/courses/{courseId}/enrollments                             creator                       creator  courses
GET    /api/courses/{courseId}/enrollments                             creator                       creator
DELETE /api/courses/{courseId}/enrollments/{learnerId}                 creator                       creator  courses
GET    /api/creator/stats                                              creator                       -
GET    /api/crm/learners                                               creator                       -
GET    /api/crm/learners/{learnerId}                                   creator                       creator
PUT    /api/crm/learners/{learnerId}/notes                             creator                       creator  courses
POST   /api/crm/learners/{learnerId}/recommendations                   creator                       creator  courses
GET    /api/learner/courses                                            learner                       -
GET    /api/learner/summary                                            learner                       -
GET    /api/learner/courses/{courseId}                                 learner                       learner
GET    /api/learner/courses/{courseId}/outline                         learner                       learner
GET    /api/learner/courses/{courseId}/lessons/{lessonId}              learner                       learner
GET    /api/learner/courses/{courseId}/files/{fileId}/url              learner                       learner
POST   /api/learner/courses/{courseId}/lessons/{lessonId}/complete     learner                       learner
GET    /api/learner/certificates                                       learner                       -
GET    /api/learner/profile                                            learner                       -
PUT    /api/learner/profile                                            learner                       -
GET    /api/courses/{courseId}/certificates                            creator                       creator
POST   /api/certificates/{certificateId}/revoke                        creator                       creator  courses
GET    /api/public/certificates/{certificateId}                        public                        -
POST   /api/public/certificates/verify                                 public                        -
GET    /api/public/certificate-status-list                             public                        -
GET    /api/public/certificate-status-list/{list}                      public                        -
GET    /api/public/issuer                                              public                        -
GET    /api/public/issuer/keys/{keyId}                                 public                        -
POST   /api/learner/courses/{courseId}/lessons/{lessonId}/attempts     learner                       learner
GET    /api/creator/public-profile                                     creator                       -
PUT    /api/creator/public-profile                                     creator                       -  courses
POST   /api/creator/public-profile/avatar                              creator                       -  courses
GET    /api/branding                                                   creator                       -
PUT    /api/branding                                                   creator                       -  branding
POST   /api/branding/logo/uploads                                      creator                       -  branding
GET    /api/public/schools/{creatorId}/logo                            public                        -
GET    /api/public/creators/{slug}                                     public                        -
GET    /api/public/courses/{courseId}                                  public                        -
POST   /api/public/courses/{courseId}/views                            public                        -
GET    /api/learner/browse                                             learner                       -
POST   /api/webhooks/stripe                                            public                        -
GET    /api/creator/payouts                                            creator                       -
POST   /api/creator/payouts/connect                                    creator                       -  sales
POST   /api/public/courses/{courseId}/checkout                         public                        -
GET    /api/sales                                                      creator                       -
POST   /api/sales/{orderId}/refund                                     creator                       creator
GET    /api/coupons                                                    creator                       -
POST   /api/coupons                                                    creator                       -  sales
PATCH  /api/coupons/{code}                                             creator                       creator  sales
DELETE /api/coupons/{code}                                             creator                       creator  sales
GET    /api/bundles                                                    creator                       -
POST   /api/bundles                                                    creator                       -  sales
PATCH  /api/bundles/{bundleId}                                         creator                       creator  sales
DELETE /api/bundles/{bundleId}                                         creator                       creator
GET    /api/public/bundles/{bundleId}                                  public                        -
POST   /api/public/bundles/{bundleId}/checkout                         public                        -
GET    /api/memberships                                                creator                       -
POST   /api/memberships                                                creator                       -  memberships
PATCH  /api/memberships/{membershipId}                                 creator                       creator  memberships
DELETE /api/memberships/{membershipId}                                 creator                       creator
GET    /api/memberships/{membershipId}/members                         creator                       creator
GET    /api/public/memberships/{membershipId}                          public                        -
POST   /api/public/memberships/{membershipId}/checkout                 public                        -
POST   /api/learner/memberships/{membershipId}/portal                  learner                       -
GET    /api/learner/memberships                                        learner                       -
GET    /api/api-keys                                                   creator                       -
POST   /api/api-keys                                                   creator                       -  api
DELETE /api/api-keys/{keyId}                                           creator                       creator
GET    /api/sequences                                                  creator                       -
POST   /api/sequences                                                  creator                       -  courses
PATCH  /api/sequences/{sequenceId}                                     creator                       creator  courses
DELETE /api/sequences/{sequenceId}                                     creator                       creator
GET    /api/sequences/{sequenceId}/stats                               creator                       creator
GET    /api/webhook-endpoints                                          creator                       -
POST   /api/webhook-endpoints                                          creator                       -  webhooks
DELETE /api/webhook-endpoints/{endpointId}                             creator                       creator
POST   /api/webhook-endpoints/{endpointId}/enable                      creator                       creator  webhooks
GET    /api/webhook-endpoints/{endpointId}/deliveries                  creator                       creator
POST   /api/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry creator                     creator
GET    /api/domains                                                    creator                       -
POST   /api/domains                                                    creator                       -  customDomains
POST   /api/domains/{hostname}/verify                                  creator                       creator  customDomains
DELETE /api/domains/{hostname}                                         creator                       creator
GET    /api/public/domains/{hostname}                                  public                        -
GET    /api/creator/analytics                                          creator                       -
GET    /api/creator/reports/courses/{courseId}                         creator                       creator  detailedReports
GET    /api/creator/exports/{kind}                                     creator                       -  detailedReports
GET    /api/affiliates                                                 creator                       -
POST   /api/affiliates                                                 creator                       -  affiliates
GET    /api/affiliates/{affiliateId}/commissions                       creator                       creator
POST   /api/affiliates/{affiliateId}/payouts                           creator                       creator
GET    /api/affiliates/{affiliateId}/payouts/{payoutId}                creator                       creator
GET    /api/public/r/{code}                                            public                        -
POST   /api/courses/{courseId}/licenses                                creator                       creator  teamLicenses
GET    /api/courses/{courseId}/licenses                                creator                       creator
PATCH  /api/courses/{courseId}/licenses/{licenseId}                    creator                       creator  teamLicenses
GET    /api/leader/licenses                                            leader                        -
GET    /api/leader/summary                                             leader                        -
GET    /api/leader/sessions                                            leader                        -
GET    /api/leader/reports                                             leader                        -
GET    /api/leader/licenses/{licenseId}/seats                          leader                        leader
POST   /api/leader/licenses/{licenseId}/seats                          leader                        leader
POST   /api/leader/licenses/{licenseId}/seats/import                   leader                        leader  bulkMembers
DELETE /api/leader/licenses/{licenseId}/seats/{email}                  leader                        leader
GET    /api/leader/settings                                            leader                        -
PUT    /api/leader/settings                                            leader                        -
POST   /api/webhooks/stripe-connect                                    public                        -
GET    /v1/openapi.json                                                public                        -
GET    /v1/courses                                                     key:courses:read              -
GET    /v1/courses/{courseId}                                          key:courses:read              -
POST   /v1/courses/{courseId}/enrollments                              key:enrollments:write         -
DELETE /v1/courses/{courseId}/enrollments/{email}                      key:enrollments:write         -
GET    /v1/learners                                                    key:learners:read             -
GET    /v1/sales                                                       key:sales:read                -
POST   /api/support/requests                                           creator                       -
GET    /api/support/requests                                           creator                       -
POST   /api/support/requests/{requestId}/replies                       creator                       creator
GET    /api/admin/support                                              admin                         -
POST   /api/admin/support/{requestId}/replies                          admin                         -
GET    /api/admin/audit                                                admin                         -
GET    /api/courses/{courseId}/lessons/{lessonId}/comments             creator,learner               learner
POST   /api/courses/{courseId}/lessons/{lessonId}/comments             creator,learner               learner
PATCH  /api/comments/{commentId}                                       creator,learner               learner
DELETE /api/comments/{commentId}                                       creator,learner               learner
POST   /api/comments/{commentId}/hide                                  creator                       creator
POST   /api/comments/{commentId}/pin                                   creator                       creator
POST   /api/comments/{commentId}/report                                learner                       learner
GET    /api/creator/questions                                          creator                       -
GET    /api/creator/discussion-emails                                  creator                       -
PUT    /api/creator/discussion-emails                                  creator                       -
POST   /api/learner/courses/{courseId}/lessons/{lessonId}/submissions  learner                       learner
GET    /api/learner/courses/{courseId}/lessons/{lessonId}/submissions  learner                       learner
GET    /api/courses/{courseId}/submissions                             creator                       creator
POST   /api/submissions/{submissionId}/grade                           creator                       creator
POST   /api/learner/courses/{courseId}/lessons/{lessonId}/submission-files  learner               learner
GET    /api/submissions/{submissionId}/files/{fileId}/url              creator,learner               creator
`;

type Owner = 'creator' | 'leader' | 'learner' | '-';
interface Row {
  key: string;
  method: string;
  path: string;
  admitted: 'public' | Role[] | { key: ApiScope };
  owner: Owner;
  feature: FeatureKey | undefined;
}

const roles: readonly Role[] = ['admin', 'creator', 'leader', 'learner'];
const rows: Row[] = EXPECTED.trim()
  .split('\n')
  .map((line) => {
    const [method = '', path = '', admitted = '', owner = '', feature, ...extra] = line.trim().split(/\s+/);
    const scope = admitted.startsWith('key:') ? admitted.slice(4) : undefined;
    const listed = admitted === 'public' ? 'public' : scope !== undefined ? { key: scope as ApiScope } : (admitted.split(',') as Role[]);
    const known = listed === 'public' || (Array.isArray(listed) ? listed.every((r) => roles.includes(r)) : (apiScopes as readonly string[]).includes(listed.key));
    if (extra.length > 0 || (feature !== undefined && !(featureKeys as readonly string[]).includes(feature)) || !/^\/(api|v1)\//.test(path) || !['-', 'creator', 'leader', 'learner'].includes(owner) || !known) {
      throw new Error(`malformed row of the expected access: "${line}"`);
    }
    return { key: `${method} ${path}`, method, path, admitted: listed, owner: owner as Owner, feature: feature as FeatureKey | undefined };
  });

type Caller = 'anonymous' | Role | 'other creator';
const callers: Caller[] = ['anonymous', 'admin', 'creator', 'other creator', 'leader', 'learner'];
const roleOf = (caller: Caller): Role | undefined => (caller === 'other creator' ? 'creator' : caller === 'anonymous' ? undefined : caller);
const concretePath = (path: string) => path.replace(/\{[^}]+\}/g, 'placeholder-id');

describe('the expected access table', () => {
  it('has one row for every route of functions/routes.ts and no other', () => {
    const table = rows.map((row) => row.key);
    const real = routes.map(routeKey);
    expect(new Set(table).size, 'a route listed twice').toBe(table.length);
    expect(real.filter((key) => !table.includes(key)), 'routes without a row of the expected access: add one').toEqual([]);
    expect(table.filter((key) => !real.includes(key)), 'rows for routes functions/routes.ts does not have').toEqual([]);
  });

  it("names each route's access as functions/routes.ts declares it", () => {
    const declared = Object.fromEntries(routes.map((r) => [routeKey(r), r.access]));
    expect(Object.fromEntries(rows.map((row) => [row.key, declared[row.key]]))).toEqual(Object.fromEntries(rows.map((row) => [row.key, row.admitted])));
  });

  it("names each route's plan feature as functions/routes.ts declares it", () => {
    const declared = Object.fromEntries(routes.map((r) => [routeKey(r), r.feature ?? '-']));
    expect(Object.fromEntries(rows.map((row) => [row.key, declared[row.key] ?? '-']))).toEqual(Object.fromEntries(rows.map((row) => [row.key, row.feature ?? '-'])));
  });
});

describe("plan features: a creator on the plan below each feature route's is refused before anything else (issue 29)", () => {
  const below: Partial<Record<'none' | 'starter', string>> = {};
  beforeAll(async () => {
    below.none = (await accountWithRole('creator', 'matrix-no-plan', { plan: 'none' })).token;
    below.starter = (await accountWithRole('creator', 'matrix-starter', { plan: 'starter' })).token;
  });

  // A leader's route's feature is the licence's creator's, checked by its use case (plans.test.ts): not a caller's plan.
  for (const row of rows.filter((r) => r.feature !== undefined && Array.isArray(r.admitted) && r.admitted.includes('creator'))) {
    const needs = requiredPlan(row.feature!);
    const plan = needs === 'starter' ? 'none' : 'starter';
    it(`${row.key} (${row.feature}) as a creator on ${plan}: 403 PLAN_REQUIRED ${needs}`, async () => {
      const res = await api(row.method, concretePath(row.path), { token: below[plan]!, ...(row.method === 'GET' || row.method === 'DELETE' ? {} : { body: {} }) });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'PLAN_REQUIRED', details: { requiredPlan: needs } });
    });
  }
});

const tokens: Partial<Record<Caller, string>> = {};

describe('authorization matrix: every route x every kind of caller, as the gateway answers', () => {
  beforeAll(async () => {
    for (const role of roles) tokens[role] = (await accountWithRole(role, `matrix-${role}`)).token;
    tokens['other creator'] = (await accountWithRole('creator', 'matrix-other-creator')).token;
  });

  for (const row of rows) {
    for (const caller of callers) {
      const role = roleOf(caller);
      // A key route takes no Cognito token: every caller here is 401 (public-api.test.ts calls them with keys).
      const expected = row.admitted === 'public' ? 'admitted' : !role || !Array.isArray(row.admitted) ? 401 : row.admitted.includes(role) ? 'admitted' : 403;
      it(`${row.key} as ${caller}: ${expected}`, async () => {
        const res = await api(row.method, concretePath(row.path), {
          ...(tokens[caller] ? { token: tokens[caller] } : {}),
          ...(row.method === 'GET' || row.method === 'DELETE' ? {} : { body: {} }),
        });
        if (expected === 'admitted') {
          // Past authorization: its answer may still be 400/404 for the placeholder ids and empty bodies used here.
          expect([401, 403]).not.toContain(res.status);
          expect(res.status).toBeLessThan(500);
        } else {
          expect(res.status).toBe(expected);
          expect(res.body.error.code).toBe(expected === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        }
      });
    }
  }
});

/**
 * A real creator's world, made through the API on the Pro plan (a priced course with a text and a quiz lesson, a file, a learner who
 * completed it and holds its certificate, a paid order, a coupon, an affiliate, a leader's licence with a member),
 * so a 404 to another caller is about ownership, not about an id that does not exist.
 */
interface World {
  ids: Record<string, string>;
  /** Tokens of the owners, and of the outsiders who call with the owners' ids. */
  outsider: Record<Exclude<Owner, '-'>, string>;
}

const makeWorld = async (): Promise<World> => {
  const call = apiCaller(outputs());
  const creator = await accountWithRole('creator', 'matrix-owner', { plan: 'none' });
  const token = creator.token;
  // Pro (affiliates are a Pro feature) and a Stripe account that takes payments, each through Stripe's pages.
  await subscribeToPlan(call, outputs(), token, 'pro');
  await connectPayouts(call, outputs(), token);
  const courseId = (await call<{ id: string }>('POST', '/api/courses', { token, body: { title: 'Owned course', description: 'Isolation.' } })).id;
  const lessonId = (await call<{ id: string }>('POST', `/api/courses/${courseId}/lessons`, { token, body: { title: 'Read', kind: 'text', body: '<p>Read.</p>' } })).id;
  const quiz = { passPercent: 100, questions: [{ prompt: 'Done?', type: 'single', options: ['Yes', 'No'], correct: [0] }] };
  const quizId = (await call<{ id: string }>('POST', `/api/courses/${courseId}/lessons`, { token, body: { title: 'Check', kind: 'quiz', quiz } })).id;
  const fileId = (
    await call<{ file: { id: string } }>('POST', `/api/courses/${courseId}/lessons/${lessonId}/files`, {
      token,
      body: { kind: 'attachment', name: 'notes.pdf', contentType: 'application/pdf', size: 1000 },
    })
  ).file.id;
  await call('PATCH', `/api/courses/${courseId}`, { token, body: { status: 'published', priceAmount: 2000 } });

  // The learner finishes the course (text lesson read, quiz passed) and the issuing job, run as the scheduler runs it,
  // gives them its certificate.
  const learner = await accountWithRole('learner', 'matrix-owned-learner');
  const learnerId = (await call<{ learnerId: string }>('POST', `/api/courses/${courseId}/enrollments`, { token, body: { email: learner.email } })).learnerId;
  await call('POST', `/api/learner/courses/${courseId}/lessons/${lessonId}/complete`, { token: learner.token, body: {} });
  await call('POST', `/api/learner/courses/${courseId}/lessons/${quizId}/attempts`, { token: learner.token, body: { answers: [[0]] } });
  let certificateId: string | undefined;
  for (let i = 0; i < 20 && !certificateId; i++) {
    useLocalCloudEnv();
    await runToEnd('certificate-issuer', issuerWork);
    certificateId = (await call<{ items: { id: string }[] }>('GET', `/api/courses/${courseId}/certificates`, { token })).items[0]?.id;
  }
  if (!certificateId) throw new Error('no certificate was issued for the owned course');

  // A bundle of the course and a second published one (issue 34).
  const otherCourseId = (await call<{ id: string }>('POST', '/api/courses', { token, body: { title: 'Bundled course', description: 'Isolation.' } })).id;
  await call('POST', `/api/courses/${otherCourseId}/lessons`, { token, body: { title: 'Read', kind: 'text', body: '<p>Read.</p>' } });
  await call('PATCH', `/api/courses/${otherCourseId}`, { token, body: { status: 'published', priceAmount: 1500 } });
  const bundleId = (await call<{ id: string }>('POST', '/api/bundles', { token, body: { title: 'Owned bundle', courseIds: [courseId, otherCourseId], priceAmount: 3000 } })).id;
  // A membership to all of the creator's courses (issue 34; the creator is on Pro).
  const membershipId = (await call<{ id: string }>('POST', '/api/memberships', { token, body: { title: 'Owned membership', interval: 'month', priceAmount: 1500, courseIds: 'all' } })).id;

  const code = `MATRIX${Date.now().toString(36).toUpperCase()}`;
  await call('POST', '/api/coupons', { token, body: { code, kind: 'percent', value: 10, courseIds: null } });
  const order = await buyCourse(call, outputs(), { creatorToken: token, courseId, email: uniqueEmail('matrix-buyer') });
  const affiliateId = (await call<{ id: string }>('POST', '/api/affiliates', { token, body: { email: uniqueEmail('matrix-affiliate'), name: 'Ali', commissionPercent: 10 } })).id;
  // A payout of the affiliate's (its record as the payout writes it; no commission needs to be approved for its id to be real).
  const payoutId = `po_matrix_${Date.now().toString(36)}`;
  await dynamo().send(new PutCommand({ TableName: outputs().TableName, Item: { ...affiliateKeys.payout(affiliateId, payoutId), type: 'Payout', payoutId, affiliateId, amount: 0, lines: 0, createdAt: new Date().toISOString(), complete: true } }));

  const leader = await accountWithRole('leader', 'matrix-owner-leader');
  const licenseId = (await call<{ id: string }>('POST', `/api/courses/${courseId}/licenses`, { token, body: { leaderEmail: leader.email, seats: 3 } })).id;
  const member = uniqueEmail('matrix-member');
  await call('POST', `/api/leader/licenses/${licenseId}/seats`, { token: leader.token, body: { email: member } });

  const requestId = (await call<{ id: string }>('POST', '/api/support/requests', { token, body: { subject: 'Owned request', body: 'Isolation.' } })).id;
  const keyId = (await call<{ id: string }>('POST', '/api/api-keys', { token, body: { name: 'Owned key', scopes: ['courses:read'] } })).id;
  const endpointId = (await call<{ id: string }>('POST', '/api/webhook-endpoints', { token, body: { url: 'http://127.0.0.1:9/owned', events: ['order.paid'] } })).id;
  const sequence = { name: 'Owned sequence', trigger: { kind: 'enrolled', courseId }, steps: [{ delayDays: 0, subject: 'Hi', body: 'Hello.' }], active: false };
  const sequenceId = (await call<{ id: string }>('POST', '/api/sequences', { token, body: sequence })).id;
  // A comment of the enrolled learner under the text lesson (issue 35 point 1).
  const commentId = (await call<{ id: string }>('POST', `/api/courses/${courseId}/lessons/${lessonId}/comments`, { token: learner.token, body: { body: 'Owned comment' } })).id;
  // The enrolled learner's submission of an assignment lesson (issue 35 point 2).
  const assignmentId = (await call<{ id: string }>('POST', `/api/courses/${courseId}/lessons`, { token, body: { title: 'Owned assignment', kind: 'assignment', assignment: { instructions: 'Write.', acceptsFiles: false } } })).id;
  const submissionId = (await call<{ id: string }>('POST', `/api/learner/courses/${courseId}/lessons/${assignmentId}/submissions`, { token: learner.token, body: { text: 'Owned work' } })).id;
  const hostname = `owned-${Date.now().toString(36)}.example.com`;
  await call('POST', '/api/domains', { token, body: { hostname } });
  // A delivery of that endpoint (already delivered: Retry now leaves it be), as the stream's reaction writes one.
  useLocalCloudEnv();
  const deliveryId = `msg_${Date.now().toString().padStart(13, '0')}owned`;
  const at = new Date().toISOString();
  await dynamoWebhookDeliveries().enqueue([{ creatorId: creator.id, endpointId, id: deliveryId, event: 'order.paid', payload: '{}', status: 'delivered', attempts: 1, lastStatusCode: 200, nextAttemptAt: null, createdAt: at }]);

  // A live session in the creator's Zoom (the stand-in's demo app), the learner enrolled above invited.
  const zoom = { enabled: true, accountId: outputs().ZoomAccountId, apiKey: outputs().ZoomClientId, apiSecret: outputs().ZoomClientSecret };
  await call('PUT', '/api/integrations', { token, body: { zoom, teams: { enabled: false, clientId: '' }, googleCalendar: { enabled: false, calendarId: '' } } });
  const startsAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
  const sessionId = (await call<{ id: string }>('POST', `/api/courses/${courseId}/sessions`, { token, body: { title: 'Owned session', startsAt, durationMinutes: 30, provider: 'zoom' } })).id;

  const outsider = {
    creator: (await accountWithRole('creator', 'matrix-outsider')).token,
    leader: (await accountWithRole('leader', 'matrix-outsider')).token,
    learner: (await accountWithRole('learner', 'matrix-outsider')).token,
  };
  return {
    ids: { courseId, lessonId, fileId, learnerId, certificateId, orderId: order.id, bundleId, membershipId, code, affiliateId, payoutId, licenseId, email: member, requestId, sessionId, keyId, endpointId, deliveryId, hostname, sequenceId, commentId, submissionId },
    outsider,
  };
};

/** A valid body for each owned route that reads one, so what answers is the ownership check, not the schema. */
const isolationBody = (key: string, ids: Record<string, string>): unknown => {
  const bodies: Record<string, unknown> = {
    'PATCH /api/courses/{courseId}': { title: 'Taken over' },
    'POST /api/courses/{courseId}/lessons': { title: 'Planted', kind: 'text', body: '<p>x</p>' },
    'PATCH /api/courses/{courseId}/lessons/{lessonId}': { title: 'Renamed' },
    'PUT /api/courses/{courseId}/lessons/order': { lessonIds: [ids['lessonId']] },
    'POST /api/courses/{courseId}/lessons/{lessonId}/files': { kind: 'attachment', name: 'x.pdf', contentType: 'application/pdf', size: 10 },
    'POST /api/courses/{courseId}/files/{fileId}/parts': { partNumbers: [1] },
    'POST /api/courses/{courseId}/files/{fileId}/complete': { parts: [{ partNumber: 1, etag: '"x"' }] },
    'POST /api/courses/{courseId}/enrollments': { email: uniqueEmail('matrix-planted') },
    'PUT /api/crm/learners/{learnerId}/notes': { notes: 'Read by another creator' },
    'POST /api/crm/learners/{learnerId}/recommendations': { recommendation: 'Sent by another creator' },
    'POST /api/certificates/{certificateId}/revoke': { reason: 'Revoked by another creator' },
    'PATCH /api/coupons/{code}': { active: false },
    'PATCH /api/bundles/{bundleId}': { title: 'Taken over' },
    'PATCH /api/memberships/{membershipId}': { title: 'Taken over' },
    'PATCH /api/sequences/{sequenceId}': { active: true },
    'POST /api/courses/{courseId}/lessons/{lessonId}/comments': { body: 'Planted' },
    'PATCH /api/comments/{commentId}': { body: 'Taken over' },
    'POST /api/learner/courses/{courseId}/lessons/{lessonId}/submissions': { text: 'Planted' },
    'POST /api/submissions/{submissionId}/grade': { status: 'passed', feedback: '' },
    'POST /api/learner/courses/{courseId}/lessons/{lessonId}/submission-files': { name: 'planted.pdf', contentType: 'application/pdf', size: 10 },
    'POST /api/courses/{courseId}/licenses': { leaderEmail: uniqueEmail('matrix-planted-leader'), seats: 2 },
    'PATCH /api/courses/{courseId}/licenses/{licenseId}': { seatsTotal: 9 },
    'POST /api/leader/licenses/{licenseId}/seats': { email: uniqueEmail('matrix-planted-member') },
    'POST /api/leader/licenses/{licenseId}/seats/import': { emails: [uniqueEmail('matrix-planted-import')] },
    'POST /api/learner/courses/{courseId}/lessons/{lessonId}/complete': {},
    'POST /api/learner/courses/{courseId}/lessons/{lessonId}/attempts': { answers: [[0]] },
    'POST /api/support/requests/{requestId}/replies': { body: 'Written by another creator' },
    'POST /api/courses/{courseId}/sessions': { title: 'Planted', startsAt: new Date(Date.now() + 86_400_000).toISOString(), durationMinutes: 30, provider: 'zoom' },
    'PATCH /api/courses/{courseId}/sessions/{sessionId}': { title: 'Taken over' },
  };
  return bodies[key];
};

describe("isolation: another owner's real ids are 404", () => {
  let world: World;
  beforeAll(async () => {
    world = await makeWorld();
  }, 120_000);

  // Read-only rows first, then changes, deletions last: a failing row cannot hide another by removing its ids.
  const order = (row: Row) => (row.method === 'GET' ? 0 : row.method === 'DELETE' ? 2 : 1);
  const owned = rows.filter((row) => row.owner !== '-').sort((a, b) => order(a) - order(b));

  it('covers every owned row with a real id for each placeholder', () => {
    for (const row of owned) for (const [, name] of row.path.matchAll(/\{([^}]+)\}/g)) expect(world.ids, `${row.key}: no real {${name}}`).toHaveProperty(name!);
  });

  for (const row of owned) {
    it(`${row.key} as another ${row.owner}: 404`, async () => {
      const path = row.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(world.ids[name]!));
      const body = isolationBody(row.key, world.ids);
      const res = await api(row.method, path, { token: world.outsider[row.owner as Exclude<Owner, '-'>], ...(body === undefined ? {} : { body }) });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    });
  }
});
