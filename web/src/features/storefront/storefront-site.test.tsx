import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicBundle } from '@contracts/bundles.ts';
import type { PublicCertificate } from '@contracts/certificates.ts';
import type { PublicCoursePage, PublicCreator } from '@contracts/storefront.ts';
import { errorResponse, fakeApi, jsonResponse } from '@/test/render.tsx';
import { storefrontSiteRoutes } from './routes.tsx';
import { isPlatformHost, storefrontSiteOf, StorefrontLookupError, type StorefrontSite } from './storefront-host.ts';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve(undefined)) }));

/**
 * The SPA on a creator's custom domain (issue 32, decision 0055): it finds out it is one by asking the API about its
 * host, then serves that creator's storefront only, with the account links on the platform's own address.
 */
const APP = 'https://app.platform.test';
const site: StorefrontSite = { hostname: 'learn.janecooks.test', creatorSlug: 'jane-cooks', appUrl: APP };
const branding = { schoolName: "Jane's Kitchen", primaryColor: '#0f766e', onPrimaryColor: '#ffffff' as const, logoUrl: null };
const creator: PublicCreator = {
  slug: 'jane-cooks',
  displayName: 'Jane Cooks',
  bio: 'Chef and teacher.',
  avatarUrl: null,
  courses: [{ id: 'c-knife', title: 'Knife skills', description: 'Chop like a chef.', priceAmount: 2900, lessonCount: 1 }],
  bundles: [],
  memberships: [],
  branding,
};
const course = (id: string, creatorSlug: string): PublicCoursePage => ({
  id,
  title: id === 'c-knife' ? 'Knife skills' : 'Someone else’s course',
  description: '',
  priceAmount: 2900,
  seatPriceAmount: 0,
  currency: 'gbp',
  lessons: [{ title: 'Grip', kind: 'text' }],
  creatorName: creatorSlug === 'jane-cooks' ? 'Jane Cooks' : 'Bob',
  creatorSlug,
  creatorAvatarUrl: null,
  onSale: true,
  teamSeatsMax: null,
  branding: creatorSlug === 'jane-cooks' ? branding : null,
});
const bundleOf = (id: string, creatorSlug: string): PublicBundle => ({
  id,
  title: id === 'b-jane' ? 'Kitchen basics' : 'Someone else’s bundle',
  description: '',
  priceAmount: 4000,
  currency: 'gbp',
  separateAmount: 5800,
  savingAmount: 1800,
  courses: [
    { id: 'c-knife', title: 'Knife skills' },
    { id: 'c-stock', title: 'Stocks' },
  ],
  creatorName: creatorSlug === 'jane-cooks' ? 'Jane Cooks' : 'Bob',
  creatorSlug,
  creatorAvatarUrl: null,
  onSale: true,
  branding: creatorSlug === 'jane-cooks' ? branding : null,
});
const certificate = (courseId: string): PublicCertificate => ({
  credential: 'x.y.z',
  status: 'valid',
  verified: true,
  certificate: {
    id: `cert-${courseId}`,
    learner: 'Ada Lovelace',
    courseTitle: 'Knife skills',
    courseUrl: `${APP}/c/${courseId}`,
    creatorName: 'Jane Cooks',
    issuerName: "Jane's Kitchen",
    issuedAt: '2026-11-01T10:00:00.000Z',
    revokedAt: null,
    revocationReason: null,
  },
  // The issuing creator's school, as the API adds it (Jane's only: Bob is not branded).
  branding: courseId === 'c-knife' ? branding : null,
});

const api = () =>
  fakeApi({
    'GET /api/public/creators/jane-cooks': () => jsonResponse(200, creator),
    'GET /api/public/courses/c-knife': () => jsonResponse(200, course('c-knife', 'jane-cooks')),
    'GET /api/public/courses/c-bob': () => jsonResponse(200, course('c-bob', 'bob')),
    'GET /api/public/bundles/b-jane': () => jsonResponse(200, bundleOf('b-jane', 'jane-cooks')),
    'GET /api/public/bundles/b-bob': () => jsonResponse(200, bundleOf('b-bob', 'bob')),
    'GET /api/public/certificates/cert-c-knife': () => jsonResponse(200, certificate('c-knife')),
    'GET /api/public/certificates/cert-c-bob': () => jsonResponse(200, certificate('c-bob')),
  });

const renderSite = (path: string, on: StorefrontSite = site) => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={createMemoryRouter([{ path: '/', children: storefrontSiteRoutes(on) }], { initialEntries: [path] })} />
    </QueryClientProvider>,
  );
};

afterEach(() => {
  vi.unstubAllGlobals();
  document.title = '';
});

