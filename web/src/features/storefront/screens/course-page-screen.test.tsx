import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicCoursePage } from '@contracts/storefront.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { COURSE_GONE, SEATS_RANGE } from '../components/buy-box.tsx';
import { EMAIL_INVALID, EMAIL_REQUIRED } from '../components/checkout-form.tsx';
import { PURCHASE_NEXT, PURCHASE_RECEIVED } from '../components/product-page.tsx';
import { CoursePageScreen } from './course-page-screen.tsx';

// A visitor: nobody is signed in, and nothing may need Amplify.
vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve(undefined)) }));

const ORIGIN = 'http://app.test';
const assign = vi.fn<(url: string) => void>();

const course: PublicCoursePage = {
  id: 'c-knife',
  title: 'Knife skills',
  description: 'Chop like a chef.\nSafely.',
  priceAmount: 2900,
  seatPriceAmount: 2000,
  currency: 'gbp',
  lessons: [
    { title: 'Grip', kind: 'text' },
    { title: 'The claw', kind: 'video' },
    { title: 'Dicing an onion', kind: 'video' },
  ],
  creatorName: 'Jane Cooks',
  creatorSlug: 'jane-cooks',
  creatorAvatarUrl: null,
  onSale: true,
  teamSeatsMax: null,
  branding: null,
};

const COURSE = 'GET /api/public/courses/c-knife';
const CHECKOUT = 'POST /api/public/courses/c-knife/checkout';

function renderPage(path = '/c/c-knife') {
  return renderWithProviders(
    <Routes>
      <Route path="/c/:courseId" element={<CoursePageScreen />} />
    </Routes>,
    { path },
  );
}

beforeEach(() => {
  vi.stubGlobal('location', { origin: ORIGIN, href: `${ORIGIN}/c/c-knife`, assign });
});
afterEach(() => {
  vi.unstubAllGlobals();
  assign.mockReset();
  document.title = '';
  for (const meta of document.head.querySelectorAll('meta')) meta.remove();
});

