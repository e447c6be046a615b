import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { LandingPageScreen } from '../screens/landing-page-screen.tsx';
import { callsTo, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { generatedHtml, savedPage } from '../test/render.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
vi.mock('@/lib/config.ts', () => ({ getConfig: () => ({ PagesUrl: 'http://pages.test' }) }));

spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

async function openEditor() {
  const fetchMock = fakeApi({
    'GET /api/landing-page': () => jsonResponse(200, savedPage),
    'PUT /api/landing-page': (init) => jsonResponse(200, { ...(JSON.parse(init?.body as string) as object), updatedAt: '2026-11-21T10:00:00.000Z', publication: null }),
  });
  const rendered = renderWithProviders(<LandingPageScreen credits={{ status: 'ready', remaining: 50 }} onCreditsChanged={() => undefined} />);
  await rendered.user.click(await screen.findByRole('button', { name: 'Customize Further' }));
  return { ...rendered, fetchMock, dialog: await screen.findByRole('dialog', { name: 'Customize your landing page' }) };
}

describe("LandingEditor ('Customize Further')", () => {
  it('opens a dialog with the settings, the HTML source and a sandboxed live preview that follows the edits', async () => {
    const { user, dialog } = await openEditor();

    expect(within(dialog).getByRole('textbox', { name: 'Company/Brand Name' })).toHaveValue('Acme Academy');
    const source = within(dialog).getByRole('textbox', { name: 'HTML source' });
    expect(source).toHaveValue(savedPage.content);
    expect(source).toHaveClass('font-mono');
    const live = within(dialog).getByTitle('Live preview of your edited landing page');
    expect(live).toHaveAttribute('sandbox', '');

    await user.clear(source);
    await user.paste(generatedHtml('Acme Studio'));

    await vi.waitFor(() => expect(live).toHaveAttribute('srcdoc', generatedHtml('Acme Studio')));
  });

  it('saves the edited settings and HTML, closes, and shows the saved page in the preview and the form', async () => {
    const { user, dialog, fetchMock } = await openEditor();
    const name = within(dialog).getByRole('textbox', { name: 'Company/Brand Name' });
    await user.clear(name);
    await user.type(name, 'Acme Studio');
    const source = within(dialog).getByRole('textbox', { name: 'HTML source' });
    await user.clear(source);
    await user.paste(generatedHtml('Acme Studio'));

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'PUT', '/api/landing-page')[0]?.body).toEqual({
      content: generatedHtml('Acme Studio'),
      settings: { ...savedPage.settings, companyName: 'Acme Studio' },
    });
    expect(toast.success).toHaveBeenCalledWith('Landing page saved!', { description: 'Your landing page has been saved successfully.' });
    expect(screen.getByTitle('Preview of your landing page')).toHaveAttribute('srcdoc', generatedHtml('Acme Studio'));
    expect(screen.getByRole('textbox', { name: 'Company/Brand Name' })).toHaveValue('Acme Studio');
    expect(screen.getByTestId('preview-status')).toHaveTextContent('Saved');
  });

  it('refuses an empty page, and closes with Escape without saving', async () => {
    const { user, dialog, fetchMock } = await openEditor();
    await user.clear(within(dialog).getByRole('textbox', { name: 'HTML source' }));

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The page is empty.')).toBeInTheDocument();

    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'PUT', '/api/landing-page')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Customize Further' })).toHaveFocus();
  });
});
