import { openApiDocument } from '#core/public-api/openapi.ts';
// The one function that reads the route table's values (its /v1 rows): it describes them all.
import { isKeyAccess, routes } from '#functions/routes.ts';
import { httpRoute } from '#middleware/http-route.ts';

let document: ReturnType<typeof openApiDocument> | undefined;

/** GET /v1/openapi.json: the public API's OpenAPI 3.1 document, generated once per instance, cached 5 minutes at the edge. */
export const handler = httpRoute({ route: 'v1-openapi' }, () => (document ??= openApiDocument(routes.filter((r) => isKeyAccess(r.access)))));
