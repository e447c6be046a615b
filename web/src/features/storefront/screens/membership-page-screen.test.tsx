import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicMembership } from '@contracts/memberships.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { EMAIL_REQUIRED } from '../components/checkout-form.tsx';
import { MEMBERSHIP_GONE, MEMBERSHIP_NOT_ON_SALE } from '../components/membership-buy-box.tsx';
import { MembershipPageScreen } from './membership-page-screen.tsx';

// A visitor: nobody is signed in, and nothing may need Amplify.
vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve(undefined)) }));

const ORIGIN = 'http://app.test';
const assign = vi.fn<(url: string) => void>();

const membership: PublicMembership = {
  id: 'ms-kitchen',
  title: 'Kitchen club',
  description: 'Every course, every month.',
  interval: 'month',
  priceAmount: 1200,
  currency: 'gbp',
  allCourses: true,
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

const MEMBERSHIP = 'GET /api/public/memberships/ms-kitchen';
const CHECKOUT = 'POST /api/public/memberships/ms-kitchen/checkout';

function renderPage(path = '/m/ms-kitchen') {
  return renderWithProviders(
    <Routes>
      <Route path="/m/:membershipId" element={<MembershipPageScreen />} />
    </Routes>,
    { path },
  );
}

beforeEach(() => {
  vi.stubGlobal('location', { origin: ORIGIN, href: `${ORIGIN}/m/ms-kitchen`, assign });
});
afterEach(() => {
  vi.unstubAllGlobals();
  assign.mockReset();
  document.title = '';
  for (const meta of document.head.querySelectorAll('meta')) meta.remove();
});

describe('the membership page (/m/:membershipId)', () => {
  it('shows the title, creator, price a month, the courses linking to their pages, and that new courses join', async () => {
    fakeApi({ [MEMBERSHIP]: () => jsonResponse(200, membership) });
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Kitchen club' })).toBeInTheDocument();
    expect(screen.getByText('Every course, every month.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Jane Cooks' })).toHaveAttribute('href', '/u/jane-cooks');
    expect(screen.getByTestId('buy-box')).toHaveTextContent('£12a month');
    const courses = within(screen.getByTestId('membership-courses')).getAllByRole('link');
    expect(courses.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Knife skills', '/c/c-knife'],
      ['Stocks and sauces', '/c/c-stock'],
    ]);
    expect(screen.getByText('Every course Jane Cooks publishes, now and later.')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toContain('Kitchen club'));
  });

  it("asks for the email, then opens Stripe's checkout in subscription mode, back to this page", async () => {
    const fetchMock = fakeApi({
      [MEMBERSHIP]: () => jsonResponse(200, { ...membership, interval: 'year', priceAmount: 9900 }),
      [CHECKOUT]: () => jsonResponse(200, { url: 'https://checkout.stripe.test/s/1' }),
    });
    renderPage();
    expect(await screen.findByTestId('buy-box')).toHaveTextContent('£99a year');
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText(EMAIL_REQUIRED)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/public/memberships/ms-kitchen/checkout')).toHaveLength(0);

    await userEvent.type(screen.getByRole('textbox', { name: /Email/ }), 'Sam@Example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/s/1'));
    const [call] = callsTo(fetchMock, 'POST', '/api/public/memberships/ms-kitchen/checkout');
    expect(call!.body).toEqual({ successUrl: `${ORIGIN}/m/ms-kitchen?purchase=success`, cancelUrl: `${ORIGIN}/m/ms-kitchen`, email: 'sam@example.com' });
    expect(call!.headers.get('Idempotency-Key')).toBeTruthy();
  });

  it('says when the membership went off sale during the visit', async () => {
    fakeApi({ [MEMBERSHIP]: () => jsonResponse(200, membership), [CHECKOUT]: () => errorResponse(404, 'NOT_FOUND', 'Membership not found.') });
    renderPage();
    await userEvent.type(await screen.findByRole('textbox', { name: /Email/ }), 'sam@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MEMBERSHIP_GONE);
  });

  it('takes no members while the creator cannot sell it', async () => {
    fakeApi({ [MEMBERSHIP]: () => jsonResponse(200, { ...membership, onSale: false }) });
    renderPage();
    expect(await screen.findByText(MEMBERSHIP_NOT_ON_SALE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Subscribe' })).not.toBeInTheDocument();
  });

  it('thanks the new member and sends them to sign in after subscribing', async () => {
    fakeApi({ [MEMBERSHIP]: () => jsonResponse(200, membership) });
    renderPage('/m/ms-kitchen?purchase=success');
    expect(await screen.findByTestId('purchase-confirmation')).toHaveTextContent('your subscription has started');
    expect(screen.getByRole('link', { name: 'Sign in to start learning' })).toHaveAttribute('href', '/auth/login');
  });

  it('says a membership not on sale is not available', async () => {
    fakeApi({ [MEMBERSHIP]: () => errorResponse(404, 'NOT_FOUND', 'Membership not found.') });
    renderPage();
    expect(await screen.findByRole('heading', { name: "This membership isn't available" })).toBeInTheDocument();
  });
});
