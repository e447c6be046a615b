import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { subscription } from '@/test/fixtures.ts';
import { callsTo, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { BRANDING_PLAN_REASON, BRANDING_SAVED, BrandingScreen } from './branding-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();

const LOGO_ID = '01JD0000000000000000000009';
const saved = { schoolName: 'Clay & Kiln', primaryColor: '#1d4ed8', onPrimaryColor: '#ffffff', logoUrl: null };
const png = (size = 2048) => new File([new Uint8Array(size)], 'logo.png', { type: 'image/png' });
const open = () => renderWithProviders(<BrandingScreen />, { path: paths.creator.branding });

beforeEach(() => {
  let n = 0;
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => `blob:logo-${++n}`), revokeObjectURL: vi.fn() }));
});
afterEach(() => vi.unstubAllGlobals());

describe('the Branding page', () => {
  it('shows the saved branding and previews a new colour live, with the readable text colour and its contrast', async () => {
    fakeApi({ 'GET /api/branding': () => jsonResponse(200, saved), 'GET /api/me/subscription': () => jsonResponse(200, subscription('pro')) });
    const { user } = open();
    expect(await screen.findByLabelText(/^School name/)).toHaveValue('Clay & Kiln');
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(within(preview).getByText('Clay & Kiln')).toBeInTheDocument();
    expect(within(preview).getByTestId('preview-button')).toHaveStyle({ backgroundColor: '#1d4ed8', color: '#ffffff' });
    expect(within(preview).getByTestId('contrast-note')).toHaveTextContent(/white: contrast 6\.\d:1/);

    const hex = screen.getByLabelText(/^Primary colour/);
    await user.clear(hex);
    await user.type(hex, '#facc15');
    expect(within(preview).getByTestId('preview-button')).toHaveStyle({ backgroundColor: '#facc15', color: '#000000' });
    expect(within(preview).getByTestId('contrast-note')).toHaveTextContent(/black: contrast 1\d\.\d:1/);
  });

  it('uploads a logo straight to the bucket and saves it with the name and colour', async () => {
    const fetchMock = fakeApi({
      'GET /api/branding': () => jsonResponse(200, null),
      'GET /api/me/subscription': () => jsonResponse(200, subscription('pro')),
      'POST /api/branding/logo/uploads': () => jsonResponse(200, { fileId: LOGO_ID, uploadUrl: 'http://files.test/avatars/u1/logos/new?put', headers: { 'content-type': 'image/png' }, expiresAt: '2026-11-28T10:10:00.000Z' }),
      'PUT http://files.test/avatars/u1/logos/new?put': () => new Response(null, { status: 200 }),
      'PUT /api/branding': (init) => jsonResponse(200, { ...JSON.parse(String(init?.body)), onPrimaryColor: '#ffffff', logoUrl: 'http://files.test/avatars/u1/logos/new?signed' }),
    });
    const { user } = open();
    await user.type(await screen.findByLabelText(/^School name/), 'Clay & Kiln');
    await user.upload(screen.getByTestId('logo-input'), png());
    expect(await screen.findByText(/Save to use the new logo/)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/branding/logo/uploads')[0]?.body).toEqual({ contentType: 'image/png', size: 2048 });
    expect(within(screen.getByRole('region', { name: 'Preview' })).getByTestId('school-logo')).toHaveAttribute('src', 'blob:logo-1');

    await user.click(screen.getByRole('button', { name: 'Save branding' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', '/api/branding')[0]?.body).toEqual({ schoolName: 'Clay & Kiln', primaryColor: '#18181b', logoFileId: LOGO_ID }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(BRANDING_SAVED, expect.anything()));
  });

  it('refuses a logo of another type or over 2 MB before uploading, and a colour that is not #rrggbb on save', async () => {
    const fetchMock = fakeApi({ 'GET /api/branding': () => jsonResponse(200, saved), 'GET /api/me/subscription': () => jsonResponse(200, subscription('pro')) });
    const { user } = open();
    await screen.findByLabelText(/^School name/);
    await user.upload(screen.getByTestId('logo-input'), png(2 * 1024 * 1024 + 1));
    expect(await screen.findByRole('alert')).toHaveTextContent('A logo can be up to 2 MB.');
    const hex = screen.getByLabelText(/^Primary colour/);
    await user.clear(hex);
    await user.type(hex, 'blue');
    await user.click(screen.getByRole('button', { name: 'Save branding' }));
    expect(await screen.findByText('Use a colour like #1d4ed8.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', '/api/branding')).toHaveLength(0);
    expect(callsTo(fetchMock, 'POST', '/api/branding/logo/uploads')).toHaveLength(0);
  });

  it('on Starter says branding is Pro and shows the form read-only', async () => {
    fakeApi({ 'GET /api/branding': () => jsonResponse(200, null), 'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')) });
    open();
    expect(await screen.findByText(BRANDING_PLAN_REASON)).toBeInTheDocument();
    expect(await screen.findByRole('group', { name: 'Branding (read-only)' })).toBeDisabled();
  });
});
