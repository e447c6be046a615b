import { type SaleList, salesQuery } from '#contracts/sales.ts';
import { listSales } from '#core/sales/sales.ts';
import { orderRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/sales?cursor=: the creator's sales, newest first, a page at a time. */
export const handler = httpRoute({ route: 'list-sales', query: salesQuery }, ({ auth, query }): Promise<SaleList> =>
  listSales({ orders: orderRepository() }, { creatorId: auth.userId, cursor: query.cursor }),
);
