import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { webhookEventLabels, webhookEventTypes } from '@contracts/webhooks.ts';
import { paths } from '@/lib/paths.ts';
import { fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
// The document the API serves, as generated (functions/http/v1 serves it from the route table's /v1 rows).
import { openApiDocument } from '../../../../../functions/core/public-api/openapi.ts';
import { isKeyAccess, routes } from '../../../../../functions/routes.ts';
import { ApiReferenceScreen } from './api-reference-screen.tsx';

afterEach(() => vi.unstubAllGlobals());

/**
 * The real Swagger UI (no stand-in, unlike api-reference-screen.test.tsx) on the generated document: OpenAPI 3.1's
 * `webhooks` are shown, each event type under its label, beside the /v1 operations.
 */
describe('ApiReferenceScreen with the generated document', () => {
  it('renders the /v1 operations and a webhook per event type', async () => {
    const document31 = JSON.parse(JSON.stringify(openApiDocument(routes.filter((r) => isKeyAccess(r.access)))));
    fakeApi({ 'GET /v1/openapi.json': () => jsonResponse(200, document31) });
    renderWithProviders(<ApiReferenceScreen />, { path: paths.apiReference });
    const reference = screen.getByTestId('api-reference');
    await waitFor(() => expect(reference).toBeVisible());
    await waitFor(() => expect(reference).toHaveTextContent('Webhooks'), { timeout: 10_000 });
    expect(reference).toHaveTextContent('/v1/sales');
    for (const type of webhookEventTypes) {
      const operation = within(reference).getByText(type, { exact: true }).closest('.opblock');
      expect(operation, type).not.toBeNull();
      expect(operation, type).toHaveTextContent(webhookEventLabels[type]);
    }
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  }, 20_000);
});
