import type { ApiScope } from '#contracts/api-keys.ts';
import type { Role } from '#contracts/common.ts';
import type { FeatureKey } from '#contracts/entitlements.ts';
import { LANDING_BODY_LIMIT } from '#contracts/landing.ts';

/**
 * THE route table. CDK builds the HTTP API from it, the local gateway serves it, the handler middleware
 * reads each route's roles from it (by `routeKey`); test/integration/authorization-matrix.test.ts checks it against
 * the expected access written by hand there (a new route needs its row).
 * A route exists nowhere else.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a function may touch besides its table, named after what the code does rather than after IAM actions.
 * A capability brings both the IAM grant and the environment variables the function reads for it, so the two
 * cannot drift apart (see lib/constructs/app-function.ts).
 */
export type Capability =
  /** Put a user into a Cognito group (post confirmation). */
  | 'directory:add-to-group'
  /** Create users, set passwords, manage groups (admin and creator invitations). */
  | 'directory:admin'
  /** Read a user's attributes (AdminGetUser): whether a sender's email is verified (mail on their behalf). */
  | 'directory:read'
  /** Send email through SES with the platform's configuration set. */
  | 'mail'
  /** Call the Bedrock text model (Converse). */
  | 'text-model'
  /** Call Stripe's API (its API key secret and the catalogue's price ids). */
  | 'payments'
  /** Verify Stripe's webhook signatures (its signing secret and the catalogue's price ids); no API key. */
  | 'payments-webhook'
  /** Verify the Connect endpoint's webhook signatures (events on the creators' connected accounts); no API key. */
  | 'payments-connect-webhook'
  /**
   * Call Google Calendar with a creator's consent (issue 30): the platform's Google OAuth client (its id, its secret
   * read from Secrets Manager) and Google's URLs; implies 'app-links' (the consent's redirect URI). Opening the sealed
   * refresh token is 'secrets', declared beside it.
   */
  | 'google-calendar'
  /** Encrypt and decrypt integration secrets with the platform's KMS key. */
  | 'secrets'
  /** Sign certificates and status lists with the certificate KMS key (`kms:Sign`, `kms:GetPublicKey` only). */
  | 'certificate-signing'
  /** Call the live-session providers' APIs (Zoom, Microsoft Graph, Google Calendar) with a creator's credentials (issue 30). */
  | 'meetings'
  /** Build links back to the web app (emails, Stripe return URLs). */
  | 'app-links'
  /** Read, write, presign and delete course files in the private files bucket. */
  | 'files'
  /** Read course files only (courses/ in the files bucket): a person's uploads copied into their data export. */
  | 'files:read'
  /** Delete the files learners handed in with submissions (their keys only: courses/<courseId>/<lessonId>/submissions/...): a deleted account's uploads. */
  | 'files:erase-submissions'
  /** Presign uploads of the creators' pictures (avatars/ in the files bucket: avatars and school logos), check and delete them. */
  | 'avatars'
  /** Presign reads of the creators' pictures only (the public pages). */
  | 'avatars:read'
  /**
   * Send slices to job queues (decision 0032): a job's own queue, and the queues of the runs a function starts. Never
   * listed alone: a function names the queues in `queues` (which implies this), a sliced job gets its own by `queue`.
   */
  | 'job-queues'
  /**
   * Write an export (a CSV built page by page) under exports/ in the files bucket, as a multipart upload, and presign
   * its download (issue 28: no answer grows with the data). The bucket expires them after a day.
   */
  | 'exports'
  /**
   * Check and serve the creators' custom domains (issue 32, decision 0055): DNS lookups, the platform's own hostnames
   * and the CNAME target, and CloudFront's distribution tenants of the multi-tenant distribution (create, read,
   * disable, delete; their managed certificates).
   */
  | 'custom-domains';

/** A job of the engine (decision 0032): `queue: true` in `jobs` below. */
export type SlicedJobName = Extract<(typeof jobs)[number], { readonly queue: true }>['name'];

export interface RouteDef {
  /** Stable name: CDK logical ids, function names, log lines. kebab-case. */
  readonly name: string;
  readonly method: HttpMethod;
  /** API Gateway path syntax, e.g. /api/courses/{courseId}. */
  readonly path: string;
  /** Handler module, relative to functions/, without extension; it exports `handler`. */
  readonly handler: string;
  /**
   * 'public' = no token needed; a list = the Cognito groups admitted; `{key: scope}` = the public API (/v1, issue 31):
   * a creator's API key holding that scope, checked by the key authorizer (decision 0052), with the plan's `api`,
   * the key's rate limit and its revocation checked on every call by the middleware (functions/middleware/api-key.ts).
   */
  readonly access: 'public' | readonly Role[] | KeyAccess;
  /** Requests per second (steady) and burst, applied at route level on the stage. */
  readonly throttle?: { readonly rate: number; readonly burst: number };
  /** Largest accepted body in bytes (default 64 KiB). */
  readonly bodyLimit?: number;
  /**
   * 'heavy' functions (the Stripe or Bedrock SDKs, or the HTML sanitizer, which brings its parser and ~30 ms of CPU per
   * large page) get more memory (so more CPU), a longer timeout and the larger bundle budget.
   */
  readonly profile?: 'crud' | 'heavy';
  /** What the handler touches besides the table: the cloud grants exactly these (and sets their config). */
  readonly uses?: readonly Capability[];
  /**
   * A route that never touches the table says so: its function gets no table grant at all. A GET that also writes
   * (a counter) says 'read-write'; GETs are read-only otherwise.
   */
  readonly table?: 'none' | 'read-write';
  /**
   * The sliced jobs whose runs this function starts (decision 0032): it gets capability 'job-queues', `sqs:SendMessage`
   * on those jobs' queues only and their URLs in JOB_QUEUE_URLS (e.g. `queues: ['course-changed']`, then
   * `sqsSliceQueue().send([firstSlice('course-changed', run, input)])`).
   */
  readonly queues?: readonly SlicedJobName[];
  /**
   * The plan feature the route needs (functions/contracts/entitlements.ts, issue 29): a creator whose plan lacks it is
   * refused with 403 PLAN_REQUIRED before the handler runs (admins and other roles are not checked here: a use case that
   * depends on a creator's plan, such as a leader's bulk import on a Pro creator's licence, checks it itself).
   */
  readonly feature?: FeatureKey;
  /** The 403 message for a role the route does not admit, where the product words it (checkout). */
  readonly forbiddenMessage?: string;
  /**
   * A public GET that CloudFront and browsers may keep: its 200 answers carry this `Cache-Control` instead of
   * `no-store` (errors never do), and the app distribution caches its path (lib/constructs/static-site.ts).
   */
  readonly cacheControl?: string;
  /**
   * 'pages': reached only through the pages origin (its own origin header, functions/middleware/origin.ts); the app's
   * `/api/...` path answers 404. Default: the app distribution's origin header.
   */
  readonly origin?: 'pages';
  /**
   * The function describes schemas as JSON Schema (the public API's OpenAPI document): its bundle keeps zod's JSON
   * Schema generator, which every other bundle leaves out (lib/constructs/bundling.ts).
   */
  readonly jsonSchema?: true;
}

/** A /v1 route's access: an API key with this scope (decision 0052). */
export interface KeyAccess {
  readonly key: ApiScope;
}

/** Whether a route is one of the public API's, reached with an API key rather than a Cognito token. */
export const isKeyAccess = (access: RouteDef['access']): access is KeyAccess => typeof access === 'object' && !Array.isArray(access);

export const allRoles: readonly Role[] = ['admin', 'creator', 'leader', 'learner'];

export const ONLY_CREATORS_SUBSCRIBE =
  'Only creators can subscribe to paid plans. Learners and Group Leaders are invited by creators.';
export const DEFAULT_BODY_LIMIT = 64 * 1024;
export const DEFAULT_THROTTLE = { rate: 1000, burst: 2000 } as const;
/** Cache-Control of the storefront's public pages: a minute at CloudFront and in the browser, then served stale while refreshed. */
export const STOREFRONT_CACHE = 'public, max-age=60, s-maxage=60, stale-while-revalidate=300';
/** Cache-Control of the issuer profile (its keys change rarely and on purpose). */
export const ISSUER_CACHE = 'public, max-age=300, s-maxage=300, stale-while-revalidate=3600';
/** Cache-Control of the status list: a revocation reaches verifiers within about a minute. */
export const STATUS_LIST_CACHE = 'public, max-age=60, s-maxage=60';
/** Cache-Control of the public API's OpenAPI document (it changes with a deployment). */
export const OPENAPI_CACHE = 'public, max-age=300, s-maxage=300';
/** Stripe's events are small, but a subscription with many items can pass 64 KiB; Stripe's own cap is far below this. */
export const STRIPE_WEBHOOK_BODY_LIMIT = 256 * 1024;

