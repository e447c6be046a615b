import { redirectResponse, type CheckoutBody, type RedirectResponse } from '@contracts/billing.ts';
import { apiClient } from '@/lib/api-client.ts';
import { IDEMPOTENCY_HEADER } from '@/lib/idempotency-key.ts';

/** POST /api/billing/checkout's body as the cards send it: the server takes the price from `planType`. */
export type CheckoutRequest = Omit<CheckoutBody, 'priceId'>;

export function createCheckout(body: CheckoutRequest, idempotencyKey: string): Promise<RedirectResponse> {
  return apiClient.post('/api/billing/checkout', redirectResponse, { body, headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });
}
