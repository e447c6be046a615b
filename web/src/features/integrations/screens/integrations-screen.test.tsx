import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IntegrationsView } from '@contracts/integrations.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { callsTo, errorResponse, fakeApi, jsonResponse, planLoaded, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { spyOnToasts } from '@/test/toasts.ts';
import { integrationsMessages as m } from '../integrations-messages.ts';
import { IntegrationsScreen } from './integrations-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

const defaults: IntegrationsView = {
  zoom: { enabled: false, apiKey: '', apiSecretSet: false, accountId: '', status: 'off' },
  teams: { enabled: false, tenantId: '', clientId: '', clientSecretSet: false, organizerEmail: '', status: 'off' },
  googleCalendar: { enabled: false, calendarId: '', consented: false, status: 'off' },
  updatedAt: null,
};
const zoomConnected: IntegrationsView = {
  ...defaults,
  zoom: { enabled: true, apiKey: 'zoom-key', apiSecretSet: true, accountId: 'zoom-account', status: 'connected' },
  updatedAt: '2026-11-21T12:00:00.000Z',
};
const zoomRefused = 'Zoom refused the API Key or API Secret ("Invalid client_id or client_secret"): check the Client ID and Client Secret of your Server-to-Server OAuth app.';
const zoomError: IntegrationsView = { ...zoomConnected, zoom: { ...zoomConnected.zoom, status: 'error', error: zoomRefused } };

const status = () => within(screen.getByRole('list', { name: 'Integration status' }));
const statusOf = (service: string) => status().getByText(service).closest('li')!;
const zoomSwitch = () => screen.getByRole('switch', { name: 'Enable Zoom' });

spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