const table = [
  { name: 'health', method: 'GET', path: '/api/health', handler: 'http/health', access: 'public', table: 'none' },
  { name: 'get-me', method: 'GET', path: '/api/me', handler: 'http/get-me', access: allRoles },
  { name: 'get-subscription', method: 'GET', path: '/api/me/subscription', handler: 'http/get-subscription', access: allRoles },
  { name: 'get-credits', method: 'GET', path: '/api/me/credits', handler: 'http/get-credits', access: allRoles },
  // "Download my data" (issue 37 point 1): a 'personal-export' run per export; the status presigns a fresh link to the ZIP
  // (capability 'exports': the presigner alone, no S3 client).
  { name: 'request-export', method: 'POST', path: '/api/me/exports', handler: 'http/request-export', access: allRoles, queues: ['personal-export'], throttle: { rate: 5, burst: 10 } },
  { name: 'personal-export-status', method: 'GET', path: '/api/me/exports/{exportId}', handler: 'http/personal-export-status', access: allRoles, uses: ['exports'] },
  // Issue 37 point 2: sign-in turned off at once (directory:admin), the rest by an 'account-deletion' run.
  { name: 'delete-me', method: 'DELETE', path: '/api/me', handler: 'http/delete-me', access: allRoles, uses: ['directory:admin'], queues: ['account-deletion'], throttle: { rate: 5, burst: 10 } },
  {
    name: 'billing-checkout',
    method: 'POST',
    path: '/api/billing/checkout',
    handler: 'http/billing-checkout',
    access: ['creator'],
    forbiddenMessage: ONLY_CREATORS_SUBSCRIBE,
    uses: ['payments'],
    profile: 'heavy',
    throttle: { rate: 20, burst: 40 },
  },
  {
    name: 'billing-portal',
    method: 'POST',
    path: '/api/billing/portal',
    handler: 'http/billing-portal',
    access: ['creator'],
    uses: ['payments'],
    profile: 'heavy',
    throttle: { rate: 20, burst: 40 },
  },
  {
    name: 'purchase-credits',
    method: 'POST',
    path: '/api/credits/purchase',
    handler: 'http/purchase-credits',
    access: ['creator'],
    feature: 'courses',
    uses: ['payments'],
    profile: 'heavy',
    throttle: { rate: 20, burst: 40 },
  },
  { name: 'use-credits', method: 'POST', path: '/api/credits/use', handler: 'http/use-credits', access: ['creator'], feature: 'courses' },
  {
    name: 'generate-landing-page',
    method: 'POST',
    path: '/api/landing-pages/generate',
    handler: 'http/generate-landing-page',
    access: ['creator'],
    feature: 'courses',
    uses: ['text-model'],
    profile: 'heavy',
    throttle: { rate: 5, burst: 10 },
  },
  { name: 'get-ai-prices', method: 'GET', path: '/api/ai/prices', handler: 'http/get-ai-prices', access: ['creator'] },
  {
    name: 'ai-course-outline',
    method: 'POST',
    path: '/api/ai/course-outline',
    handler: 'http/ai-course-outline',
    access: ['creator'],
    feature: 'courses',
    uses: ['text-model'],
    profile: 'heavy',
    throttle: { rate: 5, burst: 10 },
  },
  {
    name: 'ai-lesson-draft',
    method: 'POST',
    path: '/api/ai/lesson-draft',
    handler: 'http/ai-lesson-draft',
    access: ['creator'],
    feature: 'courses',
    uses: ['text-model'],
    profile: 'heavy',
    throttle: { rate: 5, burst: 10 },
  },
  {
    name: 'ai-quiz-from-lesson',
    method: 'POST',
    path: '/api/ai/quiz-from-lesson',
    handler: 'http/ai-quiz-from-lesson',
    access: ['creator'],
    feature: 'courses',
    uses: ['text-model'],
    profile: 'heavy',
    throttle: { rate: 5, burst: 10 },
  },
  { name: 'get-landing-page', method: 'GET', path: '/api/landing-page', handler: 'http/get-landing-page', access: ['creator'] },
  {
    name: 'save-landing-page',
    method: 'PUT',
    path: '/api/landing-page',
    handler: 'http/save-landing-page',
    access: ['creator'],
    feature: 'courses',
    bodyLimit: LANDING_BODY_LIMIT,
    profile: 'heavy',
  },
  {
    name: 'publish-landing-page',
    method: 'PUT',
    path: '/api/landing-page/publication',
    handler: 'http/publish-landing-page',
    access: ['creator'],
    feature: 'courses',
    profile: 'heavy',
  },
  {
    name: 'unpublish-landing-page',
    method: 'DELETE',
    path: '/api/landing-page/publication',
    handler: 'http/unpublish-landing-page',
    access: ['creator'],
    feature: 'courses',
  },
  {
    name: 'public-landing-page',
    method: 'GET',
    path: '/api/public/pages/{slug}',
    handler: 'http/public-landing-page',
    access: 'public',
    // Only the pages distribution reaches it (decision 0028); it caches by path, this limit is its misses.
    origin: 'pages',
    throttle: { rate: 500, burst: 1000 },
  },
  { name: 'get-integrations', method: 'GET', path: '/api/integrations', handler: 'http/get-integrations', access: ['creator'] },
  // Saving and testing check the providers for real (issue 30): their SDKs (Google's, Graph's with MSAL) and up to
  // 20 s of waiting make them 'heavy' (decision 0041).
  {
    name: 'save-integrations',
    method: 'PUT',
    path: '/api/integrations',
    handler: 'http/save-integrations',
    access: ['creator'],
    feature: 'courses',
    uses: ['secrets', 'meetings', 'google-calendar'],
    profile: 'heavy',
  },
  {
    name: 'test-integration',
    method: 'POST',
    path: '/api/integrations/{provider}/test',
    handler: 'http/test-integration',
    access: ['creator'],
    feature: 'courses',
    uses: ['secrets', 'meetings', 'google-calendar'],
    profile: 'heavy',
    throttle: { rate: 10, burst: 20 },
  },
  // Google Calendar by the creator's consent (issue 30, decision 0047): the consent screen's URL, and Google's redirect
  // back (public: the sealed state names the creator). Heavy: the Google client and its 10 s calls.
  { name: 'google-connect', method: 'POST', path: '/api/integrations/google/connect', handler: 'http/google-connect', access: ['creator'], feature: 'courses', uses: ['google-calendar', 'secrets'], profile: 'heavy' },
  { name: 'google-callback', method: 'GET', path: '/api/integrations/google/callback', handler: 'http/google-callback', access: 'public', uses: ['google-calendar', 'secrets'], profile: 'heavy', table: 'read-write', throttle: { rate: 20, burst: 40 } },
  { name: 'admin-stats', method: 'GET', path: '/api/admin/stats', handler: 'http/admin-stats', access: ['admin'] },
  { name: 'list-users', method: 'GET', path: '/api/admin/users', handler: 'http/list-users', access: ['admin'] },
  { name: 'create-user', method: 'POST', path: '/api/admin/users', handler: 'http/create-user', access: ['admin'], uses: ['directory:admin', 'mail'] },
  { name: 'admin-courses', method: 'GET', path: '/api/admin/courses', handler: 'http/admin-courses', access: ['admin'] },
  { name: 'update-user', method: 'PATCH', path: '/api/admin/users/{userId}', handler: 'http/update-user', access: ['admin'], uses: ['directory:admin'] },
  { name: 'send-campaign', method: 'POST', path: '/api/admin/emails', handler: 'http/send-campaign', access: ['admin'], queues: ['campaign-sender'] },
  { name: 'list-campaigns', method: 'GET', path: '/api/admin/emails', handler: 'http/list-campaigns', access: ['admin'] },
  { name: 'list-email-templates', method: 'GET', path: '/api/admin/email-templates', handler: 'http/list-email-templates', access: ['admin'] },
  {
    name: 'save-email-template',
    method: 'PUT',
    path: '/api/admin/email-templates/{templateId}',
    handler: 'http/save-email-template',
    access: ['admin'],
  },
  { name: 'list-email-automations', method: 'GET', path: '/api/admin/email-automations', handler: 'http/list-email-automations', access: ['admin'] },
  {
    name: 'save-email-automation',
    method: 'PUT',
    path: '/api/admin/email-automations/{automationId}',
    handler: 'http/save-email-automation',
    access: ['admin'],
  },
  /** The unsubscribe link's confirmation page (a GET never unsubscribes) and its one-click POST (RFC 8058). */
  { name: 'unsubscribe-page', method: 'GET', path: '/api/unsubscribe', handler: 'http/unsubscribe-page', access: 'public', uses: ['secrets'], throttle: { rate: 20, burst: 40 } },
  { name: 'unsubscribe', method: 'POST', path: '/api/unsubscribe', handler: 'http/unsubscribe', access: 'public', uses: ['secrets'], throttle: { rate: 20, burst: 40 } },
  { name: 'list-courses', method: 'GET', path: '/api/courses', handler: 'http/list-courses', access: ['creator'] },
  { name: 'create-course', method: 'POST', path: '/api/courses', handler: 'http/create-course', access: ['creator'], feature: 'courses' },
  { name: 'get-course', method: 'GET', path: '/api/courses/{courseId}', handler: 'http/get-course', access: ['creator'] },
  // A new title or a delete starts a 'course-changed' run (docs/decisions/0034-course-changes.md); the run removes a
  // deleted course's files, so the route needs no S3.
  { name: 'update-course', method: 'PATCH', path: '/api/courses/{courseId}', handler: 'http/update-course', access: ['creator'], feature: 'courses', queues: ['course-changed'] },
  { name: 'delete-course', method: 'DELETE', path: '/api/courses/{courseId}', handler: 'http/delete-course', access: ['creator'], feature: 'courses', queues: ['course-changed'] },
  {
    name: 'create-lesson',
    method: 'POST',
    path: '/api/courses/{courseId}/lessons',
    handler: 'http/create-lesson',
    access: ['creator'],
    feature: 'courses',
    profile: 'heavy',
    // A drip lesson starts the 'course-changed' run that plans its learners' notices (issue 33).
    queues: ['course-changed'],
  },
  {
    name: 'update-lesson',
    method: 'PATCH',
    path: '/api/courses/{courseId}/lessons/{lessonId}',
    handler: 'http/update-lesson',
    access: ['creator'],
    feature: 'courses',
    profile: 'heavy',
    uses: ['files'],
    queues: ['course-changed'],
  },
  {
    name: 'delete-lesson',
    method: 'DELETE',
    path: '/api/courses/{courseId}/lessons/{lessonId}',
    handler: 'http/delete-lesson',
    access: ['creator'],
    feature: 'courses',
    // Its files go by a 'course-changed' run (the job holds the S3 client, not this route).
    queues: ['course-changed'],
  },
  { name: 'reorder-lessons', method: 'PUT', path: '/api/courses/{courseId}/lessons/order', handler: 'http/reorder-lessons', access: ['creator'], feature: 'courses' },
  // Live sessions (issue 30): the meeting is made, changed and deleted at the creator's provider within the request
  // (its SDK and up to 20 s of waiting: 'heavy'); reads never call a provider.
  // Each saved version starts the 'session-mail' run that emails the course's learners (queues).
  { name: 'list-course-sessions', method: 'GET', path: '/api/courses/{courseId}/sessions', handler: 'http/list-course-sessions', access: ['creator'] },
  {
    name: 'schedule-session',
    method: 'POST',
    path: '/api/courses/{courseId}/sessions',
    handler: 'http/schedule-session',
    access: ['creator'],
    feature: 'courses',
    uses: ['secrets', 'meetings', 'google-calendar'],
    profile: 'heavy',
    throttle: { rate: 10, burst: 20 },
    queues: ['session-mail'],
  },
  {
    name: 'update-session',
    method: 'PATCH',
    path: '/api/courses/{courseId}/sessions/{sessionId}',
    handler: 'http/update-session',
    access: ['creator'],
    feature: 'courses',
    uses: ['secrets', 'meetings', 'google-calendar'],
    profile: 'heavy',
    throttle: { rate: 10, burst: 20 },
    queues: ['session-mail'],
  },
  {
    name: 'cancel-session',
    method: 'DELETE',
    path: '/api/courses/{courseId}/sessions/{sessionId}',
    handler: 'http/cancel-session',
    access: ['creator'],
    uses: ['secrets', 'meetings', 'google-calendar'],
    profile: 'heavy',
    throttle: { rate: 10, burst: 20 },
    queues: ['session-mail'],
  },
  {
    name: 'start-upload',
    method: 'POST',
    path: '/api/courses/{courseId}/lessons/{lessonId}/files',
    handler: 'http/start-upload',
    access: ['creator'],
    feature: 'courses',
    uses: ['files'],
  },
  {
    name: 'upload-part-urls',
    method: 'POST',
    path: '/api/courses/{courseId}/files/{fileId}/parts',
    handler: 'http/upload-part-urls',
    access: ['creator'],
    feature: 'courses',
    uses: ['files'],
  },
  {
    name: 'uploaded-parts',
    method: 'GET',
    path: '/api/courses/{courseId}/files/{fileId}/parts',
    handler: 'http/uploaded-parts',
    access: ['creator'],
    uses: ['files'],
  },
  {
    name: 'complete-upload',
    method: 'POST',
    path: '/api/courses/{courseId}/files/{fileId}/complete',
    handler: 'http/complete-upload',
    access: ['creator'],
    feature: 'courses',
    uses: ['files'],
  },
  {
    name: 'delete-file',
    method: 'DELETE',
    path: '/api/courses/{courseId}/files/{fileId}',
    handler: 'http/delete-file',
    access: ['creator'],
    feature: 'courses',
    uses: ['files'],
  },
  { name: 'file-url', method: 'GET', path: '/api/courses/{courseId}/files/{fileId}/url', handler: 'http/file-url', access: ['creator'], uses: ['files'] },
  {
    name: 'enroll-learner',
    method: 'POST',
    path: '/api/courses/{courseId}/enrollments',
    handler: 'http/enroll-learner',
    access: ['creator'],
    feature: 'courses',
    uses: ['directory:admin', 'mail', 'app-links'],
    throttle: { rate: 20, burst: 40 },
  },
  { name: 'list-course-enrollments', method: 'GET', path: '/api/courses/{courseId}/enrollments', handler: 'http/list-course-enrollments', access: ['creator'] },
  {
    name: 'remove-enrollment',
    method: 'DELETE',
    path: '/api/courses/{courseId}/enrollments/{learnerId}',
    handler: 'http/remove-enrollment',
    access: ['creator'],
    feature: 'courses',
  },
  { name: 'creator-stats', method: 'GET', path: '/api/creator/stats', handler: 'http/creator-stats', access: ['creator'] },
  { name: 'crm-learners', method: 'GET', path: '/api/crm/learners', handler: 'http/crm-learners', access: ['creator'] },
  { name: 'crm-learner', method: 'GET', path: '/api/crm/learners/{learnerId}', handler: 'http/crm-learner', access: ['creator'] },
  { name: 'save-learner-notes', method: 'PUT', path: '/api/crm/learners/{learnerId}/notes', handler: 'http/save-learner-notes', access: ['creator'], feature: 'courses' },
  {
    name: 'send-recommendation',
    method: 'POST',
    path: '/api/crm/learners/{learnerId}/recommendations',
    handler: 'http/send-recommendation',
    access: ['creator'],
    feature: 'courses',
    // The creator's email must be verified (Cognito) before the platform mails for them.
    uses: ['mail', 'app-links', 'directory:read'],
    throttle: { rate: 10, burst: 20 },
  },
  { name: 'learner-courses', method: 'GET', path: '/api/learner/courses', handler: 'http/learner-courses', access: ['learner'] },
  { name: 'learner-summary', method: 'GET', path: '/api/learner/summary', handler: 'http/learner-summary', access: ['learner'] },
  { name: 'learner-sessions', method: 'GET', path: '/api/learner/sessions', handler: 'http/learner-sessions', access: ['learner'], uses: ['mail', 'app-links'] },
  // The calendar file names the platform's sender as organiser (MAIL_FROM) and its host in the UID.
  { name: 'session-calendar', method: 'GET', path: '/api/learner/sessions/{sessionId}/calendar.ics', handler: 'http/session-calendar', access: ['learner'], uses: ['mail', 'app-links'] },
  // The player wears the creator's branding (issue 32): its logo's signed link.
  { name: 'learner-course', method: 'GET', path: '/api/learner/courses/{courseId}', handler: 'http/learner-course', access: ['learner'], uses: ['avatars:read'] },
  /** The player (issue 28 point 3): the course's outline, then its lessons one at a time. */
  {
    name: 'learner-course-outline',
    method: 'GET',
    path: '/api/learner/courses/{courseId}/outline',
    handler: 'http/learner-course-outline',
    access: ['learner'],
    uses: ['avatars:read'],
  },
  // Its first opening of a lesson is counted in the course's report (reached, started): a GET that writes once.
  { name: 'learner-lesson', method: 'GET', path: '/api/learner/courses/{courseId}/lessons/{lessonId}', handler: 'http/learner-lesson', access: ['learner'], table: 'read-write' },
  {
    name: 'learner-file-url',
    method: 'GET',
    path: '/api/learner/courses/{courseId}/files/{fileId}/url',
    handler: 'http/learner-file-url',
    access: ['learner'],
    uses: ['files'],
  },
  {
    name: 'complete-lesson',
    method: 'POST',
    path: '/api/learner/courses/{courseId}/lessons/{lessonId}/complete',
    handler: 'http/complete-lesson',
    access: ['learner'],
  },
  /** Certificates (issue 15, decision 0021): issued by the certificate-issuer job; listed, shown, checked, revoked. */
  { name: 'learner-certificates', method: 'GET', path: '/api/learner/certificates', handler: 'http/learner-certificates', access: ['learner'] },
  { name: 'learner-profile', method: 'GET', path: '/api/learner/profile', handler: 'http/learner-profile', access: ['learner'] },
  { name: 'save-learner-profile', method: 'PUT', path: '/api/learner/profile', handler: 'http/save-learner-profile', access: ['learner'] },
  { name: 'course-certificates', method: 'GET', path: '/api/courses/{courseId}/certificates', handler: 'http/course-certificates', access: ['creator'] },
  { name: 'revoke-certificate', method: 'POST', path: '/api/certificates/{certificateId}/revoke', handler: 'http/revoke-certificate', access: ['creator'], feature: 'courses' },
  // The issuing school's logo (issue 32) by a signed link: 'avatars:read'.
  { name: 'public-certificate', method: 'GET', path: '/api/public/certificates/{certificateId}', handler: 'http/public-certificate', access: 'public', uses: ['avatars:read'], throttle: { rate: 50, burst: 100 } },
  { name: 'verify-certificate', method: 'POST', path: '/api/public/certificates/verify', handler: 'http/verify-certificate', access: 'public', throttle: { rate: 20, burst: 40 } },
  // The status lists as the certificate-issuer job last signed them (no key here); the first list has no number.
  // Cached at CloudFront: these limits are its misses.
  { name: 'certificate-status-list', method: 'GET', path: '/api/public/certificate-status-list', handler: 'http/certificate-status-list', access: 'public', throttle: { rate: 50, burst: 100 }, cacheControl: STATUS_LIST_CACHE },
  { name: 'certificate-status-list-page', method: 'GET', path: '/api/public/certificate-status-list/{list}', handler: 'http/certificate-status-list-page', access: 'public', throttle: { rate: 50, burst: 100 }, cacheControl: STATUS_LIST_CACHE },
  { name: 'public-issuer', method: 'GET', path: '/api/public/issuer', handler: 'http/public-issuer', access: 'public', throttle: { rate: 50, burst: 100 }, cacheControl: ISSUER_CACHE },
  // A signing key's public JWK: the URL a credential's `kid` names.
  { name: 'public-issuer-key', method: 'GET', path: '/api/public/issuer/keys/{keyId}', handler: 'http/public-issuer-key', access: 'public', throttle: { rate: 50, burst: 100 }, cacheControl: ISSUER_CACHE },
  /** Quizzes (issue 15): an attempt graded on the server; a pass completes the lesson. */
  {
    name: 'quiz-attempt',
    method: 'POST',
    path: '/api/learner/courses/{courseId}/lessons/{lessonId}/attempts',
    handler: 'http/quiz-attempt',
    access: ['learner'],
    throttle: { rate: 20, burst: 40 },
  },
  /** The storefront (issue 12 points 2 and 7): creators' public profiles, public course and creator pages, Browse. */
  { name: 'get-public-profile', method: 'GET', path: '/api/creator/public-profile', handler: 'http/get-public-profile', access: ['creator'], uses: ['avatars:read'] },
  { name: 'save-public-profile', method: 'PUT', path: '/api/creator/public-profile', handler: 'http/save-public-profile', access: ['creator'], feature: 'courses', uses: ['avatars'] },
  {
    name: 'start-avatar-upload',
    method: 'POST',
    path: '/api/creator/public-profile/avatar',
    handler: 'http/start-avatar-upload',
    access: ['creator'],
    feature: 'courses',
    uses: ['avatars'],
    throttle: { rate: 10, burst: 20 },
  },
  /** Branding (issue 32 point 1): the school's name, colour and logo (beside the avatars in the files bucket). */
  { name: 'get-branding', method: 'GET', path: '/api/branding', handler: 'http/get-branding', access: ['creator'], uses: ['avatars:read'] },
  { name: 'save-branding', method: 'PUT', path: '/api/branding', handler: 'http/save-branding', access: ['creator'], feature: 'branding', uses: ['avatars'] },
  {
    name: 'start-logo-upload',
    method: 'POST',
    path: '/api/branding/logo/uploads',
    handler: 'http/start-logo-upload',
    access: ['creator'],
    feature: 'branding',
    uses: ['avatars'],
    throttle: { rate: 10, burst: 20 },
  },
  {
    name: 'public-school-logo',
    method: 'GET',
    path: '/api/public/schools/{creatorId}/logo',
    handler: 'http/public-school-logo',
    access: 'public',
    uses: ['avatars:read'],
    // Each opening of a branded school's email: a mailing opened by many within minutes.
    throttle: { rate: 200, burst: 400 },
  },
  {
    name: 'public-creator',
    method: 'GET',
    path: '/api/public/creators/{slug}',
    handler: 'http/public-creator',
    access: 'public',
    uses: ['avatars:read'],
    // Cached at CloudFront (a creator's launch is mostly cache hits); WAF's per-IP rules share it out fairly.
    throttle: { rate: 500, burst: 1000 },
    cacheControl: STOREFRONT_CACHE,
  },
  {
    name: 'public-course',
    method: 'GET',
    path: '/api/public/courses/{courseId}',
    handler: 'http/public-course',
    access: 'public',
    uses: ['avatars:read'],
    // Cached at CloudFront; the view is counted by record-course-view, which is not.
    throttle: { rate: 500, burst: 1000 },
    cacheControl: STOREFRONT_CACHE,
  },
  {
    name: 'record-course-view',
    method: 'POST',
    path: '/api/public/courses/{courseId}/views',
    handler: 'http/record-course-view',
    access: 'public',
    // The course page's view in the creator's sales funnel, once per visitor a day.
    table: 'read-write',
    throttle: { rate: 500, burst: 1000 },
  },
  { name: 'learner-browse', method: 'GET', path: '/api/learner/browse', handler: 'http/learner-browse', access: ['learner'] },
  {
    name: 'stripe-webhook',
    method: 'POST',
    path: '/api/webhooks/stripe',
    handler: 'webhooks/stripe',
    access: 'public',
    uses: ['payments-webhook'],
    profile: 'heavy',
    bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT,
  },
  /** Course sales on the creator's own Stripe account (docs/decisions/0016-course-sales.md). */
  { name: 'creator-payouts', method: 'GET', path: '/api/creator/payouts', handler: 'http/creator-payouts', access: ['creator'] },
  {
    name: 'connect-payouts',
    method: 'POST',
    path: '/api/creator/payouts/connect',
    handler: 'http/connect-payouts',
    access: ['creator'],
    feature: 'sales',
    uses: ['payments'],
    profile: 'heavy',
    throttle: { rate: 20, burst: 40 },
  },
  {
    name: 'course-checkout',
    method: 'POST',
    path: '/api/public/courses/{courseId}/checkout',
    handler: 'http/course-checkout',
    access: 'public',
    uses: ['payments'],
    profile: 'heavy',
    // A launch's buyers at once, within Stripe's own 100 writes a second; WAF limits each address (edge-firewall.ts).
    throttle: { rate: 50, burst: 100 },
  },
  { name: 'list-sales', method: 'GET', path: '/api/sales', handler: 'http/list-sales', access: ['creator'] },
  {
    name: 'refund-sale',
    method: 'POST',
    path: '/api/sales/{orderId}/refund',
    handler: 'http/refund-sale',
    access: ['creator'],
    uses: ['payments'],
    profile: 'heavy',
    throttle: { rate: 10, burst: 20 },
  },
  { name: 'list-coupons', method: 'GET', path: '/api/coupons', handler: 'http/list-coupons', access: ['creator'] },
  /** Bundles (issue 34): several of a creator's courses sold as one, through the course checkout and its webhook. */
  { name: 'list-bundles', method: 'GET', path: '/api/bundles', handler: 'http/list-bundles', access: ['creator'] },
  { name: 'create-bundle', method: 'POST', path: '/api/bundles', handler: 'http/create-bundle', access: ['creator'], feature: 'sales', throttle: { rate: 10, burst: 20 } },
  { name: 'update-bundle', method: 'PATCH', path: '/api/bundles/{bundleId}', handler: 'http/update-bundle', access: ['creator'], feature: 'sales', throttle: { rate: 10, burst: 20 } },
  { name: 'delete-bundle', method: 'DELETE', path: '/api/bundles/{bundleId}', handler: 'http/delete-bundle', access: ['creator'], throttle: { rate: 10, burst: 20 } },
  // Names its seller as the course page does: their picture and school logo by signed links (avatars:read).
  { name: 'public-bundle', method: 'GET', path: '/api/public/bundles/{bundleId}', handler: 'http/public-bundle', access: 'public', uses: ['avatars:read'], throttle: { rate: 500, burst: 1000 }, cacheControl: STOREFRONT_CACHE },
  {
    name: 'bundle-checkout',
    method: 'POST',
    path: '/api/public/bundles/{bundleId}/checkout',
    handler: 'http/bundle-checkout',
    access: 'public',
    uses: ['payments'],
    profile: 'heavy',
    // As a course's checkout: a launch's buyers at once, within Stripe's own 100 writes a second.
    throttle: { rate: 50, burst: 100 },
  },
  /** Memberships (issue 34): a Pro creator's subscription to their courses, on their own Stripe account. */
  { name: 'list-memberships', method: 'GET', path: '/api/memberships', handler: 'http/list-memberships', access: ['creator'] },
  { name: 'create-membership', method: 'POST', path: '/api/memberships', handler: 'http/create-membership', access: ['creator'], feature: 'memberships', throttle: { rate: 10, burst: 20 } },
  { name: 'edit-membership', method: 'PATCH', path: '/api/memberships/{membershipId}', handler: 'http/edit-membership', access: ['creator'], feature: 'memberships', throttle: { rate: 10, burst: 20 } },
  { name: 'delete-membership', method: 'DELETE', path: '/api/memberships/{membershipId}', handler: 'http/delete-membership', access: ['creator'], throttle: { rate: 10, burst: 20 } },
  { name: 'list-membership-members', method: 'GET', path: '/api/memberships/{membershipId}/members', handler: 'http/list-membership-members', access: ['creator'] },
  { name: 'get-public-membership', method: 'GET', path: '/api/public/memberships/{membershipId}', handler: 'http/get-public-membership', access: 'public', throttle: { rate: 500, burst: 1000 }, cacheControl: STOREFRONT_CACHE },
  { name: 'membership-checkout', method: 'POST', path: '/api/public/memberships/{membershipId}/checkout', handler: 'http/membership-checkout', access: 'public', uses: ['payments'], profile: 'heavy', throttle: { rate: 50, burst: 100 } },
  { name: 'membership-portal', method: 'POST', path: '/api/learner/memberships/{membershipId}/portal', handler: 'http/membership-portal', access: ['learner'], uses: ['payments'], profile: 'heavy', throttle: { rate: 10, burst: 20 } },
  { name: 'learner-memberships', method: 'GET', path: '/api/learner/memberships', handler: 'http/learner-memberships', access: ['learner'] },
  { name: 'create-coupon', method: 'POST', path: '/api/coupons', handler: 'http/create-coupon', access: ['creator'], feature: 'sales', uses: ['payments'], profile: 'heavy', throttle: { rate: 10, burst: 20 } },
  { name: 'update-coupon', method: 'PATCH', path: '/api/coupons/{code}', handler: 'http/update-coupon', access: ['creator'], feature: 'sales', uses: ['payments'], profile: 'heavy', throttle: { rate: 10, burst: 20 } },
  { name: 'delete-coupon', method: 'DELETE', path: '/api/coupons/{code}', handler: 'http/delete-coupon', access: ['creator'], feature: 'sales', uses: ['payments'], profile: 'heavy', throttle: { rate: 10, burst: 20 } },
  /**
   * API keys of the public API (issue 31, decision 0051): making one needs Pro (`api`); a creator whose plan no longer
   * has it may still list and revoke theirs.
   */
  { name: 'list-api-keys', method: 'GET', path: '/api/api-keys', handler: 'http/list-api-keys', access: ['creator'] },
  { name: 'create-api-key', method: 'POST', path: '/api/api-keys', handler: 'http/create-api-key', access: ['creator'], feature: 'api', throttle: { rate: 10, burst: 20 } },
  { name: 'revoke-api-key', method: 'DELETE', path: '/api/api-keys/{keyId}', handler: 'http/revoke-api-key', access: ['creator'] },
  /**
   * The public API (issue 31 point 2, decision 0052): a creator's integrations, with an API key (`Authorization: Bearer
   * cp_...`), over the dashboard's own use cases. Throttled at the stage as any route; each key has its own bucket too.
   */
  {
    name: 'v1-openapi',
    method: 'GET',
    path: '/v1/openapi.json',
    handler: 'http/v1/openapi',
    access: 'public',
    table: 'none',
    cacheControl: OPENAPI_CACHE,
    jsonSchema: true,
  },
  { name: 'v1-list-courses', method: 'GET', path: '/v1/courses', handler: 'http/v1/list-courses', access: { key: 'courses:read' } },
  { name: 'v1-get-course', method: 'GET', path: '/v1/courses/{courseId}', handler: 'http/v1/get-course', access: { key: 'courses:read' } },
  {
    name: 'v1-enroll-learner',
    method: 'POST',
    path: '/v1/courses/{courseId}/enrollments',
    handler: 'http/v1/enroll-learner',
    access: { key: 'enrollments:write' },
    uses: ['directory:admin', 'mail', 'app-links'],
  },
  { name: 'v1-remove-enrollment', method: 'DELETE', path: '/v1/courses/{courseId}/enrollments/{email}', handler: 'http/v1/remove-enrollment', access: { key: 'enrollments:write' } },
  { name: 'v1-list-learners', method: 'GET', path: '/v1/learners', handler: 'http/v1/list-learners', access: { key: 'learners:read' } },
  { name: 'v1-list-sales', method: 'GET', path: '/v1/sales', handler: 'http/v1/list-sales', access: { key: 'sales:read' } },
  /** Email sequences (issue 33 part 2): a creator's emails that follow a trigger; sent by the 'sequence-sender' job. */
  { name: 'list-sequences', method: 'GET', path: '/api/sequences', handler: 'http/list-sequences', access: ['creator'] },
  { name: 'create-sequence', method: 'POST', path: '/api/sequences', handler: 'http/create-sequence', access: ['creator'], feature: 'courses', throttle: { rate: 10, burst: 20 } },
  { name: 'update-sequence', method: 'PATCH', path: '/api/sequences/{sequenceId}', handler: 'http/update-sequence', access: ['creator'], feature: 'courses', throttle: { rate: 10, burst: 20 } },
  { name: 'delete-sequence', method: 'DELETE', path: '/api/sequences/{sequenceId}', handler: 'http/delete-sequence', access: ['creator'] },
  { name: 'sequence-stats', method: 'GET', path: '/api/sequences/{sequenceId}/stats', handler: 'http/sequence-stats', access: ['creator'] },
  { name: 'list-webhook-endpoints', method: 'GET', path: '/api/webhook-endpoints', handler: 'http/list-webhook-endpoints', access: ['creator'] },
  { name: 'create-webhook-endpoint', method: 'POST', path: '/api/webhook-endpoints', handler: 'http/create-webhook-endpoint', access: ['creator'], feature: 'webhooks', uses: ['secrets'], throttle: { rate: 10, burst: 20 } },
  { name: 'delete-webhook-endpoint', method: 'DELETE', path: '/api/webhook-endpoints/{endpointId}', handler: 'http/delete-webhook-endpoint', access: ['creator'] },
  { name: 'enable-webhook-endpoint', method: 'POST', path: '/api/webhook-endpoints/{endpointId}/enable', handler: 'http/enable-webhook-endpoint', access: ['creator'], feature: 'webhooks' },
  { name: 'list-webhook-deliveries', method: 'GET', path: '/api/webhook-endpoints/{endpointId}/deliveries', handler: 'http/list-webhook-deliveries', access: ['creator'] },
  {
    name: 'retry-webhook-delivery',
    method: 'POST',
    path: '/api/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry',
    handler: 'http/retry-webhook-delivery',
    access: ['creator'],
    // Opens the endpoint's secret and makes the (10 s at most) signed call itself (its outcome may disable the endpoint and queue the creator's notice, linking to the app).
    uses: ['secrets', 'app-links'],
    profile: 'heavy',
    throttle: { rate: 5, burst: 10 },
  },
  /** Custom domains (issue 32 point 2, Pro; docs/decisions/0055-custom-domains.md). Verify and delete call DNS and the edge: 'heavy' (adapters/client-policy.ts `edge`). */
  { name: 'list-domains', method: 'GET', path: '/api/domains', handler: 'http/list-domains', access: ['creator'], uses: ['custom-domains'] },
  { name: 'add-domain', method: 'POST', path: '/api/domains', handler: 'http/add-domain', access: ['creator'], feature: 'customDomains', uses: ['custom-domains'], throttle: { rate: 10, burst: 20 } },
  { name: 'verify-domain', method: 'POST', path: '/api/domains/{hostname}/verify', handler: 'http/verify-domain', access: ['creator'], feature: 'customDomains', uses: ['custom-domains'], profile: 'heavy', throttle: { rate: 10, burst: 20 } },
  { name: 'delete-domain', method: 'DELETE', path: '/api/domains/{hostname}', handler: 'http/delete-domain', access: ['creator'], uses: ['custom-domains'], profile: 'heavy' },
  // The storefront entry's lookup of a Host (the local storefront; in AWS the tenant's requests carry the host).
  { name: 'public-domain', method: 'GET', path: '/api/public/domains/{hostname}', handler: 'http/public-domain', access: 'public', throttle: { rate: 200, burst: 400 } },
  { name: 'creator-analytics', method: 'GET', path: '/api/creator/analytics', handler: 'http/creator-analytics', access: ['creator'] },
  /** Detailed reports and exports (issue 29 point 3, Pro; docs/decisions/0045-course-reports.md). */
  {
    name: 'creator-course-report',
    method: 'GET',
    path: '/api/creator/reports/courses/{courseId}',
    handler: 'http/creator-course-report',
    access: ['creator'],
    feature: 'detailedReports',
  },
  // 'heavy' as leader-reports: every row read a page at a time and written to S3 (the S3 client is over the CRUD budget).
  {
    name: 'creator-export',
    method: 'GET',
    path: '/api/creator/exports/{kind}',
    handler: 'http/creator-export',
    access: ['creator'],
    feature: 'detailedReports',
    uses: ['exports'],
    profile: 'heavy',
    throttle: { rate: 10, burst: 20 },
  },
  /** Affiliates (issue 13, decision 0018): the creator's affiliates, their commissions and payouts, and the public link. */
  { name: 'list-affiliates', method: 'GET', path: '/api/affiliates', handler: 'http/list-affiliates', access: ['creator'], uses: ['app-links'] },
  {
    name: 'create-affiliate',
    method: 'POST',
    path: '/api/affiliates',
    handler: 'http/create-affiliate',
    access: ['creator'],
    feature: 'affiliates',
    // The new affiliate is emailed their link (from a creator whose email is verified: Cognito).
    uses: ['mail', 'app-links', 'directory:read'],
    throttle: { rate: 10, burst: 20 },
  },
  { name: 'affiliate-commissions', method: 'GET', path: '/api/affiliates/{affiliateId}/commissions', handler: 'http/affiliate-commissions', access: ['creator'] },
  // No plan: paying commissions already approved is money owed (as refunds), whatever the creator's plan now.
  { name: 'affiliate-payout', method: 'POST', path: '/api/affiliates/{affiliateId}/payouts', handler: 'http/affiliate-payout', access: ['creator'], throttle: { rate: 10, burst: 20 } },
  // 'heavy' as leader-reports: the payout's lines are read a page at a time and written to S3 (the S3 client is over
  // the CRUD bundle budget, and a payout of many thousand lines needs more than 10 s).
  {
    name: 'affiliate-payout-export',
    method: 'GET',
    path: '/api/affiliates/{affiliateId}/payouts/{payoutId}',
    handler: 'http/affiliate-payout-export',
    access: ['creator'],
    uses: ['exports'],
    profile: 'heavy',
    throttle: { rate: 10, burst: 20 },
  },
  {
    name: 'referral-link',
    method: 'GET',
    path: '/api/public/r/{code}',
    handler: 'http/referral-link',
    access: 'public',
    // Keeps the click and counts it (once per visitor a day).
    table: 'read-write',
    uses: ['app-links'],
    // An affiliate's mailing: every reader clicks within minutes.
    throttle: { rate: 300, burst: 600 },
  },
  /** Team licences (issue 14, decision 0019): the creator's grants, the leader's licences and seats. */
  {
    name: 'grant-license',
    method: 'POST',
    path: '/api/courses/{courseId}/licenses',
    handler: 'http/grant-license',
    access: ['creator'],
    feature: 'teamLicenses',
    // A new leader's account is made and invited.
    uses: ['directory:admin', 'mail', 'app-links'],
    throttle: { rate: 10, burst: 20 },
  },
  { name: 'course-licenses', method: 'GET', path: '/api/courses/{courseId}/licenses', handler: 'http/course-licenses', access: ['creator'] },
  { name: 'update-license', method: 'PATCH', path: '/api/courses/{courseId}/licenses/{licenseId}', handler: 'http/update-license', access: ['creator'], feature: 'teamLicenses' },
  { name: 'leader-licenses', method: 'GET', path: '/api/leader/licenses', handler: 'http/leader-licenses', access: ['leader'] },
  { name: 'leader-summary', method: 'GET', path: '/api/leader/summary', handler: 'http/leader-summary', access: ['leader'], uses: ['app-links'] },
  // Live sessions (issue 30): the upcoming sessions of the licensed courses, as their learners see them.
  { name: 'leader-sessions', method: 'GET', path: '/api/leader/sessions', handler: 'http/leader-sessions', access: ['leader'] },
  // 'heavy': the CSV export reads every member a page at a time and writes them to S3 (the S3 client is over the CRUD
  // bundle budget, and a 50,000-row team needs more than 10 s).
  { name: 'leader-reports', method: 'GET', path: '/api/leader/reports', handler: 'http/leader-reports', access: ['leader'], uses: ['app-links', 'exports'], profile: 'heavy' },
  { name: 'license-members', method: 'GET', path: '/api/leader/licenses/{licenseId}/seats', handler: 'http/license-members', access: ['leader'], uses: ['app-links'] },
  {
    name: 'assign-seat',
    method: 'POST',
    path: '/api/leader/licenses/{licenseId}/seats',
    handler: 'http/assign-seat',
    access: ['leader'],
    // A new learner's account is made and invited.
    uses: ['directory:admin', 'mail', 'app-links'],
    throttle: { rate: 50, burst: 100 },
  },
  {
    name: 'import-members',
    method: 'POST',
    path: '/api/leader/licenses/{licenseId}/seats/import',
    handler: 'http/import-members',
    access: ['leader'],
    // Pro creators' licences only: the use case checks the licence's creator's plan (a leader has none of their own).
    feature: 'bulkMembers',
    // New learners' accounts are made and invited, as for one seat.
    uses: ['directory:admin', 'mail', 'app-links'],
    throttle: { rate: 10, burst: 20 },
  },
  { name: 'revoke-seat', method: 'DELETE', path: '/api/leader/licenses/{licenseId}/seats/{email}', handler: 'http/revoke-seat', access: ['leader'] },
  { name: 'leader-settings', method: 'GET', path: '/api/leader/settings', handler: 'http/leader-settings', access: ['leader'] },
  { name: 'save-leader-settings', method: 'PUT', path: '/api/leader/settings', handler: 'http/save-leader-settings', access: ['leader'] },
  {
    name: 'stripe-connect-webhook',
    method: 'POST',
    path: '/api/webhooks/stripe-connect',
    handler: 'webhooks/stripe-connect',
    access: 'public',
    // A paid order enrols its buyer; a new email's account and invitation, a receipt, are queued for the mail sender,
    // whose run it starts at once (queues); one it cannot fulfil is refunded with the platform's key (payments).
    uses: ['payments-connect-webhook', 'payments', 'directory:admin', 'mail', 'app-links'],
    queues: ['mail-sender'],
    profile: 'heavy',
    bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT,
  },
  /**
   * Support (issue 29 point 4): every creator may ask (a Pro creator's request is `priority`, read from their plan, so no
   * `feature` here); admins answer from the inbox and the creator is emailed the reply.
   */
  {
    name: 'create-support-request',
    method: 'POST',
    path: '/api/support/requests',
    handler: 'http/create-support-request',
    access: ['creator'],
    // Per creator, the day's cap is the use case's (SUPPORT_REQUESTS_PER_DAY); this is the route's whole.
    throttle: { rate: 20, burst: 40 },
  },
  { name: 'list-support-requests', method: 'GET', path: '/api/support/requests', handler: 'http/list-support-requests', access: ['creator'] },
  // The creator adds to their own open request (`from: "you"` in the thread); no email (the inbox shows it).
  {
    name: 'follow-up-support-request',
    method: 'POST',
    path: '/api/support/requests/{requestId}/replies',
    handler: 'http/follow-up-support-request',
    access: ['creator'],
    throttle: { rate: 20, burst: 40 },
  },
  { name: 'admin-support', method: 'GET', path: '/api/admin/support', handler: 'http/admin-support', access: ['admin'] },
  {
    name: 'reply-support-request',
    method: 'POST',
    path: '/api/admin/support/{requestId}/replies',
    handler: 'http/reply-support-request',
    access: ['admin'],
    uses: ['mail', 'app-links'],
  },
  /** The admin audit log (issue 37 point 3): read only; no route changes or deletes a line (the TTL does, after 400 days). */
  { name: 'admin-audit', method: 'GET', path: '/api/admin/audit', handler: 'http/admin-audit', access: ['admin'] },
  /**
   * Lesson discussions (issue 35 point 1): the course's creator and the learners it is open to (core/comments decides;
   * anyone else 404). Writing renders the comment with the sanitizer (heavy); a learner's minute cap is the use case's
   * (COMMENTS_PER_MINUTE), the throttle the route's whole.
   */
  { name: 'list-comments', method: 'GET', path: '/api/courses/{courseId}/lessons/{lessonId}/comments', handler: 'http/list-comments', access: ['creator', 'learner'] },
  {
    name: 'create-comment',
    method: 'POST',
    path: '/api/courses/{courseId}/lessons/{lessonId}/comments',
    handler: 'http/create-comment',
    access: ['creator', 'learner'],
    profile: 'heavy',
    throttle: { rate: 20, burst: 40 },
  },
  { name: 'edit-comment', method: 'PATCH', path: '/api/comments/{commentId}', handler: 'http/edit-comment', access: ['creator', 'learner'], profile: 'heavy', throttle: { rate: 20, burst: 40 } },
  { name: 'delete-comment', method: 'DELETE', path: '/api/comments/{commentId}', handler: 'http/delete-comment', access: ['creator', 'learner'] },
  { name: 'hide-comment', method: 'POST', path: '/api/comments/{commentId}/hide', handler: 'http/hide-comment', access: ['creator'] },
  { name: 'pin-comment', method: 'POST', path: '/api/comments/{commentId}/pin', handler: 'http/pin-comment', access: ['creator'] },
  { name: 'report-comment', method: 'POST', path: '/api/comments/{commentId}/report', handler: 'http/report-comment', access: ['learner'], uses: ['app-links'] },
  /** The creator's unanswered questions across their courses (the dashboard's card). */
  { name: 'unanswered-questions', method: 'GET', path: '/api/creator/questions', handler: 'http/unanswered-questions', access: ['creator'] },
  /** The creator's choice of discussion emails: the daily digest of their learners' comments on or off. */
  { name: 'discussion-emails', method: 'GET', path: '/api/creator/discussion-emails', handler: 'http/discussion-emails', access: ['creator'] },
  { name: 'save-discussion-emails', method: 'PUT', path: '/api/creator/discussion-emails', handler: 'http/save-discussion-emails', access: ['creator'] },
  /**
   * Assignments (issue 35 point 2): a learner hands in work on an assignment lesson they may open, the course's creator
   * lists and grades it (core/assignments decides; anyone else 404). Grading queues the learner's email in its write.
   */
  {
    name: 'submit-assignment',
    method: 'POST',
    path: '/api/learner/courses/{courseId}/lessons/{lessonId}/submissions',
    handler: 'http/submit-assignment',
    access: ['learner'],
    throttle: { rate: 20, burst: 40 },
    // HeadObject of each named file: its bytes must be in the bucket as declared.
    uses: ['files'],
  },
  { name: 'my-submission', method: 'GET', path: '/api/learner/courses/{courseId}/lessons/{lessonId}/submissions', handler: 'http/my-submission', access: ['learner'] },
  { name: 'list-submissions', method: 'GET', path: '/api/courses/{courseId}/submissions', handler: 'http/list-submissions', access: ['creator'] },
  { name: 'grade-assignment', method: 'POST', path: '/api/submissions/{submissionId}/grade', handler: 'http/grade-assignment', access: ['creator'], uses: ['app-links'] },
  // A learner's file for a submission: one presigned PUT of exactly its type and size, under their own prefix; handed-in
  // files are read only as downloads, by the course's creator and the learner who handed them in (anyone else 404).
  {
    name: 'start-submission-file',
    method: 'POST',
    path: '/api/learner/courses/{courseId}/lessons/{lessonId}/submission-files',
    handler: 'http/start-submission-file',
    access: ['learner'],
    uses: ['files'],
    throttle: { rate: 20, burst: 40 },
  },
  { name: 'submitted-file-url', method: 'GET', path: '/api/submissions/{submissionId}/files/{fileId}/url', handler: 'http/submitted-file-url', access: ['creator', 'learner'], uses: ['files'] },
] as const satisfies readonly RouteDef[];

