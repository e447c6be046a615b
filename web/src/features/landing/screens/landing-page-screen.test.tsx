import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { landingMessages as m } from '../landing-messages.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, planLoaded, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { spyOnToasts } from '@/test/toasts.ts';
import { acmeSettings, generatedHtml, savedPage } from '../test/render.tsx';
import { LandingPageScreen, type CreditsState } from './landing-page-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
vi.mock('@/lib/config.ts', () => ({ getConfig: () => ({ PagesUrl: 'http://pages.test' }) }));

const ready = (remaining: number): CreditsState => ({ status: 'ready', remaining });

function renderScreen(credits: CreditsState = ready(50)) {
  const onCreditsChanged = vi.fn<(creditsRemaining?: number) => void>();
  const rendered = renderWithProviders(<LandingPageScreen credits={credits} onCreditsChanged={onCreditsChanged} creditsCard={<p>credits card</p>} />);
  return { ...rendered, onCreditsChanged };
}

const companyName = () => screen.getByRole('textbox', { name: 'Company/Brand Name' });
const businessType = () => screen.getByRole('combobox', { name: 'Business Type/Industry' });
const generateButton = () => screen.getByRole('button', { name: /^Generate Landing Page \(15 Credits\)$|^Generating\.\.\.$/ });
const preview = () => screen.getByTitle('Preview of your landing page');

async function fillRequired(user: ReturnType<typeof renderScreen>['user'], name = 'Acme Academy') {
  await user.type(companyName(), name);
  await user.selectOptions(businessType(), 'education');
}

spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

describe('LandingPageScreen: the form', () => {
  it("has SPEC.md's fields: the two selects with their options, the two 3-row textareas", async () => {
    fakeApi({ 'GET /api/landing-page': () => jsonResponse(200, null) });
    renderScreen();

    await screen.findByRole('form', { name: 'Describe your brand' });
    expect(within(businessType()).getAllByRole('option').slice(1).map((o) => o.getAttribute('value'))).toEqual([
      'business', 'technology', 'design', 'health', 'education', 'finance', 'lifestyle', 'other',
    ]);
    const theme = screen.getByRole('combobox', { name: 'Color Theme' });
    expect(within(theme).getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual(['professional', 'modern', 'warm', 'fresh', 'elegant', 'vibrant']);
    expect(screen.getByRole('textbox', { name: 'Mission Statement' })).toHaveAttribute('rows', '3');
    expect(screen.getByRole('textbox', { name: 'Problem You Solve' })).toHaveAttribute('rows', '3');
    expect(screen.getByText('No landing page yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Landing Page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Customize Further' })).toBeDisabled();
    expect(screen.queryByRole('region', { name: 'Publish' })).not.toBeInTheDocument();
  });

  it('enables Generate only once the company name and the business type are filled', async () => {
    fakeApi({ 'GET /api/landing-page': () => jsonResponse(200, null) });
    const { user } = renderScreen(ready(15));

    await screen.findByRole('form', { name: 'Describe your brand' });
    expect(generateButton()).toBeDisabled();
    await user.type(companyName(), '   ');
    await user.selectOptions(businessType(), 'education');
    expect(generateButton()).toBeDisabled();
    await user.type(companyName(), 'Acme');
    expect(generateButton()).toBeEnabled();
    expect(screen.getByTestId('generate-hint')).toHaveTextContent('Uses 15 of your 15 AI credits.');
  });

  it('keeps Generate disabled with fewer than 15 credits, and says why', async () => {
    fakeApi({ 'GET /api/landing-page': () => jsonResponse(200, null) });
    const { user } = renderScreen(ready(14));
    await screen.findByRole('form', { name: 'Describe your brand' });
    await fillRequired(user);

    expect(generateButton()).toBeDisabled();
    expect(screen.getByTestId('generate-hint')).toHaveTextContent('You have 14 AI credits; a landing page costs 15.');
    expect(generateButton()).toHaveAccessibleDescription(/You have 14 AI credits/);
  });

  it.each([
    [{ status: 'loading' } as const, 'Checking your AI credits...'],
    [{ status: 'error' } as const, 'Your AI credits could not be loaded'],
  ])('keeps Generate disabled while the credits are %o', async (credits, hint) => {
    fakeApi({ 'GET /api/landing-page': () => jsonResponse(200, null) });
    const { user } = renderScreen(credits);
    await screen.findByRole('form', { name: 'Describe your brand' });
    await fillRequired(user);

    expect(generateButton()).toBeDisabled();
    expect(screen.getByTestId('generate-hint')).toHaveTextContent(hint);
  });
});

