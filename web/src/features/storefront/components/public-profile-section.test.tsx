import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicProfile } from '@contracts/storefront.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, planLoaded, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { NO_PLAN_NEW_REASON, NO_PLAN_REASON, PROFILE_SAVED, PublicProfileSection, suggestCreatorSlug } from './public-profile-section.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

const saved: PublicProfile = {
  displayName: 'Jane Cooks',
  bio: 'Chef and teacher.',
  slug: 'jane-cooks',
  avatarUrl: 'http://files.test/avatars/u1/old?signed',
  updatedAt: '2026-11-25T10:00:00.000Z',
};
const AVATAR_ID = '01JD0000000000000000000001';
const PROFILE = '/api/creator/public-profile';

const png = (size = 2048) => new File([new Uint8Array(size)], 'me.png', { type: 'image/png' });

beforeEach(() => {
  let n = 0;
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => `blob:preview-${++n}`), revokeObjectURL: vi.fn() }));
});
afterEach(() => vi.unstubAllGlobals());

describe('the Public profile section (creator profile)', () => {
  it('starts empty, suggests an address from the name, and saves the profile, then links to the public page', async () => {
    const fetchMock = fakeApi({
      [`GET ${PROFILE}`]: () => jsonResponse(200, null),
      [`PUT ${PROFILE}`]: (init) => jsonResponse(200, { ...JSON.parse(String(init?.body)), avatarUrl: null, updatedAt: '2026-11-25T10:00:00.000Z' }),
    });
    const { user } = renderWithProviders(<PublicProfileSection />);

    const name = await screen.findByLabelText(/^Display name/);
    expect(screen.queryByTestId('public-page-link')).not.toBeInTheDocument();
    await user.type(name, 'Jané Cooks!');
    expect(screen.getByLabelText(/^Page address/)).toHaveValue('jane-cooks');
    expect(screen.getByTestId('public-page-address')).toHaveTextContent('/u/jane-cooks');
    await user.type(screen.getByLabelText('Bio'), 'I teach cooking.');
    await user.click(screen.getByRole('button', { name: 'Save public profile' }));

    expect(await screen.findByText(PROFILE_SAVED)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', PROFILE)[0]?.body).toEqual({ displayName: 'Jané Cooks!', bio: 'I teach cooking.', slug: 'jane-cooks' });
    expect(await screen.findByTestId('public-page-link')).toHaveAttribute('href', '/u/jane-cooks');
  });

  it('shows a taken address under the address field (409), and the field rules before sending', async () => {
    const fetchMock = fakeApi({
      [`GET ${PROFILE}`]: () => jsonResponse(200, saved),
      [`PUT ${PROFILE}`]: () => errorResponse(409, 'CONFLICT', 'The address /u/chef is already taken. Choose another.'),
    });
    const { user } = renderWithProviders(<PublicProfileSection />);
    const address = await screen.findByLabelText(/^Page address/);
    expect(address).toHaveValue('jane-cooks');
    expect(screen.getByTestId('public-page-link')).toHaveAttribute('href', '/u/jane-cooks');

    await user.clear(address);
    await user.type(address, 'admin');
    await user.click(screen.getByRole('button', { name: 'Save public profile' }));
    expect(await screen.findByText('This address is reserved. Choose another.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', PROFILE)).toHaveLength(0);

    await user.clear(address);
    await user.type(address, 'chef');
    await user.click(screen.getByRole('button', { name: 'Save public profile' }));
    await waitFor(() => expect(address).toHaveAccessibleDescription(expect.stringContaining('The address /u/chef is already taken. Choose another.')));
    expect(address).toHaveFocus();
  });

  it('uploads a chosen picture straight to the bucket, previews it, and saves the profile with it', async () => {
    const fetchMock = fakeApi({
      [`GET ${PROFILE}`]: () => jsonResponse(200, { ...saved, avatarUrl: null }),
      [`POST ${PROFILE}/avatar`]: () =>
        jsonResponse(200, { avatarId: AVATAR_ID, uploadUrl: 'http://files.test/avatars/u1/new?put', headers: { 'content-type': 'image/png' }, expiresAt: '2026-11-25T10:10:00.000Z' }),
      'PUT http://files.test/avatars/u1/new?put': () => new Response(null, { status: 200 }),
      [`PUT ${PROFILE}`]: () => jsonResponse(200, { ...saved, avatarUrl: 'http://files.test/avatars/u1/new?signed' }),
    });
    const { user } = renderWithProviders(<PublicProfileSection />);
    expect(await screen.findByTestId('creator-avatar-initials')).toHaveTextContent('JC');

    await user.upload(screen.getByTestId('avatar-input'), png());
    expect(await screen.findByText(/Save to use the new picture/)).toBeInTheDocument();
    expect(screen.getByTestId('creator-avatar-image')).toHaveAttribute('src', 'blob:preview-1');
    expect(callsTo(fetchMock, 'POST', `${PROFILE}/avatar`)[0]?.body).toEqual({ contentType: 'image/png', size: 2048 });
    const put = fetchMock.mock.calls.find(([url]) => String(url) === 'http://files.test/avatars/u1/new?put');
    expect(new Headers(put?.[1]?.headers).get('content-type')).toBe('image/png');
    expect(new Headers(put?.[1]?.headers).has('authorization')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Save public profile' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', PROFILE)[0]?.body).toMatchObject({ avatarId: AVATAR_ID }));
    await waitFor(() => expect(screen.getByTestId('creator-avatar-image')).toHaveAttribute('src', 'http://files.test/avatars/u1/new?signed'));
  });

  it('refuses a picture of another type or over 2 MB before uploading anything', async () => {
    const fetchMock = fakeApi({ [`GET ${PROFILE}`]: () => jsonResponse(200, saved) });
    const { user } = renderWithProviders(<PublicProfileSection />);
    const input = await screen.findByTestId('avatar-input');
    await user.upload(input, png(2 * 1024 * 1024 + 1));
    expect(await screen.findByRole('alert')).toHaveTextContent('A picture can be up to 2 MB.');
    expect(callsTo(fetchMock, 'POST', `${PROFILE}/avatar`)).toHaveLength(0);
  });

  it('removes the picture with the next save (avatarId null)', async () => {
    const fetchMock = fakeApi({
      [`GET ${PROFILE}`]: () => jsonResponse(200, saved),
      [`PUT ${PROFILE}`]: () => jsonResponse(200, { ...saved, avatarUrl: null }),
    });
    const { user } = renderWithProviders(<PublicProfileSection />);
    expect(await screen.findByTestId('creator-avatar-image')).toHaveAttribute('src', saved.avatarUrl);
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.getByTestId('creator-avatar-initials')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save public profile' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', PROFILE)[0]?.body).toEqual({ displayName: 'Jane Cooks', bio: 'Chef and teacher.', slug: 'jane-cooks', avatarId: null }));
  });
});