/** Every route, as the CDK, the local gateway and the tests read them. */
export const routes: readonly RouteDef[] = table;

/** A route's stable name: what a handler names to be that route's handler. */
export type RouteName = (typeof table)[number]['name'];
/** The definition of the route called `N`, with its literal `access` (so a handler knows at compile time whether it is public). */
export type RouteNamed<N extends RouteName> = Extract<(typeof table)[number], { name: N }>;

export const routeNamed = <N extends RouteName>(name: N): RouteNamed<N> => table.find((r) => r.name === name) as RouteNamed<N>;

/** `routeKey` as API Gateway HTTP API writes it into the event: "GET /api/me". */
export const routeKey = (r: Pick<RouteDef, 'method' | 'path'>): string => `${r.method} ${r.path}`;

export const findRoute = (key: string): RouteDef | undefined => routes.find((r) => routeKey(r) === key);

/** Functions that are not HTTP routes: Cognito triggers and scheduled jobs. */
export const triggers = {
  preSignUp: { name: 'pre-sign-up', handler: 'triggers/pre-sign-up' },
  postConfirmation: { name: 'post-confirmation', handler: 'triggers/post-confirmation' },
  customMessage: { name: 'custom-message', handler: 'triggers/custom-message' },
} as const;

/** Functions started by an AWS event: SES's bounce and complaint notifications (the mail SNS topic), the table's stream. */
export const eventHandlers = {
  sesFeedback: { name: 'ses-feedback', handler: 'events/ses-feedback' },
  /**
   * The public API's key authorizer (decision 0052): API Gateway calls it for the /v1 routes (simple responses, cached
   * a minute per Authorization header); the local gateway calls the same function the same way. Reads the table only.
   */
  apiKeyAuthorizer: { name: 'api-key-authorizer', handler: 'authorizers/api-key' },
  /**
   * The table's stream (NEW_AND_OLD_IMAGES): the counters many writers move, applied a batch at a time, exactly once
   * (docs/decisions/0040-stream-aggregator.md). The local cloud polls DynamoDB Local's stream (lib/local/dynamodb/stream-poller.ts).
   */
  streamAggregator: { name: 'stream-aggregator', handler: 'streams/aggregator' },
  /**
   * The table's stream, second and last consumer (DynamoDB Streams serve two readers per shard): every reaction to a
   * change but the counters (functions/streams/reactions.ts, docs/decisions/0050-one-reactions-consumer.md). Its
   * capabilities are the union of its reactions'; `filters` are Lambda's event filter patterns (ORed, at most 5 per
   * event source) for the records any reaction wants:
   * - session invitations (issue 30 point 3): a learner whose enrolment became active is invited to the course's
   *   sessions still ahead, the emails queued for the mail sender, whose run it starts at once.
   * - order receipts (issue 28, decision 0054): a course order moved pending -> paid gets its purchase receipt, sent
   *   once (a mark per order), or queued for the mail sender when SES refuses it.
   * - webhook events (issue 31 point 4, decision 0053): an active enrolment's changes (enrolled, lessons and course
   *   completed: the first pattern), an order's status, a certificate or live session inserted; the deliveries written,
   *   then a 'webhook-deliveries' run started for their first attempts.
   * - sequence entries (issue 33 part 2): an active enrolment's changes (the first pattern: enrolled, completed, a new
   *   last activity) enter the learner in the creator's email sequences that listen; the 'sequence-sender' job sends.
   */
  reactions: {
    name: 'stream-reactions',
    handler: 'streams/reactions',
    uses: ['mail'],
    queues: ['mail-sender', 'webhook-deliveries'],
    filters: [
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { sk: { S: [{ prefix: 'ENROLL#' }] } }, NewImage: { status: { S: ['active'] } } } },
      // An order's status: its webhook events (paid, refunded, disputed) and its receipt (pending -> paid, checked by the reaction).
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { sk: { S: ['ORDER'] } }, NewImage: { status: { S: ['paid', 'refunded', 'disputed'] } } } },
      { eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: ['CERT', 'SESSION'] } } } },
    ],
  },
} as const;