describe('LandingPageScreen: generating', () => {
  it("reads 'Generating...', then shows the page in a sandboxed preview, toasts success and reports the new balance", async () => {
    let answer!: (res: Response) => void;
    const fetchMock = fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, null),
      'POST /api/landing-pages/generate': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const { user, onCreditsChanged } = renderScreen();
    await screen.findByRole('form', { name: 'Describe your brand' });
    await fillRequired(user);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Color Theme' }), 'warm');
    await user.type(screen.getByRole('textbox', { name: 'Mission Statement' }), 'Teach everyone to paint.');
    await user.type(screen.getByRole('textbox', { name: 'Problem You Solve' }), 'Art classes are expensive.');

    await user.click(generateButton());

    expect(await screen.findByRole('button', { name: 'Generating...' })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Generating your landing page...');
    const [call] = callsTo(fetchMock, 'POST', '/api/landing-pages/generate');
    expect(call?.body).toEqual(acmeSettings);
    expect(call?.headers.get('Idempotency-Key')).toMatch(/^[\w.:-]{8,200}$/);

    answer(jsonResponse(200, { html: generatedHtml('Acme Academy'), creditsRemaining: 35 }));

    await vi.waitFor(() => expect(preview()).toHaveAttribute('srcdoc', generatedHtml('Acme Academy')));
    expect(toast.success).toHaveBeenCalledWith('Landing page generated!', { description: 'Your AI-powered landing page is ready for customization.' });
    expect(onCreditsChanged).toHaveBeenCalledWith(35);
    expect(screen.getByTestId('preview-status')).toHaveTextContent('Unsaved changes');
    expect(screen.getByRole('button', { name: 'Save Landing Page' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Customize Further' })).toBeEnabled();
  });

  it('renders the preview in an iframe whose sandbox allows nothing: no same origin, no scripts', async () => {
    fakeApi({ 'GET /api/landing-page': () => jsonResponse(200, savedPage) });
    renderScreen();

    const frame = await screen.findByTitle('Preview of your landing page');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('sandbox')).not.toMatch(/allow-same-origin|allow-scripts/);
    expect(frame.closest('[data-testid="landing-preview"]')).toHaveClass('h-96', 'max-h-96');
  });

  it('sends a new Idempotency-Key with every click on Generate', async () => {
    const fetchMock = fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, null),
      'POST /api/landing-pages/generate': () => jsonResponse(200, { html: generatedHtml('Acme'), creditsRemaining: 35 }),
    });
    const { user } = renderScreen();
    await screen.findByRole('form', { name: 'Describe your brand' });
    await fillRequired(user);

    await user.click(generateButton());
    await vi.waitFor(() => expect(generateButton()).toBeEnabled());
    await user.click(generateButton());
    await vi.waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/landing-pages/generate')).toHaveLength(2));

    const [first, second] = callsTo(fetchMock, 'POST', '/api/landing-pages/generate').map((c) => c.headers.get('Idempotency-Key'));
    expect(first).not.toBe(second);
  });

  it("toasts 'Insufficient AI Credits' when the server finds the credits short (402), and refreshes the credits", async () => {
    fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, null),
      'POST /api/landing-pages/generate': () => errorResponse(402, 'INSUFFICIENT_CREDITS', 'You need 15 credits; you have 5.'),
    });
    const { user, onCreditsChanged } = renderScreen();
    await screen.findByRole('form', { name: 'Describe your brand' });
    await fillRequired(user);

    await user.click(generateButton());

    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Insufficient AI Credits', {
        description: 'You need 15 AI credits to generate a landing page. Please top up your credits.',
      }),
    );
    expect(onCreditsChanged).toHaveBeenCalledWith();
    expect(screen.getByText('No landing page yet')).toBeInTheDocument();
  });

  it("toasts 'Generation failed' when the model fails (502), and keeps the page that was there", async () => {
    fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, savedPage),
      'POST /api/landing-pages/generate': () => errorResponse(502, 'UPSTREAM_FAILED', 'There was an error generating your landing page.'),
    });
    const { user, onCreditsChanged } = renderScreen();
    await screen.findByTitle('Preview of your landing page');

    await user.click(generateButton());

    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Generation failed', { description: 'There was an error generating your landing page.' }),
    );
    expect(onCreditsChanged).toHaveBeenCalled();
    expect(preview()).toHaveAttribute('srcdoc', savedPage.content);
  });

  it('says a generation is already running when the server answers 409', async () => {
    fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, null),
      'POST /api/landing-pages/generate': () => errorResponse(409, 'CONFLICT', 'A landing page is already being generated.'),
    });
    const { user } = renderScreen();
    await screen.findByRole('form', { name: 'Describe your brand' });
    await fillRequired(user);

    await user.click(generateButton());

    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(m.generationRunning.title, { description: m.generationRunning.description }));
    expect(m.generationRunning.description).toMatch(/already being generated/);
  });
});