describe('the course storefront (/c/:courseId)', () => {
  it("labels a quiz lesson 'Quiz' and counts the quizzes apart from the readings", async () => {
    const withQuiz = { ...course, lessons: [...course.lessons, { title: 'Knife safety check', kind: 'quiz' as const }] };
    fakeApi({ [COURSE]: () => jsonResponse(200, withQuiz) });
    renderPage();

    await screen.findByRole('heading', { level: 1, name: 'Knife skills' });
    const lessons = within(screen.getByTestId('lesson-list')).getAllByRole('listitem');
    expect(lessons.at(-1)).toHaveTextContent('4Knife safety checkQuiz');
    expect(screen.getByRole('list', { name: 'Course contents' })).toHaveTextContent('4 lessons2 videos1 reading1 quiz');
  });

  it("shows title, description, the lessons with their kinds, the price, and the creator linking to their page, with the page's meta tags", async () => {
    const fetchMock = fakeApi({ [COURSE]: () => jsonResponse(200, course) });
    renderPage();

    expect(await screen.findByRole('heading', { level: 1, name: 'Knife skills' })).toBeInTheDocument();
    expect(screen.getByText(/Chop like a chef/)).toBeInTheDocument();
    expect(screen.getByTestId('course-price')).toHaveTextContent('£29');
    const lessons = within(screen.getByTestId('lesson-list')).getAllByRole('listitem');
    expect(lessons.map((l) => l.textContent)).toEqual(['1GripReading', '2The clawVideo', '3Dicing an onionVideo']);
    expect(screen.getByRole('list', { name: 'Course contents' })).toHaveTextContent('3 lessons2 videos1 reading');
    expect(screen.getByRole('link', { name: 'Jane Cooks' })).toHaveAttribute('href', '/u/jane-cooks');
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'For me' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Buy for a team' })).not.toBeChecked();

    expect(document.title).toBe('Knife skills · Course Platform');
    expect(document.head.querySelector('meta[name="description"]')).toHaveAttribute('content', 'Chop like a chef. Safely.');
    expect(document.head.querySelector('meta[property="og:title"]')).toHaveAttribute('content', 'Knife skills');
    expect(document.head.querySelector('meta[property="og:type"]')).toHaveAttribute('content', 'product');
    expect(document.head.querySelector('meta[property="og:url"]')).toHaveAttribute('content', `${ORIGIN}/c/c-knife`);
    expect(callsTo(fetchMock, 'GET', '/api/public/courses/c-knife')[0]?.headers.has('authorization')).toBe(false);
  });

  it('records one view of the course once it shows (the cached page itself counts nothing), none for a missing course', async () => {
    const VIEW = 'POST /api/public/courses/c-knife/views';
    const fetchMock = fakeApi({ [COURSE]: () => jsonResponse(200, course), [VIEW]: () => new Response(null, { status: 204 }) });
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Knife skills' });
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/public/courses/c-knife/views')).toHaveLength(1));

    const missing = fakeApi({ 'GET /api/public/courses/c-gone': () => jsonResponse(404, { error: { code: 'NOT_FOUND', message: 'No.' } }) });
    renderPage('/c/c-gone');
    await screen.findByText("This course isn't available");
    expect(callsTo(missing, 'POST', '/api/public/courses/c-gone/views')).toHaveLength(0);
  });

  it("'Buy now' posts the email, the coupon and both return addresses, then leaves for Stripe's checkout", async () => {
    const fetchMock = fakeApi({
      [COURSE]: () => jsonResponse(200, course),
      [CHECKOUT]: () => jsonResponse(200, { url: 'http://stripe.test/checkout/cs_1' }),
    });
    const { user } = renderPage();

    await user.type(await screen.findByLabelText(/^Email/), 'Ann@Example.com');
    await user.type(screen.getByLabelText('Coupon code (optional)'), 'launch20');
    await user.click(screen.getByRole('button', { name: 'Buy now' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://stripe.test/checkout/cs_1'));
    const [call] = callsTo(fetchMock, 'POST', '/api/public/courses/c-knife/checkout');
    expect(call?.body).toEqual({
      successUrl: `${ORIGIN}/c/c-knife?purchase=success`,
      cancelUrl: `${ORIGIN}/c/c-knife`,
      email: 'ann@example.com',
      couponCode: 'LAUNCH20',
    });
    expect(call?.headers.get('idempotency-key')).toMatch(/^[\w.:-]{8,200}$/);
    expect(screen.getByRole('button', { name: 'Opening checkout...' })).toBeDisabled();
  });

  it("passes the affiliate link's ref cookie into the checkout", async () => {
    document.cookie = 'ref=AAAA2222.01JCLICK; path=/';
    const fetchMock = fakeApi({
      [COURSE]: () => jsonResponse(200, course),
      [CHECKOUT]: () => jsonResponse(200, { url: 'http://stripe.test/checkout/cs_ref' }),
    });
    const { user } = renderPage();
    await user.type(await screen.findByLabelText(/^Email/), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Buy now' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://stripe.test/checkout/cs_ref'));
    expect(callsTo(fetchMock, 'POST', '/api/public/courses/c-knife/checkout')[0]?.body).toMatchObject({ ref: 'AAAA2222.01JCLICK' });
    document.cookie = 'ref=; path=/; max-age=0';
  });

  it("'Buy for a team' asks for 2 to 1,000 seats, shows seats x the seat price, and posts the seat count", async () => {
    const fetchMock = fakeApi({
      [COURSE]: () => jsonResponse(200, course),
      [CHECKOUT]: () => jsonResponse(200, { url: 'http://stripe.test/checkout/cs_team' }),
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole('radio', { name: 'Buy for a team' }));
    const seats = screen.getByLabelText(/^Seats/);
    expect(seats).toHaveValue(5);
    expect(screen.getByTestId('course-price')).toHaveTextContent('£100');
    expect(screen.getByText(/£20 a seat × 5 seats/)).toBeInTheDocument();

    await user.clear(seats);
    await user.type(seats, '1');
    await user.type(screen.getByLabelText(/^Email/), 'lead@example.com');
    await user.click(screen.getByRole('button', { name: 'Buy for a team' }));
    expect(seats).toHaveAccessibleDescription(expect.stringContaining(SEATS_RANGE));
    expect(seats).toHaveFocus();
    expect(callsTo(fetchMock, 'POST', '/api/public/courses/c-knife/checkout')).toHaveLength(0);

    await user.clear(seats);
    await user.type(seats, '12');
    expect(screen.getByTestId('course-price')).toHaveTextContent('£240');
    await user.click(screen.getByRole('button', { name: 'Buy for a team' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://stripe.test/checkout/cs_team'));
    expect(callsTo(fetchMock, 'POST', '/api/public/courses/c-knife/checkout')[0]?.body).toMatchObject({ email: 'lead@example.com', seats: 12 });
  });

  it("puts the server's refusal of a team purchase under the seat count", async () => {
    fakeApi({
      [COURSE]: () => jsonResponse(200, course),
      [CHECKOUT]: () => errorResponse(400, 'VALIDATION_FAILED', 'Team licences are not on sale yet.', [{ path: 'seats', code: 'custom', message: 'Team licences are not on sale yet.' }]),
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole('radio', { name: 'Buy for a team' }));
    await user.type(screen.getByLabelText(/^Email/), 'lead@example.com');
    await user.click(screen.getByRole('button', { name: 'Buy for a team' }));
    await waitFor(() => expect(screen.getByLabelText(/^Seats/)).toHaveAccessibleDescription(expect.stringContaining('Team licences are not on sale yet.')));
    expect(assign).not.toHaveBeenCalled();
  });

  it('offers no team purchase for a course without a seat price', async () => {
    fakeApi({ [COURSE]: () => jsonResponse(200, { ...course, seatPriceAmount: 0 }) });
    renderPage();
    expect(await screen.findByRole('button', { name: 'Buy now' })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Buy for a team' })).not.toBeInTheDocument();
  });

  it('sends no coupon when the field is empty, and asks for a valid email before anything is sent', async () => {
    const fetchMock = fakeApi({
      [COURSE]: () => jsonResponse(200, course),
      [CHECKOUT]: () => jsonResponse(200, { url: 'http://stripe.test/checkout/cs_2' }),
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Buy now' }));
    expect(screen.getByText(EMAIL_REQUIRED)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveFocus();
    await user.type(screen.getByLabelText(/^Email/), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Buy now' }));
    expect(screen.getByText(EMAIL_INVALID)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/public/courses/c-knife/checkout')).toHaveLength(0);

    await user.clear(screen.getByLabelText(/^Email/));
    await user.type(screen.getByLabelText(/^Email/), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Buy now' }));
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect(callsTo(fetchMock, 'POST', '/api/public/courses/c-knife/checkout')[0]?.body).not.toHaveProperty('couponCode');
  });

  it("says a refused coupon under the coupon field, in the server's words", async () => {
    fakeApi({
      [COURSE]: () => jsonResponse(200, course),
      [CHECKOUT]: () => errorResponse(400, 'COUPON_INVALID', 'This coupon has expired.'),
    });
    const { user } = renderPage();
    await user.type(await screen.findByLabelText(/^Email/), 'ann@example.com');
    await user.type(screen.getByLabelText('Coupon code (optional)'), 'OLD10');
    await user.click(screen.getByRole('button', { name: 'Buy now' }));

    const coupon = screen.getByLabelText('Coupon code (optional)');
    await waitFor(() => expect(coupon).toHaveAttribute('aria-invalid', 'true'));
    expect(coupon).toHaveAccessibleDescription('This coupon has expired.');
    expect(coupon).toHaveFocus();
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeEnabled();
  });

  it("says when the creator cannot take payments yet (409 PAYOUTS_NOT_READY), above the button", async () => {
    fakeApi({
      [COURSE]: () => jsonResponse(200, course),
      [CHECKOUT]: () => errorResponse(409, 'PAYOUTS_NOT_READY', 'This course is not on sale yet.'),
    });
    const { user } = renderPage();
    await user.type(await screen.findByLabelText(/^Email/), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Buy now' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This course is not on sale yet.');
  });

  it('says a course that went off sale meanwhile (404) is no longer on sale', async () => {
    fakeApi({ [COURSE]: () => jsonResponse(200, course), [CHECKOUT]: () => errorResponse(404, 'NOT_FOUND', 'Course not found.') });
    const { user } = renderPage();
    await user.type(await screen.findByLabelText(/^Email/), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Buy now' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(COURSE_GONE);
  });

  it("shows 'Not on sale' and no buy button for a course without a price", async () => {
    fakeApi({ [COURSE]: () => jsonResponse(200, { ...course, priceAmount: 0 }) });
    renderPage();
    expect(await screen.findByText('Not on sale')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy now' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Email/)).not.toBeInTheDocument();
  });

  it('confirms the payment after Stripe sends the buyer back (?purchase=success)', async () => {
    fakeApi({ [COURSE]: () => jsonResponse(200, course) });
    renderPage('/c/c-knife?purchase=success');
    expect(await screen.findByTestId('purchase-confirmation')).toHaveTextContent(`${PURCHASE_RECEIVED} ${PURCHASE_NEXT}`);
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy now' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to start learning' })).toHaveAttribute('href', '/auth/login');
  });

  it('names a creator without a page as plain text (no link) with their initials', async () => {
    fakeApi({ [COURSE]: () => jsonResponse(200, { ...course, creatorName: 'Course creator', creatorSlug: null }) });
    renderPage();
    expect(await screen.findByText('Course creator', { selector: 'span' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Course creator' })).not.toBeInTheDocument();
    expect(screen.getByTestId('creator-avatar-initials')).toHaveTextContent('CC');
  });

  it('says when the course does not exist or is not published (404)', async () => {
    const fetchMock = fakeApi({ [COURSE]: () => errorResponse(404, 'NOT_FOUND', 'Course not found.') });
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: "This course isn't available" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Course not found · Course Platform');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('offers to try again when the page could not be loaded', async () => {
    let fail = true;
    fakeApi({ [COURSE]: () => (fail ? errorResponse(500, 'INTERNAL', 'Boom') : jsonResponse(200, course)) });
    const { user } = renderPage();
    expect(await screen.findByRole('heading', { name: 'This page could not be loaded' })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Knife skills' })).toBeInTheDocument();
  });
});
