import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { GoogleConnect, googleConnectMessages as m } from './google-connect.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

afterEach(() => vi.unstubAllGlobals());

const consentUrl = 'http://127.0.0.1:8093/o/oauth2/v2/auth?client_id=x&state=abc';

describe('GoogleConnect', () => {
  it("asks for Google's consent screen with this page as the way back, and goes there", async () => {
    const api = fakeApi({ 'POST /api/integrations/google/connect': () => jsonResponse(200, { url: consentUrl }) });
    const go = vi.fn();
    const { user } = renderWithProviders(<GoogleConnect go={go} />, { path: '/dashboard/creator/integrations' });
    await user.click(screen.getByRole('button', { name: 'Connect Google Calendar' }));
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith(consentUrl));
    expect(callsTo(api, 'POST', '/api/integrations/google/connect')[0]!.body).toEqual({ returnUrl: `${window.location.origin}${window.location.pathname}` });
  });

  it('reads "Reconnect Google Calendar" once Google Calendar was consented, and asks for the consent screen again', async () => {
    fakeApi({ 'POST /api/integrations/google/connect': () => jsonResponse(200, { url: consentUrl }) });
    const go = vi.fn();
    const { user } = renderWithProviders(<GoogleConnect consented go={go} />, { path: '/dashboard/creator/integrations' });
    expect(screen.queryByRole('button', { name: 'Connect Google Calendar' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Reconnect Google Calendar' }));
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith(consentUrl));
  });

  it('says why when the API refuses, and when it cannot be reached', async () => {
    fakeApi({ 'POST /api/integrations/google/connect': () => errorResponse(403, 'PLAN_REQUIRED', 'Upgrade to the Starter plan to connect your calendar.') });
    const { user } = renderWithProviders(<GoogleConnect go={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Connect Google Calendar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Upgrade to the Starter plan to connect your calendar.');

    vi.unstubAllGlobals();
    fakeApi({ 'POST /api/integrations/google/connect': () => errorResponse(502, 'UPSTREAM_FAILED', 'x') });
    await user.click(screen.getByRole('button', { name: 'Connect Google Calendar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(m.startFailed);
  });

  it('tells the creator Google Calendar is connected after the return, and drops the flag from the address', async () => {
    fakeApi({});
    const { router } = renderWithProviders(<GoogleConnect go={vi.fn()} />, { path: '/dashboard/creator/integrations?google=connected&tab=x' });
    expect(await screen.findByRole('status')).toHaveTextContent(m.connected);
    await vi.waitFor(() => expect(router.state.location.search).toBe('?tab=x'));
  });

  it.each([
    ['access_denied', m.reasons.access_denied],
    ['refused', m.reasons.refused],
    ['unavailable', m.reasons.unavailable],
    ['expired', m.reasons.expired],
    ['something-else', m.reasons.refused],
  ])('explains a return with reason %s', async (reason, text) => {
    fakeApi({});
    renderWithProviders(<GoogleConnect go={vi.fn()} />, { path: `/dashboard/creator/integrations?google=error&reason=${reason}` });
    expect(await screen.findByRole('status')).toHaveTextContent(text);
  });
});
