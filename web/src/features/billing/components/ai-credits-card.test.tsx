import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Credits } from '@contracts/credits.ts';
import { errorResponse, fakeApi, findToast, jsonResponse, planLoaded, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { stubLocation } from '../test/render.tsx';
import { AiCreditsCard } from './ai-credits-card.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));

// Midday UTC, so the month and day are the same in every time zone the tests may run in.
const starter: Credits = {
  creditsRemaining: 35,
  creditsUsed: 15,
  monthlyAllocation: 50,
  planType: 'starter',
  billingPeriodEnd: '2026-12-05T12:00:00.000Z',
  low: false,
  lastTransaction: { actionType: 'landing_page_generation', credits: -15, createdAt: '2026-11-20T10:00:00.000Z' },
};

const card = () => screen.getByRole('region', { name: 'AI Credits' });

let assign: ReturnType<typeof stubLocation>;
beforeEach(() => {
  assign = stubLocation();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.unstubAllGlobals());

describe('AiCreditsCard', () => {
  it('shows a loading skeleton, busy, while the credits load', () => {
    fakeApi({ 'GET /api/me/credits': () => new Promise<Response>(() => undefined) });
    renderWithProviders(<AiCreditsCard />);

    expect(card()).toHaveAttribute('aria-busy', 'true');
    expect(within(card()).getByTestId('credits-skeleton')).toBeInTheDocument();
    expect(within(card()).getByText('Loading your AI credits...')).toBeInTheDocument();
    expect(within(card()).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says credits come with a plan when the creator has no credit account, and offers no top-up', async () => {
    fakeApi({ 'GET /api/me/credits': () => jsonResponse(200, null) });
    renderWithProviders(<AiCreditsCard />);

    expect(await within(card()).findByText('No AI credits yet')).toBeInTheDocument();
    expect(card()).toHaveTextContent('AI credits come with a plan');
    expect(within(card()).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(card()).queryByRole('button')).not.toBeInTheDocument();
  });

  it("shows 'Starter Plan', the balance, the percent left as a progress bar, what was used and 'Resets Dec 5'", async () => {
    fakeApi({ 'GET /api/me/credits': () => jsonResponse(200, starter) });
    renderWithProviders(<AiCreditsCard />);

    const bar = await within(card()).findByRole('progressbar', { name: 'Monthly credits left' });
    expect(bar).toHaveAttribute('aria-valuenow', '70');
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    expect(bar).toHaveAttribute('aria-valuetext', '70% (35 of 50 credits)');
    expect(within(card()).getByText('Starter Plan')).toBeInTheDocument();
    expect(within(card()).getByTestId('credits-remaining')).toHaveTextContent('35');
    expect(within(card()).getByTestId('credits-ratio')).toHaveTextContent('35 / 50');
    expect(card()).toHaveTextContent('Used this period15');
    expect(within(card()).getByTestId('credits-reset')).toHaveTextContent('Resets Dec 5');
    expect(within(card()).queryByTestId('credits-low')).not.toBeInTheDocument();
  });

  it("names any plan other than starter 'Pro Plan', and caps the bar at 100% when bought credits exceed the allocation", async () => {
    fakeApi({
      'GET /api/me/credits': () =>
        jsonResponse(200, { ...starter, planType: 'pro', monthlyAllocation: 200, creditsRemaining: 300, creditsUsed: 0, billingPeriodEnd: '2027-01-31T12:00:00.000Z' }),
    });
    renderWithProviders(<AiCreditsCard />);

    expect(await within(card()).findByText('Pro Plan')).toBeInTheDocument();
    expect(within(card()).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(within(card()).getByTestId('credits-ratio')).toHaveTextContent('300 / 200');
    expect(within(card()).getByTestId('credits-reset')).toHaveTextContent('Resets Jan 31');
  });

  it('shows no bar and no reset once the plan has ended (allocation 0), and keeps the held credits', async () => {
    fakeApi({ 'GET /api/me/credits': () => jsonResponse(200, { ...starter, monthlyAllocation: 0, creditsRemaining: 20, low: false }) });
    renderWithProviders(<AiCreditsCard />);

    expect(await within(card()).findByTestId('credits-no-allocation')).toHaveTextContent('Your plan has ended');
    expect(within(card()).getByTestId('credits-remaining')).toHaveTextContent('20');
    expect(within(card()).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(card()).queryByTestId('credits-reset')).not.toBeInTheDocument();
    expect(within(card()).getByRole('button', { name: 'Top up 100 credits' })).toBeEnabled();
  });

  it('warns when the API says the credits are low', async () => {
    fakeApi({ 'GET /api/me/credits': () => jsonResponse(200, { ...starter, creditsRemaining: 5, creditsUsed: 45, low: true }) });
    renderWithProviders(<AiCreditsCard />);

    expect(await within(card()).findByTestId('credits-low')).toHaveTextContent('Low credits.');
    expect(within(card()).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '10');
  });

  it('shows an error with a retry when the credits cannot be loaded, and logs it', async () => {
    let fail = true;
    fakeApi({
      'GET /api/me/credits': () => (fail ? errorResponse(500, 'INTERNAL', 'Internal error') : jsonResponse(200, starter)),
    });
    const { user } = renderWithProviders(<AiCreditsCard />);

    expect(await within(card()).findByRole('alert')).toHaveTextContent('Your AI credits could not be loaded.');
    expect(console.error).toHaveBeenCalled();
    fail = false;
    await user.click(within(card()).getByRole('button', { name: 'Try again' }));
    expect(await within(card()).findByTestId('credits-remaining')).toHaveTextContent('35');
  });

  it("buys 100 credits returning to /dashboard: 'Processing...' while the checkout is created, then the checkout page", async () => {
    let answer!: (res: Response) => void;
    const fetchMock = fakeApi({
      'GET /api/me/credits': () => jsonResponse(200, starter),
      'POST /api/credits/purchase': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const { user } = renderWithProviders(<AiCreditsCard />);

    await user.click(await within(card()).findByRole('button', { name: 'Top up 100 credits' }));

    const busy = await within(card()).findByRole('button', { name: 'Processing...' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    const [, init] = fetchMock.mock.calls.find(([path]) => path === '/api/credits/purchase')!;
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer access-token');
    expect(new Headers(init?.headers).get('Idempotency-Key')).toMatch(/^[\w.:-]{8,200}$/);
    expect(JSON.parse(init?.body as string)).toEqual({
      creditAmount: 100,
      successUrl: 'http://app.test/dashboard',
      cancelUrl: 'http://app.test/dashboard',
    });

    answer(jsonResponse(200, { url: 'http://127.0.0.1:12111/checkout/cs_test_topup' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledExactlyOnceWith('http://127.0.0.1:12111/checkout/cs_test_topup'));
    expect(within(card()).getByRole('button', { name: 'Processing...' })).toBeDisabled();
  });

  it("shows toast 'Error' with the server's message when the top-up fails, and lets the creator try again", async () => {
    fakeApi({
      'GET /api/me/credits': () => jsonResponse(200, starter),
      'POST /api/credits/purchase': () => errorResponse(403, 'FORBIDDEN', 'Subscribe to a plan before buying credits.'),
    });
    const { user } = renderWithProviders(<AiCreditsCard />);

    await user.click(await within(card()).findByRole('button', { name: 'Top up 100 credits' }));

    const toast = await findToast('Subscribe to a plan before buying credits.');
    expect(within(toast).getByText('Error', { exact: true })).toBeInTheDocument();
    expect(await within(card()).findByRole('button', { name: 'Top up 100 credits' })).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
  });

  it("falls back to toast 'Error' / 'Failed to purchase credits' when the failure carries no message", async () => {
    fakeApi({
      'GET /api/me/credits': () => jsonResponse(200, starter),
      'POST /api/credits/purchase': () => errorResponse(500, 'INTERNAL', ''),
    });
    const { user } = renderWithProviders(<AiCreditsCard />);

    await user.click(await within(card()).findByRole('button', { name: 'Top up 100 credits' }));

    const toast = await findToast('Failed to purchase credits');
    expect(within(toast).getByText('Error', { exact: true })).toBeInTheDocument();
  });
});

describe('AiCreditsCard once the plan has ended (issue 29)', () => {
  const ended: Credits = { ...starter, monthlyAllocation: 0, creditsRemaining: 20, low: false };

  it("keeps the held credits and offers 'Choose a plan to top up credits' instead of a top-up the server refuses", async () => {
    const fetchMock = fakeApi({
      'GET /api/me/credits': () => jsonResponse(200, ended),
      'GET /api/me/subscription': () => jsonResponse(200, subscription('starter', { status: 'canceled' })),
    });
    renderWithProviders(<AiCreditsCard />);

    expect(await within(card()).findByRole('link', { name: 'Choose a plan to top up credits' })).toHaveAttribute('href', '/dashboard/creator');
    expect(within(card()).getByTestId('credits-remaining')).toHaveTextContent('20');
    expect(within(card()).queryByRole('button', { name: 'Top up 100 credits' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET')).toEqual([]);
  });

  it('keeps the top-up for a creator on a plan', async () => {
    fakeApi({
      'GET /api/me/credits': () => jsonResponse(200, starter),
      'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')),
    });
    const { queryClient } = renderWithProviders(<AiCreditsCard />);
    await planLoaded(queryClient);
    expect(await within(card()).findByRole('button', { name: 'Top up 100 credits' })).toBeEnabled();
  });
});

describe('AiCreditsCard: the AI tools (issue 36)', () => {
  const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`;
  const history = [
    { actionType: 'quiz_from_lesson_generation', credits: -3, createdAt: at(5) },
    { actionType: 'lesson_draft_refund', credits: 5, createdAt: at(4) },
    { actionType: 'lesson_draft_generation', credits: -5, createdAt: at(3) },
    { actionType: 'course_outline_generation', credits: -5, createdAt: at(2) },
    { actionType: 'landing_page_generation', credits: -15, createdAt: at(1) },
    { actionType: 'credit_top_up', credits: 100, createdAt: at(0) },
    { actionType: 'some_older_action', credits: -1, createdAt: at(0) },
  ];

  it('names the tool of each charge and refund in the history, and shows what each tool costs', async () => {
    fakeApi({
      'GET /api/me/credits': () => jsonResponse(200, { ...starter, history }),
      'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')),
      'GET /api/ai/prices': () => jsonResponse(200, { landingPage: 15, courseOutline: 5, lessonDraft: 5, quizFromLesson: 3 }),
    });
    renderWithProviders(<AiCreditsCard />);

    const lines = within(await within(card()).findByTestId('credits-history')).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual([
      'Quiz from a lessonNov 20Used −3',
      'Lesson draft: refundNov 20Added +5',
      'Lesson draftNov 20Used −5',
      'Course outlineNov 20Used −5',
      'Landing pageNov 20Used −15',
      'Top-upNov 20Added +100',
      'Some older actionNov 20Used −1',
    ]);
    const prices = await within(card()).findByTestId('ai-prices');
    expect(prices).toHaveTextContent('Landing page15 credits');
    expect(prices).toHaveTextContent('Course outline5 credits');
    expect(prices).toHaveTextContent('Lesson draft5 credits');
    expect(prices).toHaveTextContent('Quiz from a lesson3 credits');
  });

  it('says there is nothing yet when the ledger is empty', async () => {
    fakeApi({
      'GET /api/me/credits': () => jsonResponse(200, { ...starter, history: [] }),
      'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')),
      'GET /api/ai/prices': () => jsonResponse(200, { landingPage: 15, courseOutline: 5, lessonDraft: 5, quizFromLesson: 3 }),
    });
    renderWithProviders(<AiCreditsCard />);
    expect(await within(card()).findByText('Nothing yet. Charges and refunds show here.')).toBeInTheDocument();
  });
});