describe('IntegrationsScreen', () => {
  it('shows every service off, its fields disabled, and all Disconnected by default', async () => {
    fakeApi({ 'GET /api/integrations': () => jsonResponse(200, defaults) });
    renderWithProviders(<IntegrationsScreen />);

    expect(await screen.findByRole('switch', { name: 'Enable Zoom' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Enable Microsoft Teams' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Enable Google Calendar' })).not.toBeChecked();
    for (const label of ['Account ID', 'API Key', 'API Secret', 'Tenant ID', 'Client ID', 'Client Secret', 'Organizer email', 'Calendar ID']) {
      expect(screen.getByLabelText(label)).toBeDisabled();
      expect(screen.getByLabelText(label)).toHaveValue('');
    }
    expect(screen.getByLabelText('API Secret')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('Client Secret')).toHaveAttribute('type', 'password');
    for (const service of ['Zoom', 'Microsoft Teams', 'Google Calendar']) expect(statusOf(service)).toHaveTextContent('Disconnected');
  });

  it('offers "Connect Google Calendar" until Google was consented', async () => {
    fakeApi({ 'GET /api/integrations': () => jsonResponse(200, defaults) });
    renderWithProviders(<IntegrationsScreen />);
    expect(await screen.findByRole('button', { name: 'Connect Google Calendar' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reconnect Google Calendar' })).toBeNull();
  });

  it('offers "Reconnect Google Calendar" once Google was consented', async () => {
    const consented: IntegrationsView = { ...defaults, googleCalendar: { enabled: true, calendarId: 'primary', consented: true, status: 'connected' }, updatedAt: '2026-11-21T12:00:00.000Z' };
    fakeApi({ 'GET /api/integrations': () => jsonResponse(200, consented) });
    renderWithProviders(<IntegrationsScreen />);
    expect(await screen.findByRole('button', { name: 'Reconnect Google Calendar' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Connect Google Calendar' })).toBeNull();
  });

  it('enables a service with its switch, saves it with the secret, and toasts the spec\'s success', async () => {
    const api = fakeApi({
      'GET /api/integrations': () => jsonResponse(200, defaults),
      'PUT /api/integrations': () => jsonResponse(200, zoomConnected),
    });
    const { user } = renderWithProviders(<IntegrationsScreen />);

    await user.click(await screen.findByRole('switch', { name: 'Enable Zoom' }));
    expect(screen.getByLabelText('API Key')).toBeEnabled();
    await user.type(screen.getByLabelText('Account ID'), 'zoom-account');
    await user.type(screen.getByLabelText('API Key'), 'zoom-key');
    await user.type(screen.getByLabelText('API Secret'), 'zoom-secret');
    await user.click(screen.getByRole('button', { name: m.save }));

    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.saved.title, { description: m.saved.description }));
    expect(callsTo(api, 'PUT', '/api/integrations')[0]?.body).toEqual({
      zoom: { enabled: true, apiKey: 'zoom-key', apiSecret: 'zoom-secret', accountId: 'zoom-account' },
      teams: { enabled: false, tenantId: '', clientId: '', organizerEmail: '' },
      googleCalendar: { enabled: false, calendarId: '' },
    });
    expect(statusOf('Zoom')).toHaveTextContent('Connected');
    expect(screen.getByLabelText('API Secret')).toHaveValue('');
    expect(screen.getByLabelText('API Secret')).toHaveAttribute('placeholder', m.savedSecretPlaceholder);
  });

  it("says 'Saving...' while the save runs", async () => {
    fakeApi({ 'GET /api/integrations': () => jsonResponse(200, defaults), 'PUT /api/integrations': () => new Promise<Response>(() => undefined) });
    const { user } = renderWithProviders(<IntegrationsScreen />);
    await user.click(await screen.findByRole('button', { name: m.save }));
    expect(await screen.findByRole('button', { name: m.saving })).toBeDisabled();
  });

  it('leaves a saved secret out of the body when its field stays blank', async () => {
    const api = fakeApi({ 'GET /api/integrations': () => jsonResponse(200, zoomConnected), 'PUT /api/integrations': () => jsonResponse(200, zoomConnected) });
    const { user } = renderWithProviders(<IntegrationsScreen />);
    expect(await screen.findByLabelText('API Secret')).toHaveAttribute('placeholder', m.savedSecretPlaceholder);
    await user.click(screen.getByRole('button', { name: m.save }));
    await vi.waitFor(() => expect(callsTo(api, 'PUT', '/api/integrations')).toHaveLength(1));
    expect(callsTo(api, 'PUT', '/api/integrations')[0]?.body).toMatchObject({ zoom: { enabled: true, apiKey: 'zoom-key', accountId: 'zoom-account' } });
    expect(JSON.stringify(callsTo(api, 'PUT', '/api/integrations')[0]?.body)).not.toContain('apiSecret');
  });

  it('names the missing fields of a switched-on service instead of sending', async () => {
    const api = fakeApi({ 'GET /api/integrations': () => jsonResponse(200, defaults) });
    const { user } = renderWithProviders(<IntegrationsScreen />);
    await user.click(await screen.findByRole('switch', { name: 'Enable Google Calendar' }));
    await user.click(screen.getByRole('button', { name: m.save }));
    expect(await screen.findByText('To enable Google Calendar, enter its Calendar ID.')).toBeInTheDocument();
    expect(screen.getByLabelText('Calendar ID')).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo(api, 'PUT', '/api/integrations')).toHaveLength(0);
  });

  it("toasts 'Save failed' / 'Failed to save integration settings' when the save fails", async () => {
    fakeApi({ 'GET /api/integrations': () => jsonResponse(200, defaults), 'PUT /api/integrations': () => errorResponse(500, 'INTERNAL', 'boom') });
    const { user } = renderWithProviders(<IntegrationsScreen />);
    await user.click(await screen.findByRole('button', { name: m.save }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Save failed', { description: 'Failed to save integration settings' }));
  });

  it("tells a signed-out creator 'User not authenticated'", async () => {
    fakeApi({ 'GET /api/integrations': () => jsonResponse(200, defaults), 'PUT /api/integrations': () => errorResponse(401, 'UNAUTHENTICATED', 'Sign in.') });
    const { user } = renderWithProviders(<IntegrationsScreen />);
    await user.click(await screen.findByRole('button', { name: m.save }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Save failed', { description: 'User not authenticated' }));
  });

  it("shows a service the provider refused as Disconnected, with the provider's reason under it", async () => {
    fakeApi({ 'GET /api/integrations': () => jsonResponse(200, zoomError) });
    renderWithProviders(<IntegrationsScreen />);
    await screen.findByRole('switch', { name: 'Enable Zoom' });
    expect(statusOf('Zoom')).toHaveTextContent('Disconnected');
    expect(statusOf('Zoom')).toHaveTextContent(zoomRefused);
    expect(statusOf('Microsoft Teams')).toHaveTextContent('Disconnected');
    expect(statusOf('Microsoft Teams')).not.toHaveTextContent('refused');
  });

  it('tests a connection for real and shows Connected once the provider accepts it', async () => {
    let zoomNow = zoomError;
    const api = fakeApi({
      'GET /api/integrations': () => jsonResponse(200, zoomNow),
      'POST /api/integrations/zoom/test': () => {
        zoomNow = zoomConnected;
        return jsonResponse(200, { ok: true });
      },
    });
    const { user } = renderWithProviders(<IntegrationsScreen />);
    await user.click(await screen.findByRole('button', { name: 'Test connection: Zoom' }));
    await vi.waitFor(() => expect(statusOf('Zoom')).toHaveTextContent('Connected'));
    expect(statusOf('Zoom')).not.toHaveTextContent(zoomRefused);
    expect(callsTo(api, 'POST', '/api/integrations/zoom/test')).toHaveLength(1);
    expect(toast.success).toHaveBeenCalledWith('Zoom connected', { description: 'Zoom accepted the saved settings.' });
  });

  it("shows the provider's refusal under the card when a test fails, and a provider that is down", async () => {
    fakeApi({
      'GET /api/integrations': () => jsonResponse(200, zoomConnected),
      'POST /api/integrations/zoom/test': () => jsonResponse(200, { ok: false, error: zoomRefused }),
      'POST /api/integrations/teams/test': () => errorResponse(502, 'UPSTREAM_FAILED', 'Microsoft Teams could not be reached.'),
    });
    const { user } = renderWithProviders(<IntegrationsScreen />);
    await user.click(await screen.findByRole('button', { name: 'Test connection: Zoom' }));
    expect(await screen.findByText(zoomRefused, { selector: '[role=status]' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Test connection: Microsoft Teams' }));
    expect(await screen.findByText('Microsoft Teams could not be reached.', { selector: '[role=status]' })).toBeInTheDocument();
  });

  it("asks for Teams' tenant, client, secret and organiser before sending, then sends them", async () => {
    const api = fakeApi({ 'GET /api/integrations': () => jsonResponse(200, defaults), 'PUT /api/integrations': () => jsonResponse(200, defaults) });
    const { user } = renderWithProviders(<IntegrationsScreen />);
    await user.click(await screen.findByRole('switch', { name: 'Enable Microsoft Teams' }));
    await user.click(screen.getByRole('button', { name: m.save }));
    for (const label of ['Tenant ID', 'Client ID', 'Client Secret', 'Organizer email']) {
      expect(await screen.findByText(`To enable Microsoft Teams, enter its ${label}.`)).toBeInTheDocument();
    }
    expect(callsTo(api, 'PUT', '/api/integrations')).toHaveLength(0);
    await user.type(screen.getByLabelText('Tenant ID'), 'tenant-1');
    await user.type(screen.getByLabelText('Client ID'), 'app-1');
    await user.type(screen.getByLabelText('Client Secret'), 'teams-secret');
    await user.type(screen.getByLabelText('Organizer email'), 'host@example.com');
    await user.click(screen.getByRole('button', { name: m.save }));
    await vi.waitFor(() => expect(callsTo(api, 'PUT', '/api/integrations')).toHaveLength(1));
    expect(callsTo(api, 'PUT', '/api/integrations')[0]?.body).toMatchObject({
      teams: { enabled: true, tenantId: 'tenant-1', clientId: 'app-1', clientSecret: 'teams-secret', organizerEmail: 'host@example.com' },
    });
  });

  it('can be used with the keyboard alone: the switch toggles with Space', async () => {
    fakeApi({ 'GET /api/integrations': () => jsonResponse(200, defaults) });
    const { user } = renderWithProviders(<IntegrationsScreen />);
    await screen.findByRole('switch', { name: 'Enable Zoom' });
    zoomSwitch().focus();
    await user.keyboard(' ');
    expect(zoomSwitch()).toBeChecked();
    await user.tab();
    expect(screen.getByLabelText('Account ID')).toHaveFocus();
  });
});

describe('IntegrationsScreen when the settings cannot be loaded', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says so, toasts it, and offers to try again', async () => {
    fakeApi({ 'GET /api/integrations': () => errorResponse(500, 'INTERNAL', 'boom') });
    renderWithProviders(<IntegrationsScreen />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your integrations could not be loaded');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(m.loadFailed.title, { description: m.loadFailed.description });
  });
});

describe('IntegrationsScreen without a plan (issue 29)', () => {
  it('shows the saved settings read-only with the way to a plan: no switch, field or save to press', async () => {
    const fetchMock = fakeApi({
      'GET /api/integrations': () => jsonResponse(200, zoomConnected),
      'GET /api/me/subscription': () => jsonResponse(200, subscription(null)),
    });
    renderWithProviders(<IntegrationsScreen />);

    expect(await screen.findByText('Choose a plan to connect integrations')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute('href', '/dashboard/creator');
    expect(zoomSwitch()).toBeChecked();
    expect(zoomSwitch()).toBeDisabled();
    expect(screen.getByLabelText('API Key')).toHaveValue('zoom-key');
    expect(screen.getByLabelText('API Key')).toBeDisabled();
    expect(screen.getByRole('button', { name: m.save })).toBeDisabled();
    expect(statusOf('Zoom')).toHaveTextContent('Connected');
    expect(fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET')).toEqual([]);
  });

  it('keeps the form for a creator on a plan', async () => {
    fakeApi({
      'GET /api/integrations': () => jsonResponse(200, zoomConnected),
      'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')),
    });
    const { queryClient } = renderWithProviders(<IntegrationsScreen />);

    await planLoaded(queryClient);
    expect(await screen.findByRole('switch', { name: 'Enable Zoom' })).toBeEnabled();
    expect(screen.getByLabelText('API Key')).toBeEnabled();
    expect(screen.getByRole('button', { name: m.save })).toBeEnabled();
    expect(screen.queryByText('Choose a plan to connect integrations')).not.toBeInTheDocument();
  });
});
