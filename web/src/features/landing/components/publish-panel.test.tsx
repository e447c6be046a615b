import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LandingPage } from '@contracts/landing.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { LandingPageScreen } from '../screens/landing-page-screen.tsx';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { savedPage } from '../test/render.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
vi.mock('@/lib/config.ts', () => ({ getConfig: () => ({ PagesUrl: 'http://pages.test' }) }));

const published: LandingPage = {
  ...savedPage,
  publication: { slug: 'acme-academy', path: '/p/acme-academy', publishedAt: '2026-11-20T11:00:00.000Z' },
};

spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

function renderScreen() {
  return renderWithProviders(<LandingPageScreen credits={{ status: 'ready', remaining: 50 }} onCreditsChanged={() => undefined} />);
}
const publishRegion = () => screen.findByRole('region', { name: 'Publish' });

describe('Publishing', () => {
  it('is offered once a page is saved, with an address suggested from the company name', async () => {
    fakeApi({ 'GET /api/landing-page': () => jsonResponse(200, savedPage) });
    renderScreen();

    const region = await publishRegion();
    expect(within(region).getByRole('textbox', { name: 'Page address' })).toHaveValue('acme-academy');
    expect(within(region).getByText(/Public at http:\/\/pages\.test\/p\/acme-academy/)).toBeInTheDocument();
    expect(within(region).queryByTestId('public-link')).not.toBeInTheDocument();
  });

  it('publishes at the chosen address and links to it on the pages origin, in a new tab', async () => {
    const fetchMock = fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, savedPage),
      'PUT /api/landing-page/publication': () => jsonResponse(200, { ...published, publication: { ...published.publication!, slug: 'acme', path: '/p/acme' } }),
    });
    const { user } = renderScreen();
    const region = await publishRegion();
    const slug = within(region).getByRole('textbox', { name: 'Page address' });
    await user.clear(slug);
    await user.type(slug, 'acme');

    await user.click(within(region).getByRole('button', { name: 'Publish' }));

    const link = await within(region).findByTestId('public-link');
    expect(link).toHaveAttribute('href', 'http://pages.test/p/acme');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(callsTo(fetchMock, 'PUT', '/api/landing-page/publication')[0]?.body).toEqual({ slug: 'acme' });
    expect(toast.success).toHaveBeenCalledWith('Landing page published!', { description: 'Your page is live at http://pages.test/p/acme.' });
    expect(within(region).getByRole('button', { name: 'Publish again' })).toBeEnabled();
  });

  it('refuses an invalid address before asking the server, and says a taken one (409) on the field', async () => {
    const fetchMock = fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, savedPage),
      'PUT /api/landing-page/publication': () => errorResponse(409, 'CONFLICT', 'That address is taken.'),
    });
    const { user } = renderScreen();
    const region = await publishRegion();
    const slug = within(region).getByRole('textbox', { name: 'Page address' });

    await user.clear(slug);
    await user.type(slug, 'Acme Academy!');
    await user.click(within(region).getByRole('button', { name: 'Publish' }));
    expect(await within(region).findByText(/Use lower-case letters, digits and single hyphens/)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', '/api/landing-page/publication')).toHaveLength(0);

    await user.clear(slug);
    await user.type(slug, 'taken');
    await user.click(within(region).getByRole('button', { name: 'Publish' }));
    expect(await within(region).findByText('That address is taken. Choose another one.')).toBeInTheDocument();
    expect(slug).toHaveAttribute('aria-invalid', 'true');
  });

  it('copies the link, and unpublishes only after a confirmation', async () => {
    const fetchMock = fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, published),
      'DELETE /api/landing-page/publication': () => jsonResponse(200, { ...published, publication: null }),
    });
    const { user } = renderScreen();
    const region = await publishRegion();
    expect(within(region).getByTestId('public-link')).toHaveAttribute('href', 'http://pages.test/p/acme-academy');

    await user.click(within(region).getByRole('button', { name: 'Copy link' }));
    // user-event stands in for the clipboard.
    expect(await navigator.clipboard.readText()).toBe('http://pages.test/p/acme-academy');
    expect(toast.success).toHaveBeenCalledWith('Link copied', { description: 'http://pages.test/p/acme-academy' });

    await user.click(within(region).getByRole('button', { name: 'Unpublish' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Unpublish your landing page?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetchMock, 'DELETE', '/api/landing-page/publication')).toHaveLength(0);

    await user.click(within(region).getByRole('button', { name: 'Unpublish' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Unpublish' }));

    await vi.waitFor(() => expect(within(region).queryByTestId('public-link')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'DELETE', '/api/landing-page/publication')).toHaveLength(1);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(toast.success).toHaveBeenCalledWith('Landing page unpublished', expect.anything());
  });

  it('says when the public copy is older than the saved page', async () => {
    fakeApi({ 'GET /api/landing-page': () => jsonResponse(200, { ...published, updatedAt: '2026-11-21T09:00:00.000Z' }) });
    renderScreen();

    expect(within(await publishRegion()).getByTestId('publish-note')).toHaveTextContent('Publish again to update the public page.');
  });
});