describe('LandingPageScreen: saving and loading', () => {
  it('saves the generated page with the settings as the form shows them, and toasts success', async () => {
    const fetchMock = fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, null),
      'POST /api/landing-pages/generate': () => jsonResponse(200, { html: generatedHtml('Acme'), creditsRemaining: 35 }),
      'PUT /api/landing-page': (init) => {
        const body = JSON.parse(init?.body as string) as { content: string; settings: typeof acmeSettings };
        return jsonResponse(200, { ...body, updatedAt: '2026-11-21T10:00:00.000Z', publication: null });
      },
    });
    const { user } = renderScreen();
    await screen.findByRole('form', { name: 'Describe your brand' });
    await fillRequired(user, 'Acme');
    await user.click(generateButton());
    await vi.waitFor(() => expect(preview()).toHaveAttribute('srcdoc', generatedHtml('Acme')));

    await user.click(screen.getByRole('button', { name: 'Save Landing Page' }));

    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Landing page saved!', { description: 'Your landing page has been saved successfully.' }),
    );
    expect(callsTo(fetchMock, 'PUT', '/api/landing-page')[0]?.body).toEqual({
      content: generatedHtml('Acme'),
      settings: { companyName: 'Acme', businessType: 'education', colorTheme: 'professional', missionStatement: '', problemSolved: '' },
    });
    expect(screen.getByTestId('preview-status')).toHaveTextContent('Saved');
    expect(screen.getByRole('button', { name: 'Save Landing Page' })).toBeDisabled();
    expect(await screen.findByRole('region', { name: 'Publish' })).toBeInTheDocument();
  });

  it("toasts 'Authentication required' when the save is unauthenticated (401)", async () => {
    fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, savedPage),
      'PUT /api/landing-page': () => errorResponse(401, 'UNAUTHENTICATED', 'Sign in first.'),
    });
    const { user } = renderScreen();
    await screen.findByTitle('Preview of your landing page');
    await user.type(screen.getByRole('textbox', { name: 'Mission Statement' }), ' Daily.');

    await user.click(screen.getByRole('button', { name: 'Save Landing Page' }));

    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Authentication required', { description: 'Please log in to save your landing page.' }),
    );
  });

  it("toasts 'Save failed' (destructive) when the save fails otherwise", async () => {
    fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, savedPage),
      'PUT /api/landing-page': () => errorResponse(500, 'INTERNAL', 'Internal error'),
    });
    const { user } = renderScreen();
    await screen.findByTitle('Preview of your landing page');
    await user.type(screen.getByRole('textbox', { name: 'Mission Statement' }), ' Daily.');

    await user.click(screen.getByRole('button', { name: 'Save Landing Page' }));

    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Save failed', { description: 'There was an error saving your landing page.' }));
    expect(screen.getByTestId('preview-status')).toHaveTextContent('Unsaved changes');
  });

  it('loads the saved settings into the form and the saved page into the preview', async () => {
    fakeApi({ 'GET /api/landing-page': () => jsonResponse(200, savedPage) });
    renderScreen();

    expect(await screen.findByTitle('Preview of your landing page')).toHaveAttribute('srcdoc', savedPage.content);
    expect(companyName()).toHaveValue('Acme Academy');
    expect(businessType()).toHaveValue('education');
    expect(screen.getByRole('combobox', { name: 'Color Theme' })).toHaveValue('warm');
    expect(screen.getByRole('textbox', { name: 'Mission Statement' })).toHaveValue('Teach everyone to paint.');
    expect(screen.getByRole('textbox', { name: 'Problem You Solve' })).toHaveValue('Art classes are expensive.');
    expect(screen.getByTestId('preview-status')).toHaveTextContent('Saved');
  });

  it('shows a loading state, then an error with a retry when the saved page cannot be loaded', async () => {
    let fail = true;
    fakeApi({ 'GET /api/landing-page': () => (fail ? errorResponse(500, 'INTERNAL', 'Internal error') : jsonResponse(200, savedPage)) });
    const { user } = renderScreen();

    expect(screen.getByText('Loading your landing page...')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your landing page could not be loaded');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTitle('Preview of your landing page')).toHaveAttribute('srcdoc', savedPage.content);
  });
});

