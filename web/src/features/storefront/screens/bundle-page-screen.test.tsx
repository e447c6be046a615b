import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicBundle } from '@contracts/bundles.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { BUNDLE_GONE, BUNDLE_NOT_ON_SALE } from '../components/bundle-buy-box.tsx';
import { EMAIL_REQUIRED, PURCHASE_NEXT, PURCHASE_RECEIVED } from '../components/buy-box.tsx';
import { BundlePageScreen } from './bundle-page-screen.tsx';

// A visitor: nobody is signed in, and nothing may need Amplify.
vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve(undefined)) }));

const ORIGIN = 'http://app.test';
const assign = vi.fn<(url: string) => void>();

const bundle: PublicBundle = {
  id: 'b-kitchen',
  title: 'Kitchen basics',
  description: 'Knives and stocks.\nEverything to start.',
  priceAmount: 3000,
  currency: 'gbp',
  separateAmount: 4400,
  savingAmount: 1400,
  courses: [
    { id: 'c-knife', title: 'Knife skills' },
    { id: 'c-stock', title: 'Stocks and sauces' },
  ],
  creatorName: 'Jane Cooks',
  creatorSlug: 'jane-cooks',
  creatorAvatarUrl: null,
  onSale: true,
  branding: null,
};

const BUNDLE = 'GET /api/public/bundles/b-kitchen';
const CHECKOUT = 'POST /api/public/bundles/b-kitchen/checkout';

function renderPage(path = '/b/b-kitchen') {
  return renderWithProviders(
    <Routes>
      <Route path="/b/:bundleId" element={<BundlePageScreen />} />
    </Routes>,
    { path },
  );
}

beforeEach(() => {
  vi.stubGlobal('location', { origin: ORIGIN, href: `${ORIGIN}/b/b-kitchen`, assign });
});
afterEach(() => {
  vi.unstubAllGlobals();
  assign.mockReset();
  document.title = '';
  for (const meta of document.head.querySelectorAll('meta')) meta.remove();
});

