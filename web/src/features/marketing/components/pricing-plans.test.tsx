import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { plans } from '@contracts/plans.ts';
import { Toaster } from '@/components/ui/toaster.tsx';
import { isSignedIn } from '@/lib/auth.ts';
import { getProfile, type Me } from '@/lib/session.ts';
import { NON_CREATOR_MESSAGE, PricingPlans } from './pricing-plans.tsx';

vi.mock('@/lib/auth.ts', () => ({
  isSignedIn: vi.fn(),
  getAccessToken: vi.fn(() => Promise.resolve('access-token')),
}));
vi.mock('@/lib/session.ts', () => ({ getProfile: vi.fn() }));

function profile(role: Me['role']): Me {
  return { id: 'user-1', email: `${role}@example.com`, role, createdAt: '2025-01-01T00:00:00.000Z' };
}

function signedInAs(role: Me['role'] | null): void {
  vi.mocked(isSignedIn).mockResolvedValue(role !== null);
  vi.mocked(getProfile).mockResolvedValue(role ? profile(role) : null);
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function renderPlans(props: Parameters<typeof PricingPlans>[0] = {}) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <PricingPlans {...props} /> },
      { path: '/auth/signup', element: <h1>Create an account</h1> },
    ],
    { initialEntries: ['/'] },
  );
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), router };
}

/** The toast carrying this description (sonner keeps earlier tests' toasts in its module state). */
async function findToast(description: string): Promise<HTMLElement> {
  const text = await screen.findByText(description);
  const toast = text.closest<HTMLElement>('[data-sonner-toast]');
  if (!toast) throw new Error(`'${description}' is not inside a toast`);
  return toast;
}

function card(planType: 'starter' | 'pro'): HTMLElement {
  return screen.getByTestId(`plan-${planType}`);
}

const fetchMock = vi.fn<typeof fetch>();
const assign = vi.fn<(url: string) => void>();
const alertMock = vi.fn<(message?: string) => void>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('alert', alertMock);
  // jsdom's location cannot be spied on; the component only needs origin and assign.
  vi.stubGlobal('location', { origin: 'http://app.test', assign, hash: '', href: 'http://app.test/' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  assign.mockReset();
  alertMock.mockReset();
});

