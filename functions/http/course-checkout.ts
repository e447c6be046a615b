import type { RedirectResponse } from '#contracts/billing.ts';
import { idempotencyHeaders } from '#contracts/common.ts';
import { courseCheckoutBody } from '#contracts/sales.ts';
import { startCourseCheckout } from '#core/sales/checkout.ts';
import { courseCheckoutDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/public/courses/{courseId}/checkout (no sign-in): the hosted checkout of one place, on the creator's own Stripe account. */
export const handler = httpRoute({ route: 'course-checkout', body: courseCheckoutBody, headers: idempotencyHeaders }, ({ body, params, headers }): Promise<RedirectResponse> =>
  startCourseCheckout(courseCheckoutDeps(), { courseId: params['courseId'] ?? '', body, idempotencyKey: headers['idempotency-key'] }),
);
