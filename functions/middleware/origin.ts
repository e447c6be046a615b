import { createHash, timingSafeEqual } from 'node:crypto';
import { ForbiddenError, NotFoundError } from '#core/errors.ts';
import { config } from '#functions/config.ts';
import type { HandlerRoute } from '#middleware/handler-route.ts';

/**
 * The header each CloudFront distribution adds on its way to the API (an origin custom header; a viewer cannot set
 * it through CloudFront, which overwrites it). Its value is a secret generated at deployment (decision 0028).
 */
export const ORIGIN_HEADER = 'x-origin-verify';

export const NOT_THROUGH_EDGE = 'This API is reached through the app\'s address only.';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Compared as digests in constant time: the answer's timing says nothing about how much of a guess was right. */
const sameSecret = (sent: string | undefined, expected: string): boolean => sent !== undefined && timingSafeEqual(digest(sent), digest(expected));

/**
 * The first thing a request meets, before its caller, body or use case: a route of the pages origin (`origin:
 * 'pages'`) answers only the pages distribution's header, 404 otherwise (the app's `/api/public/pages/...` path
 * shows nothing); every other route answers only the app distribution's header, 403 otherwise (the API's own
 * endpoint, called directly). A value not configured is not checked (unit tests; a local cloud started without
 * LOCAL_EDGE_ONLY checks the pages one only).
 */
export const checkOrigin = (route: Pick<HandlerRoute, 'origin'>, headers: Record<string, string | undefined>): void => {
  const sent = headers[ORIGIN_HEADER];
  if (route.origin === 'pages') {
    const expected = config().PAGES_ORIGIN_SECRET;
    if (expected !== undefined && !sameSecret(sent, expected)) throw new NotFoundError();
    return;
  }
  const expected = config().ORIGIN_SECRET;
  if (expected !== undefined && !sameSecret(sent, expected)) throw new ForbiddenError(NOT_THROUGH_EDGE);
};
