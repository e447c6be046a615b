import { redirectResponse, type CheckoutBody, type RedirectResponse } from '@contracts/billing.ts';
import { apiClient } from '@/lib/api-client.ts';

/** POST /api/billing/checkout's body as the cards send it: the server takes the price from `planType`. */
export type CheckoutRequest = Omit<CheckoutBody, 'priceId'>;

export function createCheckout(body: CheckoutRequest): Promise<RedirectResponse> {
  return apiClient.post('/api/billing/checkout', redirectResponse, { body });
}
