import { publicApiOperations } from '#contracts/public-api.ts';
import { listSales } from '#core/sales/sales.ts';
import { orderRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

const operation = publicApiOperations['v1-list-sales'];

/** GET /v1/sales?cursor=: the key's creator's sales, newest first, as the Sales page lists them. */
export const handler = httpRoute({ route: 'v1-list-sales', query: operation.query }, ({ auth, query }) =>
  listSales({ orders: orderRepository() }, { creatorId: auth.userId, cursor: query.cursor }),
);