describe('finding out whether the page is a creator’s custom domain', () => {
  it('asks nothing on the platform’s own host, and asks the API about any other', async () => {
    const fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, { hostname: 'learn.janecooks.test', creatorSlug: 'jane-cooks' })));
    expect(await storefrontSiteOf({ AppUrl: APP }, 'app.platform.test', fetchMock)).toBeUndefined();
    expect(await storefrontSiteOf({}, 'learn.janecooks.test', fetchMock)).toBeUndefined();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(await storefrontSiteOf({ AppUrl: APP }, 'Learn.JaneCooks.test', fetchMock)).toEqual(site);
    expect(fetchMock).toHaveBeenCalledWith('/api/public/domains/learn.janecooks.test', expect.anything());
  });

  it('asks nothing on names no creator can hold: localhost, IP addresses, CloudFront’s own names', async () => {
    const fetchMock = vi.fn<typeof fetch>();
    for (const host of ['APP.platform.test.', 'localhost', 'storefront.course-platform.localhost', '127.0.0.1', '[::1]', 'd111.cloudfront.net']) {
      expect(isPlatformHost({ AppUrl: APP }, host), host).toBe(true);
      expect(await storefrontSiteOf({ AppUrl: APP }, host, fetchMock)).toBeUndefined();
    }
    for (const host of ['learn.janecooks.test', 'app.platform.test.evil.test']) expect(isPlatformHost({ AppUrl: APP }, host), host).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is a storefront with nothing to show on a host no active domain has (never the platform’s app), and an error when the lookup fails', async () => {
    const unknown = vi.fn<typeof fetch>(() => Promise.resolve(errorResponse(404, 'NOT_FOUND', 'No storefront at this address.')));
    expect(await storefrontSiteOf({ AppUrl: APP }, 'gone.janecooks.test.', unknown)).toEqual({ hostname: 'gone.janecooks.test', creatorSlug: null, appUrl: APP });
    const down = vi.fn<typeof fetch>(() => Promise.resolve(errorResponse(503, 'UNAVAILABLE', 'Try again.')));
    await expect(storefrontSiteOf({ AppUrl: APP }, 'learn.janecooks.test', down)).rejects.toBeInstanceOf(StorefrontLookupError);
    const offline = vi.fn<typeof fetch>(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(storefrontSiteOf({ AppUrl: APP }, 'learn.janecooks.test', offline)).rejects.toBeInstanceOf(StorefrontLookupError);
  });
});

describe('the storefront on a creator’s custom domain', () => {
  it('shows the creator’s branded page at /, their home at /, and Sign in on the platform’s address', async () => {
    api();
    renderSite('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Jane Cooks' })).toBeInTheDocument();
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: "Jane's Kitchen" })).toHaveAttribute('href', '/');
    expect(within(header).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', `${APP}/auth/login`);
    expect(within(screen.getByRole('region', { name: 'Courses' })).getByRole('link')).toHaveAttribute('href', '/c/c-knife');
  });

  it('shows their course with Buy now opening the checkout on the platform’s address, and not another creator’s', async () => {
    const calls = api();
    renderSite('/c/c-knife');
    expect(await screen.findByRole('heading', { level: 1, name: 'Knife skills' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', `${APP}/c/c-knife`);
    expect(screen.getByRole('link', { name: 'Jane Cooks' })).toHaveAttribute('href', '/');
    // No view is posted from here (the domain's edge passes the public reads only).
    expect(calls.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`)).toEqual(['GET /api/public/courses/c-knife']);
  });

  it('shows their bundle with Buy now opening the checkout on the platform’s address, and not another creator’s', async () => {
    api();
    renderSite('/b/b-jane');
    expect(await screen.findByRole('heading', { level: 1, name: 'Kitchen basics' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', `${APP}/b/b-jane`);
    expect(screen.getByRole('link', { name: 'Knife skills' })).toHaveAttribute('href', '/c/c-knife');
    expect(within(screen.getByRole('banner')).getByRole('link', { name: "Jane's Kitchen" })).toHaveAttribute('href', '/');

    renderSite('/b/b-bob');
    expect(await screen.findByRole('heading', { level: 1, name: "This bundle isn't available" })).toBeInTheDocument();
    expect(screen.queryByText('Someone else’s bundle')).not.toBeInTheDocument();
  });

  it('does not show another creator’s course or certificate', async () => {
    api();
    renderSite('/c/c-bob');
    expect(await screen.findByRole('heading', { level: 1, name: "This course isn't available" })).toBeInTheDocument();
    expect(screen.queryByText('Someone else’s course')).not.toBeInTheDocument();
  });

  it('shows their courses’ certificates framed by their school, and not another creator’s', async () => {
    api();
    renderSite('/verify/cert-c-knife');
    expect(await screen.findByTestId('learner')).toHaveTextContent('Ada Lovelace');
    expect(within(screen.getByRole('banner')).getByRole('link', { name: "Jane's Kitchen" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Knife skills' })).toHaveAttribute('href', '/c/c-knife');
  });

  it('does not show a certificate of another creator’s course', async () => {
    api();
    renderSite('/verify/cert-c-bob');
    expect(await screen.findByRole('heading', { level: 1, name: 'Certificate not found' })).toBeInTheDocument();
    expect(screen.queryByTestId('learner')).not.toBeInTheDocument();
  });

  it('shows only the not-found page, linking to the platform, on a host that serves no creator', async () => {
    api();
    renderSite('/', { ...site, creatorSlug: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Course Platform' })).toHaveAttribute('href', APP);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', `${APP}/auth/login`);
    expect(screen.queryByRole('link', { name: /Go to Jane|Go to the home page/ })).not.toBeInTheDocument();
  });

  it('answers any other path (sign-in, a dashboard, another creator’s page) with its not-found page linking to the platform', async () => {
    for (const path of ['/auth/login', '/dashboard/creator', '/u/bob']) {
      api();
      renderSite(path);
      expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' }), path).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Go to Course Platform' })).toHaveAttribute('href', APP);
      expect(await screen.findByRole('link', { name: "Go to Jane's Kitchen" })).toHaveAttribute('href', '/');
      document.body.innerHTML = '';
    }
  });
});
