import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deleteAccountMessages } from '@/components/delete-account-section.tsx';
import { yourDataMessages } from '@/components/your-data-section.tsx';
import { paths } from '@/lib/paths.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { AdminSettingsScreen } from './admin-settings-screen.tsx';

const setting = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling;

describe('AdminSettingsScreen', () => {
  it('shows the plans, credits and sending rules the platform applies, from the shared contracts', () => {
    renderWithProviders(<AdminSettingsScreen />);
    expect(setting('Starter plan')).toHaveTextContent('£28 a month, 14-day free trial (once per creator)');
    expect(setting('Pro plan')).toHaveTextContent('£67 a month, no trial');
    expect(setting('Monthly credits, Starter')).toHaveTextContent('50 credits');
    expect(setting('AI landing page')).toHaveTextContent('15 credits per generation');
    expect(setting('Top-up pack')).toHaveTextContent('100 credits for £5');
    expect(setting('Batch size')).toHaveTextContent('Up to 50 recipients per SES call');
    // Read-only: they change with a release, not from this page. The only actions are the admin's own account's.
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([yourDataMessages.request, deleteAccountMessages.open]);
  });

  it("offers the admin their own data and account deletion, saying another admin must remain", async () => {
    const { user } = renderWithProviders(<AdminSettingsScreen />);
    const account = screen.getByRole('region', { name: 'Your account' });
    expect(within(account).getByRole('heading', { name: yourDataMessages.title })).toBeInTheDocument();
    await user.click(within(account).getByRole('button', { name: deleteAccountMessages.open }));
    const dialog = await screen.findByRole('alertdialog', { name: deleteAccountMessages.dialogTitle });
    expect(within(dialog).getByText(/Another admin must remain/)).toBeInTheDocument();
  });

  it("opens at the billing section for the dashboard's 'Billing Settings' link: the plans and credits, focused", async () => {
    renderWithProviders(<AdminSettingsScreen />, { path: paths.admin.billing });
    const billing = screen.getByRole('region', { name: 'Billing' });
    expect(billing).toHaveAttribute('id', new URL(paths.admin.billing, 'http://x').hash.slice(1));
    expect(within(billing).getByRole('heading', { name: 'Plans' })).toBeInTheDocument();
    expect(within(billing).getByText('Top-up pack')).toBeInTheDocument();
    await waitFor(() => expect(billing).toHaveFocus());
  });
});