describe('LandingPageScreen without a plan (issue 29)', () => {
  const published = { ...savedPage, publication: { slug: 'acme-academy', path: '/p/acme-academy', publishedAt: '2026-11-20T11:00:00.000Z' } };

  it('shows the saved page read-only with the way to a plan: nothing to generate, save, customize or publish', async () => {
    const fetchMock = fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, published),
      'GET /api/me/subscription': () => jsonResponse(200, subscription(null)),
    });
    renderScreen();

    expect(await screen.findByText('Choose a plan to generate landing pages')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute('href', '/dashboard/creator');
    expect(await screen.findByTitle('Preview of your landing page')).toHaveAttribute('srcdoc', savedPage.content);
    expect(companyName()).toHaveValue('Acme Academy');
    expect(companyName()).toBeDisabled();
    expect(generateButton()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save Landing Page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Customize Further' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Publish again' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Unpublish' })).toBeDisabled();
    // The public page stays reachable.
    expect(screen.getByTestId('public-link')).toHaveAttribute('href', 'http://pages.test/p/acme-academy');
    expect(fetchMock.mock.calls.map(([, init]) => init?.method ?? 'GET').filter((method) => method !== 'GET')).toEqual([]);
  });

  it('keeps every control for a creator on a plan', async () => {
    fakeApi({
      'GET /api/landing-page': () => jsonResponse(200, published),
      'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')),
    });
    const { queryClient } = renderScreen();

    await planLoaded(queryClient);
    expect(await screen.findByRole('button', { name: 'Publish again' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Customize Further' })).toBeEnabled();
    expect(companyName()).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Unpublish' })).toBeEnabled();
    expect(screen.queryByText('Choose a plan to generate landing pages')).not.toBeInTheDocument();
  });
});
