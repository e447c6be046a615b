import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/lib/paths.ts';
import { errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { developersMessages } from '../developers-messages.ts';
import { ApiReferenceScreen } from './api-reference-screen.tsx';

const m = developersMessages.reference;

// Swagger UI itself is not under test: a stand-in that writes the document's title where it is told to render.
const swaggerUI = vi.hoisted(() =>
  vi.fn(({ domNode, spec }: { domNode: HTMLElement; spec: { info: { title: string } } }) => {
    const heading = document.createElement('h2');
    heading.textContent = spec.info.title;
    domNode.append(heading);
  }),
);
vi.mock('swagger-ui-dist/swagger-ui-es-bundle.js', () => ({ default: swaggerUI }));
vi.mock('swagger-ui-dist/swagger-ui.css', () => ({}));

afterEach(() => {
  vi.unstubAllGlobals();
  swaggerUI.mockClear();
});

const document31 = { openapi: '3.1.0', info: { title: 'Course Platform API', version: '1' }, paths: {} };

describe('ApiReferenceScreen', () => {
  it('renders /v1/openapi.json with Swagger UI under the page title, after a loading state', async () => {
    fakeApi({ 'GET /v1/openapi.json': () => jsonResponse(200, document31) });
    renderWithProviders(<ApiReferenceScreen />, { path: paths.apiReference });
    expect(screen.getByRole('heading', { level: 1, name: m.title })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(m.loading);
    const reference = screen.getByTestId('api-reference');
    await waitFor(() => expect(reference).toBeVisible());
    expect(within(reference).getByRole('heading', { name: 'Course Platform API' })).toBeInTheDocument();
    expect(swaggerUI).toHaveBeenCalledTimes(1);
    const [options] = swaggerUI.mock.calls[0]!;
    expect(options.domNode).toBe(reference);
    expect(options.spec).toEqual(document31);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(document.title).toBe('API reference · Course Platform');
    expect(screen.getByRole('link', { name: m.back })).toHaveAttribute('href', paths.creator.developers);
  });

  it("says when the document cannot be loaded, and renders it after 'Try again'", async () => {
    let fail = true;
    fakeApi({ 'GET /v1/openapi.json': () => (fail ? errorResponse(502, 'UPSTREAM_FAILED', 'down') : jsonResponse(200, document31)) });
    const { user } = renderWithProviders(<ApiReferenceScreen />, { path: paths.apiReference });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.loadFailed);
    expect(swaggerUI).not.toHaveBeenCalled();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByTestId('api-reference')).toBeVisible());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(swaggerUI).toHaveBeenCalledTimes(1);
  });

  it('refuses an answer that is no OpenAPI document', async () => {
    fakeApi({ 'GET /v1/openapi.json': () => jsonResponse(200, { hello: 'world' }) });
    renderWithProviders(<ApiReferenceScreen />, { path: paths.apiReference });
    expect(await screen.findByRole('alert')).toHaveTextContent(m.loadFailed);
    expect(swaggerUI).not.toHaveBeenCalled();
  });
});