/**
 * Scheduled and queued jobs. `queue: true`: a job of the engine (decision 0032, functions/jobs/sliced.ts): its schedule
 * starts a run, whose slices go through the job's own SQS FIFO queue (with a dead-letter queue) to its function; the
 * local cloud runs the same through its SQS stand-in and event source. `queues`: the other sliced jobs whose runs it
 * starts (as for routes).
 */
export const jobs = [
  {
    name: 'credit-reset',
    handler: 'jobs/credit-reset',
    /** EventBridge Scheduler expression (UTC): hourly, so a period that ends is reset within the hour. */
    schedule: 'rate(1 hour)',
    queue: true,
  },
  {
    name: 'campaign-sender',
    handler: 'jobs/campaign-sender',
    /**
     * Every minute: a campaign paused at SES's daily quota resumes within a minute of the quota's return, and one whose
     * start was lost is sent all the same; a queued campaign's run is started at once by send-campaign (decision 0033).
     * Its platform emails (queued mail, the outbox) are the mail-sender's.
     */
    schedule: 'rate(1 minute)',
    uses: ['mail', 'secrets'],
    profile: 'heavy',
    queue: true,
  },
  {
    name: 'mail-sender',
    handler: 'jobs/mail-sender',
    /**
     * Every minute: the mail queue (an email whose first send failed, or whose writer died) and the automations'
     * outbox, drained until empty on a budget of their own (decision 0033).
     */
    schedule: 'rate(1 minute)',
    queue: true,
    // The mail queue's work too (issue 28): a paid order's new buyer's account (directory:admin) and invitation. The
    // Cognito client takes its bundle past the CRUD budget (500 KB): the heavy profile's (1.2 MB), and its 30 s.
    uses: ['mail', 'secrets', 'directory:admin', 'app-links'],
    profile: 'heavy',
  },
  {
    name: 'commission-approval',
    handler: 'jobs/commission-approval',
    /** Daily: a commission is approved within a day of its hold's end. */
    schedule: 'rate(1 day)',
    queue: true,
  },
  {
    name: 'license-expiry',
    handler: 'jobs/license-expiry',
    /** Daily: a team licence stops giving access within a day of its end date. */
    schedule: 'rate(1 day)',
    queue: true,
  },
  {
    name: 'certificate-issuer',
    handler: 'jobs/certificate-issuer',
    /** Every minute: a completed course's certificate arrives within the minute. */
    schedule: 'rate(1 minute)',
    uses: ['mail', 'certificate-signing', 'app-links'],
    queue: true,
  },
  {
    name: 'leader-weekly-report',
    handler: 'jobs/leader-weekly-report',
    /** Mondays 07:00 UTC: each group leader's weekly team email, once per week (see the job). */
    schedule: 'cron(0 7 ? * MON *)',
    uses: ['mail', 'secrets', 'app-links'],
    queue: true,
  },
  {
    name: 'webhook-deliveries',
    handler: 'jobs/webhook-deliveries',
    /**
     * Every minute (issue 31 point 4, decision 0053): the webhook deliveries due (their first attempt missed, a retry's
     * time come, a claim whose worker died), each claimed, signed and POSTed (up to 10 s each, 10 at once); an endpoint
     * failing for WEBHOOK_DISABLE_AFTER_DAYS is disabled and its creator's notice queued (a link to the app).
     */
    schedule: 'rate(1 minute)',
    uses: ['secrets', 'app-links'],
    profile: 'heavy',
    queue: true,
  },
  {
    name: 'sessions-due',
    handler: 'jobs/sessions-due',
    /**
     * Every minute (issue 30 points 3 and 4): a live session's reminder run starts within the minute its hour-before
     * comes, and a change or cancellation its provider was down for or refused is tried again (1, 2, 5, 10, 30 min,
     * then hourly). The provider SDKs and up to 10 s of waiting per call: 'heavy', as the session routes. It starts
     * 'session-mail' runs (the reminders, and the invitation of a meeting made again).
     */
    schedule: 'rate(1 minute)',
    uses: ['secrets', 'meetings', 'google-calendar'],
    queues: ['session-mail'],
    profile: 'heavy',
    queue: true,
  },
  {
    name: 'drip-due',
    handler: 'jobs/drip-due',
    /**
     * Every minute (issue 33 part 1): the drip plans due (a lesson opened for a learner), each learner's "A new lesson
     * is ready" email queued exactly once with its notice, the plan moved to its next opening; the mail sender's run
     * started for what was queued.
     */
    schedule: 'rate(1 minute)',
    uses: ['mail', 'app-links'],
    queues: ['mail-sender'],
    queue: true,
  },
  {
    name: 'domains-check',
    handler: 'jobs/domains-check',
    /**
     * Every 5 minutes (issue 32 points 2 and 4, decision 0055): the custom domains whose check is due: a pending one's
     * records looked up (issuing starts when they are there), an issuing one's tenant asked (active when CloudFront
     * says so), an active one's CNAME checked again (flagged when it no longer points at the platform).
     */
    schedule: 'rate(5 minutes)',
    uses: ['custom-domains'],
    profile: 'heavy',
    queue: true,
  },
  {
    name: 'course-changed',
    handler: 'jobs/course-changed',
    /**
     * No schedule: a run is started by the course routes (a rename, a course or lesson deleted, a lesson's drip release
     * set or changed) and carried to every enrolment and licence; a deleted course's or lesson's files are removed by
     * it (capability 'files').
     */
    uses: ['files'],
    // The S3 client (to remove a deleted course's or lesson's files, which took the delete routes past their budget)
    // takes its bundle past the CRUD budget (511 KB of 500): the heavy profile's (1.2 MB), whose 30 s slices also
    // suit its backlog (a 500,000-learner course's enrolments).
    profile: 'heavy',
    queue: true,
  },
  {
    name: 'session-mail',
    handler: 'jobs/session-mail',
    /**
     * No schedule: a run is started by the session routes (each saved version's invitation, update or cancellation)
     * and by the reminders' job; it queues one email per active learner of the course (core/live-sessions/invitations.ts)
     * and starts the mail sender's run, which sends them at SES's pace.
     */
    uses: ['mail'],
    queues: ['mail-sender'],
    queue: true,
  },
  {
    name: 'sequence-sender',
    handler: 'jobs/sequence-sender',
    /**
     * Every minute (issue 33 part 2): the email sequences' steps come due (their sparse index), each queued once in the
     * mail queue with the learner's unsubscribe link for the creator (the unsubscribe key: 'secrets'), and a mail-sender
     * run started for them.
     */
    schedule: 'rate(1 minute)',
    uses: ['mail', 'secrets'],
    queues: ['mail-sender'],
    // The lessons' sanitizer, the KMS client (the unsubscribe key) and the campaigns' repository: 664 KiB, past the
    // CRUD budget (500 KiB); the heavy profile's (1.2 MB).
    profile: 'heavy',
    queue: true,
  },
  {
    name: 'discussion-mail',
    handler: 'jobs/discussion-mail',
    /**
     * Every minute (issue 35 point 1): the discussions' reply notices (replies within minutes in one email) and the
     * creators' daily digests come due (their sparse indexes), each queued once in the mail queue, a learner's with
     * the creator's unsubscribe link (the unsubscribe key: 'secrets'), and a mail-sender run started for them. In a
     * lane of its own (issue 35 point 2), the assignment uploads no submission named within a day, removed from the
     * files bucket and the table (capability 'files').
     */
    schedule: 'rate(1 minute)',
    uses: ['mail', 'secrets', 'app-links', 'files'],
    queues: ['mail-sender'],
    // The KMS client (the unsubscribe key) and the campaigns' repository, as the sequence sender: the heavy profile.
    profile: 'heavy',
    queue: true,
  },
  {
    name: 'personal-export',
    handler: 'jobs/personal-export',
    /**
     * No schedule (issue 37 point 1): a run per export, started by POST /api/me/exports. It reads every record about
     * the person by key or index, writes one ZIP to exports/personal/ as a multipart upload (capability 'exports'),
     * a part at a time across its slices with the ZIP's state saved in the export's item (decision 0062), and queues
     * the email with its 24-hour link in the transaction that marks the export ready, then starts the mail sender.
     * The person's uploaded submission files are read from courses/ ('files:read') into the ZIP's files/.
     * The S3 client takes it past the CRUD budget, as course-changed: the heavy profile, and its 30 s.
     */
    uses: ['exports', 'app-links', 'files:read'],
    queues: ['mail-sender'],
    profile: 'heavy',
    queue: true,
  },
  {
    name: 'account-deletion',
    handler: 'jobs/account-deletion',
    /**
     * No schedule: a run is started by DELETE /api/me (issue 37 point 2) and erases or pseudonymises the person's items
     * step by step (core/accounts/delete-account.ts), its progress on the deletion item; its Cognito client deletes the
     * sign-in account (directory:admin), its S3 client the files the person handed in with submissions
     * ('files:erase-submissions': DeleteObject on submissions' keys, nothing else), its Stripe client cancels the
     * plan's subscription at once and expires a checkout in progress ('payments'). The S3 client takes it past the CRUD
     * budget, as the personal export: the heavy profile.
     */
    uses: ['directory:admin', 'files:erase-submissions', 'payments'],
    profile: 'heavy',
    queue: true,
  },
] as const;
