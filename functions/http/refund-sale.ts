import type { Sale } from '#contracts/sales.ts';
import { refundSale } from '#core/sales/sales.ts';
import { refundDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/sales/{orderId}/refund: the payment back from the creator's own Stripe account; the buyer's access ends. */
export const handler = httpRoute({ route: 'refund-sale' }, ({ auth, params }): Promise<Sale> =>
  refundSale(refundDeps(), { creatorId: auth.userId, orderId: params['orderId'] ?? '' }),
);