describe('the bundle page (/b/:bundleId)', () => {
  it('shows the title, description, creator, the courses linking to their pages, the price against the separate prices and the saving', async () => {
    const fetchMock = fakeApi({ [BUNDLE]: () => jsonResponse(200, bundle) });
    renderPage();

    expect(await screen.findByRole('heading', { level: 1, name: 'Kitchen basics' })).toBeInTheDocument();
    expect(screen.getByText(/Knives and stocks/)).toBeInTheDocument();
    expect(screen.getByText('Course bundle · 2 courses')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Jane Cooks' })).toHaveAttribute('href', '/u/jane-cooks');
    const courses = within(screen.getByTestId('bundle-courses')).getAllByRole('listitem');
    expect(courses.map((c) => c.textContent)).toEqual(['1Knife skills', '2Stocks and sauces']);
    expect(within(courses[1]!).getByRole('link', { name: 'Stocks and sauces' })).toHaveAttribute('href', '/c/c-stock');
    expect(screen.getByTestId('bundle-price')).toHaveTextContent('£30');
    expect(screen.getByText('instead of').parentElement).toHaveTextContent('instead of £44');
    expect(screen.getByTestId('bundle-saving')).toHaveTextContent('Save £14 (32%)');
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeInTheDocument();
    expect(document.title).toBe('Kitchen basics · Course Platform');
    expect(document.head.querySelector('meta[property="og:type"]')).toHaveAttribute('content', 'product');
    expect(callsTo(fetchMock, 'GET', '/api/public/bundles/b-kitchen')[0]?.headers.has('authorization')).toBe(false);
  });

  it("'Buy now' posts the email, the coupon, both return addresses and the affiliate's ref, then leaves for Stripe's checkout", async () => {
    document.cookie = 'ref=AAAA2222.01JCLICK; path=/';
    const fetchMock = fakeApi({
      [BUNDLE]: () => jsonResponse(200, bundle),
      [CHECKOUT]: () => jsonResponse(200, { url: 'http://stripe.test/checkout/cs_b' }),
    });
    const { user } = renderPage();
    await user.type(await screen.findByLabelText(/^Email/), 'Ann@Example.com');
    await user.type(screen.getByLabelText('Coupon code (optional)'), 'launch20');
    await user.click(screen.getByRole('button', { name: 'Buy now' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://stripe.test/checkout/cs_b'));
    const [call] = callsTo(fetchMock, 'POST', '/api/public/bundles/b-kitchen/checkout');
    expect(call?.body).toEqual({
      successUrl: `${ORIGIN}/b/b-kitchen?purchase=success`,
      cancelUrl: `${ORIGIN}/b/b-kitchen`,
      email: 'ann@example.com',
      couponCode: 'LAUNCH20',
      ref: 'AAAA2222.01JCLICK',
    });
    expect(call?.headers.get('idempotency-key')).toMatch(/^[\w.:-]{8,200}$/);
    document.cookie = 'ref=; path=/; max-age=0';
  });

  it('asks for the email before anything is sent, and says a refused coupon under its field', async () => {
    const fetchMock = fakeApi({
      [BUNDLE]: () => jsonResponse(200, bundle),
      [CHECKOUT]: () => errorResponse(400, 'COUPON_INVALID', 'This coupon does not apply to this bundle.'),
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Buy now' }));
    expect(screen.getByText(EMAIL_REQUIRED)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveFocus();
    expect(callsTo(fetchMock, 'POST', '/api/public/bundles/b-kitchen/checkout')).toHaveLength(0);

    await user.type(screen.getByLabelText(/^Email/), 'ann@example.com');
    await user.type(screen.getByLabelText('Coupon code (optional)'), 'WRONG');
    await user.click(screen.getByRole('button', { name: 'Buy now' }));
    expect(await screen.findByText('This coupon does not apply to this bundle.')).toBeInTheDocument();
    expect(screen.getByLabelText('Coupon code (optional)')).toHaveFocus();
    expect(assign).not.toHaveBeenCalled();
  });

  it('says a bundle that went off sale meanwhile (404) is no longer on sale', async () => {
    fakeApi({ [BUNDLE]: () => jsonResponse(200, bundle), [CHECKOUT]: () => errorResponse(404, 'NOT_FOUND', 'Bundle not found.') });
    const { user } = renderPage();
    await user.type(await screen.findByLabelText(/^Email/), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Buy now' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(BUNDLE_GONE);
  });

  it("says it is not on sale, with no form, while the creator's plan does not sell", async () => {
    fakeApi({ [BUNDLE]: () => jsonResponse(200, { ...bundle, onSale: false }) });
    renderPage();
    expect(await screen.findByText(BUNDLE_NOT_ON_SALE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy now' })).not.toBeInTheDocument();
  });

  it("wears the creator's branding when their plan has it", async () => {
    fakeApi({ [BUNDLE]: () => jsonResponse(200, { ...bundle, branding: { schoolName: "Jane's Kitchen", primaryColor: '#0f766e', onPrimaryColor: '#ffffff', logoUrl: null } }) });
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Kitchen basics' });
    expect(within(screen.getByRole('banner')).getByRole('link', { name: "Jane's Kitchen" })).toHaveAttribute('href', '/u/jane-cooks');
    expect(document.querySelector('[data-branded="true"]')).not.toBeNull();
  });

  it('confirms the payment after Stripe sends the buyer back (?purchase=success)', async () => {
    fakeApi({ [BUNDLE]: () => jsonResponse(200, bundle) });
    renderPage('/b/b-kitchen?purchase=success');
    expect(await screen.findByTestId('purchase-confirmation')).toHaveTextContent(`${PURCHASE_RECEIVED} ${PURCHASE_NEXT}`);
    expect(screen.getByText('You bought this bundle')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to start learning' })).toHaveAttribute('href', '/auth/login');
  });

  it('says when the bundle does not exist or is off sale (404), and offers to try again when it could not be loaded', async () => {
    fakeApi({ 'GET /api/public/bundles/b-gone': () => errorResponse(404, 'NOT_FOUND', 'Bundle not found.') });
    renderPage('/b/b-gone');
    expect(await screen.findByRole('heading', { level: 1, name: "This bundle isn't available" })).toBeInTheDocument();
    expect(document.title).toBe('Bundle not found · Course Platform');

    let fail = true;
    fakeApi({ [BUNDLE]: () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, bundle)) });
    const { user } = renderPage();
    const retry = await screen.findByRole('button', { name: 'Try again' });
    fail = false;
    await user.click(retry);
    expect(await screen.findByRole('heading', { level: 1, name: 'Kitchen basics' })).toBeInTheDocument();
  });
});
