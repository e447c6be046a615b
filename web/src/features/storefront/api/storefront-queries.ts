import { queryOptions } from '@tanstack/react-query';
import { useEffect } from 'react';
import * as z from 'zod';
import { redirectResponse } from '@contracts/billing.ts';
import { REF_COOKIE } from '@contracts/affiliates.ts';
import type { CourseCheckoutBody } from '@contracts/sales.ts';
import { publicBundle, type BundleCheckoutBody } from '@contracts/bundles.ts';
import { publicMembership, type MembershipCheckoutBody } from '@contracts/memberships.ts';
import { publicCoursePage, publicCreator } from '@contracts/storefront.ts';
import { apiClient } from '@/lib/api-client.ts';
import { publicBundlePath, publicCoursePath, publicMembershipPath, urlOf } from '@/lib/paths.ts';
import { useLeaveFor } from '@/lib/use-leave-for.ts';

/** `?purchase=success`: where Stripe sends the buyer back after paying. */
export const PURCHASE_PARAM = 'purchase';

/** GET /api/public/courses/{id}: a published course as visitors see it (404 otherwise). */
export const publicCourseQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: ['storefront', 'course', courseId] as const,
    queryFn: ({ signal }) => apiClient.get(`/api/public/courses/${encodeURIComponent(courseId)}`, publicCoursePage, { signal }),
  });

/**
 * POST /api/public/courses/{id}/views once the page shows the course: the view in its creator's funnel (counted once
 * per visitor a day by the server; the page itself is cached at CloudFront, so its GET counts nothing). Fire and
 * forget: a view that could not be recorded never troubles the visitor.
 */
export const recordCourseView = (courseId: string): Promise<void> =>
  apiClient.post(`/api/public/courses/${encodeURIComponent(courseId)}/views`, z.null()).then(
    () => undefined,
    () => undefined,
  );

/** Records the view of `courseId` once it is shown (`shown`), once per page visit. */
export const useCourseView = (courseId: string, shown: boolean): void => {
  useEffect(() => {
    if (shown) void recordCourseView(courseId);
  }, [courseId, shown]);
};

/** GET /api/public/creators/{slug}: a creator's page with their published courses. */
export const publicCreatorQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: ['storefront', 'creator', slug] as const,
    queryFn: ({ signal }) => apiClient.get(`/api/public/creators/${encodeURIComponent(slug)}`, publicCreator, { signal }),
  });

export type BuyInput = Pick<CourseCheckoutBody, 'email' | 'couponCode' | 'seats'>;

/** The `ref` cookie an affiliate's link left (first-party, same origin as the API), or undefined. */
export const referralCookie = (cookies: string = typeof document === 'undefined' ? '' : document.cookie): string | undefined => {
  const value = cookies
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${REF_COOKIE}=`))
    ?.slice(REF_COOKIE.length + 1);
  return value ? decodeURIComponent(value).slice(0, 64) : undefined;
};

/**
 * The checkout body: back to this page after paying (with a confirmation) or after cancelling, and the affiliate
 * link's `ref` when the visitor came through one (the server checks its window).
 */
export const checkoutBody = (courseId: string, input: BuyInput, ref: string | undefined = referralCookie()) => checkoutBodyFor(publicCoursePath(courseId), input, ref);

/** The checkout body of the page at `page` (a course's, a bundle's): back there after paying or cancelling, with the `ref`. */
const checkoutBodyFor = (page: string, input: BuyInput, ref: string | undefined) => ({
  successUrl: urlOf(`${page}?${PURCHASE_PARAM}=success`),
  cancelUrl: urlOf(page),
  ...(input.email ? { email: input.email } : {}),
  ...(input.couponCode ? { couponCode: input.couponCode } : {}),
  ...(input.seats ? { seats: input.seats } : {}),
  ...(ref ? { ref } : {}),
});

/**
 * 'Buy now': POST /api/public/courses/{id}/checkout (one Idempotency-Key per click), then Stripe's hosted checkout
 * on the creator's account. The failure goes to `onError` for the page to say where it belongs (the coupon field...).
 */
export function useBuyCourse(courseId: string, onError: (error: Error) => void) {
  return useLeaveFor<BuyInput>({
    request: (input, idempotencyKey) =>
      apiClient.post(`/api/public/courses/${encodeURIComponent(courseId)}/checkout`, redirectResponse, {
        body: checkoutBody(courseId, input),
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
    onError,
  });
}

/** GET /api/public/bundles/{id}: an active bundle of published courses as visitors see it, with its seller (404 otherwise). */
export const publicBundleQueryOptions = (bundleId: string) =>
  queryOptions({
    queryKey: ['storefront', 'bundle', bundleId] as const,
    queryFn: ({ signal }) => apiClient.get(`/api/public/bundles/${encodeURIComponent(bundleId)}`, publicBundle, { signal }),
  });

export type BundleBuyInput = Pick<BundleCheckoutBody, 'email' | 'couponCode'>;

/** A bundle's checkout body: as a course's (back to its page, the affiliate's `ref`), without seats. */
export const checkoutBodyOfBundle = (bundleId: string, input: BundleBuyInput, ref: string | undefined = referralCookie()): BundleCheckoutBody =>
  checkoutBodyFor(publicBundlePath(bundleId), input, ref);

/** 'Buy now' on a bundle's page: POST /api/public/bundles/{id}/checkout (one Idempotency-Key per click), then Stripe's page. */
export function useBuyBundle(bundleId: string, onError: (error: Error) => void) {
  return useLeaveFor<BundleBuyInput>({
    request: (input, idempotencyKey) =>
      apiClient.post(`/api/public/bundles/${encodeURIComponent(bundleId)}/checkout`, redirectResponse, {
        body: checkoutBodyOfBundle(bundleId, input),
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
    onError,
  });
}

/** GET /api/public/memberships/{id}: an active membership, its courses now and its seller (404 otherwise). */
export const publicMembershipQueryOptions = (membershipId: string) =>
  queryOptions({
    queryKey: ['storefront', 'membership', membershipId] as const,
    queryFn: ({ signal }) => apiClient.get(`/api/public/memberships/${encodeURIComponent(membershipId)}`, publicMembership, { signal }),
  });

/** A membership's checkout body: back to its page after subscribing (with a confirmation) or cancelling; no coupon or `ref`. */
export const checkoutBodyOfMembership = (membershipId: string, email: string): MembershipCheckoutBody => {
  const page = publicMembershipPath(membershipId);
  return { successUrl: urlOf(`${page}?${PURCHASE_PARAM}=success`), cancelUrl: urlOf(page), email };
};

/** 'Subscribe' on a membership's page: POST /api/public/memberships/{id}/checkout (one Idempotency-Key per click), then Stripe's page in subscription mode. */
export function useSubscribeToMembership(membershipId: string, onError: (error: Error) => void) {
  return useLeaveFor<{ email: string }>({
    request: (input, idempotencyKey) =>
      apiClient.post(`/api/public/memberships/${encodeURIComponent(membershipId)}/checkout`, redirectResponse, {
        body: checkoutBodyOfMembership(membershipId, input.email),
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
    onError,
  });
}