describe('PricingPlans', () => {
  it('shows Starter at £28/month with its 14-day trial and Pro at £67/month marked Most Popular', () => {
    signedInAs(null);
    renderPlans();

    expect(within(card('starter')).getByRole('heading', { name: 'Starter' })).toBeInTheDocument();
    expect(card('starter')).toHaveTextContent('£28/month');
    expect(card('starter')).toHaveTextContent('Free for 14 days, then billed monthly');
    expect(within(card('starter')).queryByText('Most Popular')).not.toBeInTheDocument();

    expect(within(card('pro')).getByRole('heading', { name: 'Pro' })).toBeInTheDocument();
    expect(card('pro')).toHaveTextContent('£67/month');
    expect(within(card('pro')).getByText('Most Popular')).toBeInTheDocument();
  });

  it("promises a creator who has had their trial no trial at all: Starter is 'Billed monthly, cancel anytime'", () => {
    signedInAs('creator');
    renderPlans({ trialAvailable: false });

    expect(card('starter')).toHaveTextContent('£28/month');
    expect(card('starter')).toHaveTextContent('Billed monthly, cancel anytime');
    expect(card('starter')).not.toHaveTextContent('Free for 14 days');
    expect(card('starter')).not.toHaveTextContent(/free trial/i);
    const starterFeatures = within(within(card('starter')).getByRole('list', { name: 'Starter features' })).getAllByRole('listitem');
    expect(starterFeatures.map((item) => item.textContent)).toEqual(plans.starter.features.slice(1));
    expect(within(within(card('pro')).getByRole('list', { name: 'Pro features' })).getAllByRole('listitem')).toHaveLength(plans.pro.features.length);
  });

  it("lists each plan's features from the spec, in order", () => {
    signedInAs(null);
    renderPlans();

    const starterFeatures = within(within(card('starter')).getByRole('list', { name: 'Starter features' })).getAllByRole('listitem');
    expect(starterFeatures.map((item) => item.textContent)).toEqual([
      '14-day free trial',
      'Unlimited course creation',
      'Student progress tracking',
      'Basic analytics',
      'Email support',
      'Course builder tools',
      'File hosting',
    ]);
    const proFeatures = within(within(card('pro')).getByRole('list', { name: 'Pro features' })).getAllByRole('listitem');
    expect(proFeatures.map((item) => item.textContent)).toEqual([...plans.pro.features]);
    expect(proFeatures[0]).toHaveTextContent('Everything in Starter');
    expect(proFeatures.at(-1)).toHaveTextContent('API access');
  });

  it("sends an anonymous visitor's 'Get Started' to /auth/signup without calling the API", async () => {
    signedInAs(null);
    const { user, router } = renderPlans();

    await user.click(within(card('pro')).getByRole('button', { name: 'Get Started' }));

    expect(await screen.findByRole('heading', { name: 'Create an account' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/signup');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(alertMock).not.toHaveBeenCalled();
  });

  it.each(['learner', 'leader', 'admin'] as const)(
    'refuses a signed-in %s with the alert and the same text inline, and starts no checkout',
    async (role) => {
      signedInAs(role);
      const { user, router } = renderPlans();

      await user.click(within(card('starter')).getByRole('button', { name: 'Get Started' }));

      expect(await screen.findByRole('alert')).toHaveTextContent(NON_CREATOR_MESSAGE);
      expect(alertMock).toHaveBeenCalledExactlyOnceWith(
        'Only creators can subscribe to paid plans. Learners and Group Leaders are invited by creators.',
      );
      expect(fetchMock).not.toHaveBeenCalled();
      expect(router.state.location.pathname).toBe('/');
      expect(within(card('starter')).getByRole('button', { name: 'Get Started' })).toBeEnabled();
    },
  );

  it("shows 'Processing...' while a creator's checkout is created, then goes to the checkout page", async () => {
    signedInAs('creator');
    let answer!: (res: Response) => void;
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { user } = renderPlans();

    await user.click(within(card('pro')).getByRole('button', { name: 'Get Started' }));

    const busy = await within(card('pro')).findByRole('button', { name: 'Processing...' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    // One checkout at a time: the other plan waits.
    expect(within(card('starter')).getByRole('button', { name: 'Get Started' })).toBeDisabled();

    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe('/api/billing/checkout');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer access-token');
    expect(new Headers(init?.headers).get('Idempotency-Key')).toMatch(/^[\w.:-]{8,200}$/);
    expect(JSON.parse(init?.body as string)).toEqual({
      planType: 'pro',
      successUrl: 'http://app.test/checkout/success',
      cancelUrl: 'http://app.test/#pricing',
    });

    answer(jsonResponse(200, { url: 'http://127.0.0.1:12111/checkout/cs_test_1' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledExactlyOnceWith('http://127.0.0.1:12111/checkout/cs_test_1'));
    // Still busy while the browser leaves for the checkout page.
    expect(within(card('pro')).getByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(alertMock).not.toHaveBeenCalled();
  });

  it("shows toast 'Error' with the server's message when the checkout cannot be created, and lets the creator retry", async () => {
    signedInAs('creator');
    fetchMock.mockResolvedValue(
      jsonResponse(404, { error: { code: 'NOT_FOUND', message: 'No route for POST /api/billing/checkout.' } }),
    );
    const { user } = renderPlans();

    await user.click(within(card('starter')).getByRole('button', { name: 'Get Started' }));

    const toast = await findToast('No route for POST /api/billing/checkout.');
    expect(within(toast).getByText('Error', { exact: true })).toBeInTheDocument();
    expect(await within(card('starter')).findByRole('button', { name: 'Get Started' })).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
  });

  it('sends a lost checkout request again with the same Idempotency-Key, and a new click with a new one', async () => {
    signedInAs('creator');
    fetchMock
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(jsonResponse(200, { url: 'http://127.0.0.1:12111/checkout/cs_test_3' }))
      .mockResolvedValueOnce(jsonResponse(200, { url: 'http://127.0.0.1:12111/checkout/cs_test_4' }));
    const { user } = renderPlans();
    const keys = () => fetchMock.mock.calls.map(([, init]) => new Headers(init?.headers).get('Idempotency-Key'));

    await user.click(within(card('starter')).getByRole('button', { name: 'Get Started' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledExactlyOnceWith('http://127.0.0.1:12111/checkout/cs_test_3'), { timeout: 3_000 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [first, retry] = keys();
    expect(retry).toBe(first);

    // Back from the checkout page (back-forward cache), the creator chooses again: a new intent.
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await user.click(await within(card('starter')).findByRole('button', { name: 'Get Started' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(2));
    expect(keys()[2]).not.toBe(first);
  });

  it("falls back to toast 'Error' / 'Failed to create checkout session' when the failure says nothing", async () => {
    signedInAs('creator');
    vi.mocked(getProfile).mockRejectedValueOnce(new Error(''));
    const { user } = renderPlans();

    await user.click(within(card('pro')).getByRole('button', { name: 'Get Started' }));

    const toast = await findToast('Failed to create checkout session');
    expect(within(toast).getByText('Error', { exact: true })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(within(card('pro')).getByRole('button', { name: 'Get Started' })).toBeEnabled();
  });

  it('returns a cancelled checkout to the page that offered the plans (the creator dashboard)', async () => {
    signedInAs('creator');
    fetchMock.mockResolvedValue(jsonResponse(200, { url: 'http://127.0.0.1:12111/checkout/cs_test_2' }));
    const { user } = renderPlans({ cancelPath: '/dashboard/creator' });

    await user.click(within(card('starter')).getByRole('button', { name: 'Get Started' }));

    await vi.waitFor(() => expect(assign).toHaveBeenCalledOnce());
    expect(JSON.parse(fetchMock.mock.calls[0]![1]?.body as string)).toEqual({
      planType: 'starter',
      successUrl: 'http://app.test/checkout/success',
      cancelUrl: 'http://app.test/dashboard/creator',
    });
  });
});
