import type * as z from 'zod';
import type { ApiScope } from './api-keys.ts';
import { idempotencyHeaders, pageQuery } from './common.ts';
import { course, courseList, crmLearnerList, crmLearnersQuery, enrollBody, enrollResponse } from './courses.ts';
import { saleList, salesQuery } from './sales.ts';

/**
 * The public API at /v1 (issue 31, decision 0052): each operation's schemas, read by its handler (functions/http/v1/*)
 * to parse what it receives and by the OpenAPI generator (functions/core/public-api/openapi.ts) to describe it, so the
 * document cannot drift from what the handlers accept and answer. Keyed by the route's name in functions/routes.ts
 * (a unit test fails when a /v1 route has no entry here). The answers are the dashboard's own shapes.
 */
export interface PublicApiOperation {
  readonly summary: string;
  readonly description?: string;
  readonly scope: ApiScope;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly headers?: z.ZodType;
  /** The success answer: its status and schema (none for 204). */
  readonly success: { readonly status: 200 | 201 | 204; readonly schema?: z.ZodType };
  /** Error statuses the operation may answer besides 401, 403 and 429 (which every operation may). */
  readonly errors: readonly number[];
}

export const publicApiOperations = {
  'v1-list-courses': {
    summary: 'List your courses',
    description: 'Your courses, newest first, a page at a time (`nextCursor` is the `cursor` of the next page).',
    scope: 'courses:read',
    query: pageQuery,
    success: { status: 200, schema: courseList },
    errors: [400],
  },
  'v1-get-course': {
    summary: 'Get a course',
    description: 'One of your courses with its lessons in order. Another creator\'s course is 404.',
    scope: 'courses:read',
    success: { status: 200, schema: course },
    errors: [404],
  },
  'v1-enroll-learner': {
    summary: 'Enrol a learner',
    description:
      'Enrols a learner by email, as the dashboard does: a new email gets a learner account and an invitation email. ' +
      'Send an `Idempotency-Key` to retry safely: the same key and body answer the first answer again for 24 hours ' +
      'and enrol once; the same key with another body is 409.',
    scope: 'enrollments:write',
    body: enrollBody,
    headers: idempotencyHeaders,
    success: { status: 201, schema: enrollResponse },
    errors: [400, 404, 409],
  },
  'v1-remove-enrollment': {
    summary: 'Remove a learner from a course',
    description: 'The learner loses access to the course; their progress is kept. A learner not enrolled is 404.',
    scope: 'enrollments:write',
    success: { status: 204 },
    errors: [404],
  },
  'v1-list-learners': {
    summary: 'List your learners',
    description: 'Your learners across your courses (or one course with `courseId`), a page at a time, as the CRM lists them.',
    scope: 'learners:read',
    query: crmLearnersQuery,
    success: { status: 200, schema: crmLearnerList },
    errors: [400],
  },
  'v1-list-sales': {
    summary: 'List your sales',
    description: 'Your sales, newest first, a page at a time, as the Sales page lists them.',
    scope: 'sales:read',
    query: salesQuery,
    success: { status: 200, schema: saleList },
    errors: [400],
  },
} as const satisfies Record<string, PublicApiOperation>;

export type PublicApiRouteName = keyof typeof publicApiOperations;