describe('suggestCreatorSlug', () => {
  it.each([
    ['Jane Cooks', 'jane-cooks'],
    ['  Crème  Brûlée & Co. ', 'creme-brulee-co'],
    ['!!!', ''],
    ['x'.repeat(50), 'x'.repeat(40)],
  ])('%s -> %s', (name, slug) => {
    expect(suggestCreatorSlug(name)).toBe(slug);
  });
});

describe('the Public profile section without a plan (issue 29)', () => {
  it('shows the profile read-only with the way to a plan, and still links to the public page', async () => {
    const fetchMock = fakeApi({
      [`GET ${PROFILE}`]: () => jsonResponse(200, saved),
      'GET /api/me/subscription': () => jsonResponse(200, subscription(null)),
    });
    renderWithProviders(<PublicProfileSection />);

    expect(await screen.findByRole('note')).toHaveTextContent(NO_PLAN_REASON);
    expect(screen.getByRole('button', { name: 'Choose a plan' })).toBeEnabled();
    expect(screen.getByLabelText(/^Display name/)).toHaveValue('Jane Cooks');
    expect(screen.getByLabelText(/^Display name/)).toBeDisabled();
    expect(screen.getByLabelText('Bio')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save public profile' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Change picture' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove' })).toBeDisabled();
    expect(screen.getByTestId('public-page-link')).toHaveAttribute('href', '/u/jane-cooks');
    expect(fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET')).toEqual([]);
  });

  it('says that setting one up needs a plan when there is none yet', async () => {
    fakeApi({
      [`GET ${PROFILE}`]: () => jsonResponse(200, null),
      'GET /api/me/subscription': () => jsonResponse(200, subscription(null)),
    });
    renderWithProviders(<PublicProfileSection />);
    expect(await screen.findByRole('note')).toHaveTextContent(NO_PLAN_NEW_REASON);
    expect(screen.getByRole('button', { name: 'Upload picture' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save public profile' })).toBeDisabled();
  });

  it('keeps the form for a creator on a plan', async () => {
    fakeApi({
      [`GET ${PROFILE}`]: () => jsonResponse(200, saved),
      'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')),
    });
    const { queryClient } = renderWithProviders(<PublicProfileSection />);

    await planLoaded(queryClient);
    expect(await screen.findByLabelText(/^Display name/)).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Save public profile' })).toBeEnabled();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});
