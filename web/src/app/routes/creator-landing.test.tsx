import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Credits } from '@contracts/credits.ts';
import { fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { generatedHtml } from '@/features/landing/test/render.tsx';
import { CreatorLandingRoute } from './creator-landing.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
vi.mock('@/lib/config.ts', () => ({ getConfig: () => ({}) }));

const account: Credits = {
  creditsRemaining: 20,
  creditsUsed: 30,
  monthlyAllocation: 50,
  planType: 'starter',
  billingPeriodEnd: '2026-12-05T12:00:00.000Z',
  low: false,
  lastTransaction: null,
};

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => vi.unstubAllGlobals());

describe('CreatorLandingRoute', () => {
  it('shows the AI credits card beside the generator, and the card and the button follow each generation', async () => {
    let balance = 20;
    fakeApi({
      'GET /api/me/credits': () => jsonResponse(200, { ...account, creditsRemaining: balance, creditsUsed: 50 - balance }),
      'GET /api/landing-page': () => jsonResponse(200, null),
      'POST /api/landing-pages/generate': () => {
        balance -= 15;
        return jsonResponse(200, { html: generatedHtml('Acme'), creditsRemaining: balance });
      },
    });
    const { user } = renderWithProviders(<CreatorLandingRoute />);
    const card = await screen.findByRole('region', { name: 'AI Credits' });
    expect(await within(card).findByTestId('credits-remaining')).toHaveTextContent('20');

    await user.type(screen.getByRole('textbox', { name: 'Company/Brand Name' }), 'Acme');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Business Type/Industry' }), 'technology');
    const generate = screen.getByRole('button', { name: 'Generate Landing Page (15 Credits)' });
    expect(generate).toBeEnabled();
    await user.click(generate);

    await vi.waitFor(() => expect(within(card).getByTestId('credits-remaining')).toHaveTextContent('5'));
    expect(screen.getByTitle('Preview of your landing page')).toHaveAttribute('srcdoc', generatedHtml('Acme'));
    expect(screen.getByRole('button', { name: 'Generate Landing Page (15 Credits)' })).toBeDisabled();
    expect(screen.getByTestId('generate-hint')).toHaveTextContent('You have 5 AI credits');
  });
});
