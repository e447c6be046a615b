import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { developersMessages } from '../developers-messages.ts';
import { apiKey } from '../test/fixtures.ts';
import { proCreatorApi, useCardTestSetup } from '../test/setup.ts';
import { ApiKeysCard } from './api-keys-card.tsx';

const m = developersMessages.keys;

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
useCardTestSetup();

const open = (props: { referenceShown?: boolean } = { referenceShown: true }) => renderWithProviders(<ApiKeysCard {...props} />, { path: paths.creator.developers });
const findTable = async () => within(await screen.findByRole('region', { name: m.title })).getByRole('table');
const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

/** The API of a Pro creator with these keys; `more` adds or overrides routes. */
const api = proCreatorApi<ReturnType<typeof apiKey>>('GET /api/api-keys');

describe('ApiKeysCard: the list', () => {
  it("lists each key's name, scopes, prefix…last4, creation and last use, and links to the API reference", async () => {
    api([
      apiKey('k1', { name: 'CRM sync', scopes: ['courses:read', 'learners:read'], prefix: 'cp_4fG7', last4: 'Qz9x', lastUsedAt: '2026-11-26T08:00:00.000Z' }),
      apiKey('k2', { name: 'Zapier', scopes: ['enrollments:write'], prefix: 'cp_9hJ2', last4: 'a1B2' }),
    ]);
    open();
    expect(await screen.findByRole('status')).toHaveTextContent(m.loading);
    const table = await findTable();
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Scopes', 'Key', 'Created', 'Last used', 'Actions']);
    expect(rowsOf(table).map(cellsOf)).toEqual([
      ['CRM sync', 'courses:readlearners:read', 'cp_4fG7…Qz9x', '20 Nov 2026', '26 Nov 2026', 'Revoke'],
      ['Zapier', 'enrollments:write', 'cp_9hJ2…a1B2', '20 Nov 2026', 'Never used', 'Revoke'],
    ]);
    expect(within(screen.getByRole('list', { name: 'Scopes of CRM sync' })).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByRole('link', { name: m.reference })).toHaveAttribute('href', '/developers/api');
  });

  it('shows no link to the API reference while its document is not served (availability.ts)', async () => {
    api([apiKey('k1', { name: 'CRM sync' })]);
    open({ referenceShown: false });
    await findTable();
    expect(screen.queryByRole('link', { name: m.reference })).not.toBeInTheDocument();
  });

  it('says there are no keys yet, with Create API key at hand', async () => {
    api([]);
    open();
    expect(await screen.findByRole('heading', { name: m.emptyTitle })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.create })).toBeEnabled();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("offers 'Try again' when the keys cannot be loaded, and lists them once they can", async () => {
    let fail = true;
    api([], { 'GET /api/api-keys': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { items: [apiKey('k1')] })) });
    open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.loadFailed);
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(rowsOf(await findTable())).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('ApiKeysCard: creating a key', () => {
  it('creates a key with a name and scopes, shows it once with Copy, then toasts and lists it', async () => {
    let items = [apiKey('k1', { name: 'Old' })];
    const fetchMock = api([], {
      'GET /api/api-keys': () => jsonResponse(200, { items }),
      'POST /api/api-keys': () => {
        items = [apiKey('k2', { name: 'CRM sync', scopes: ['courses:read', 'sales:read'], last4: 'LAST' }), ...items];
        return jsonResponse(201, { id: 'k2', name: 'CRM sync', scopes: ['courses:read', 'sales:read'], key: 'cp_secretKeyValueLAST', createdAt: '2026-11-27T10:00:00.000Z' });
      },
    });
    const { user } = open();
    await findTable();
    await user.click(screen.getByRole('button', { name: m.create }));
    const dialog = await screen.findByRole('dialog', { name: m.form.title });
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    expect(name).toHaveFocus();
    await user.type(name, 'CRM sync');
    expect(within(dialog).getAllByRole('checkbox').map((box) => box.closest('label')!.textContent)).toEqual([
      'Read coursescourses:read',
      'Enrol and remove learnersenrollments:write',
      'Read learnerslearners:read',
      'Read salessales:read',
    ]);
    await user.click(within(dialog).getByRole('checkbox', { name: /Read sales/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /Read courses/ }));
    await user.click(within(dialog).getByRole('button', { name: m.form.submit }));

    const shown = await screen.findByRole('dialog', { name: m.created.title });
    expect(callsTo(fetchMock, 'POST', '/api/api-keys').map((call) => call.body)).toEqual([{ name: 'CRM sync', scopes: ['courses:read', 'sales:read'] }]);
    const field = within(shown).getByRole('textbox', { name: m.created.field });
    expect(field).toHaveValue('cp_secretKeyValueLAST');
    expect(field).toHaveAttribute('readonly');
    expect(field).toHaveAccessibleDescription(developersMessages.shownOnce);

    await user.click(within(shown).getByRole('button', { name: m.created.copy }));
    expect(within(shown).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('cp_secretKeyValueLAST');
    // No toast over the key's dialog (on a phone it would cover its title): it comes once the dialog is closed.
    expect(toast.success).not.toHaveBeenCalled();

    await user.click(within(shown).getByRole('button', { name: m.created.done }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(toast.success).toHaveBeenCalledExactlyOnceWith('API key created', { description: 'CRM sync is ready to use.' });
    await waitFor(async () => expect(rowsOf(await findTable()).map((row) => cellsOf(row)[0])).toEqual(['CRM sync', 'Old']));
    expect(screen.queryByText('cp_secretKeyValueLAST')).not.toBeInTheDocument();

    // Opened again, the dialog starts from an empty form: the key is not shown twice.
    await user.click(screen.getByRole('button', { name: m.create }));
    expect(within(await screen.findByRole('dialog', { name: m.form.title })).getByRole('textbox', { name: /Name/ })).toHaveValue('');
  });

  it("checks the form with the contract's messages before sending", async () => {
    const fetchMock = api([]);
    const { user } = open();
    await screen.findByRole('heading', { name: m.emptyTitle });
    await user.click(screen.getByRole('button', { name: m.create }));
    const dialog = await screen.findByRole('dialog', { name: m.form.title });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), '   ');
    await user.click(within(dialog).getByRole('button', { name: m.form.submit }));
    expect(await within(dialog).findByText('Name the key.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one scope.')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveFocus();

    await user.clear(within(dialog).getByRole('textbox', { name: /Name/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'x'.repeat(101));
    await user.click(within(dialog).getByRole('checkbox', { name: /Read learners/ }));
    await user.click(within(dialog).getByRole('button', { name: m.form.submit }));
    expect(await within(dialog).findByText("A key's name is at most 100 characters.")).toBeInTheDocument();
    expect(within(dialog).queryByText('Choose at least one scope.')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/api-keys')).toHaveLength(0);
  });

  it('shows the plan card when the server answers PLAN_REQUIRED, and no key', async () => {
    api([], { 'POST /api/api-keys': () => errorResponse(403, 'PLAN_REQUIRED', 'API access is part of the Pro plan.', { requiredPlan: 'pro' }) });
    const { user } = open();
    await screen.findByRole('heading', { name: m.emptyTitle });
    await user.click(screen.getByRole('button', { name: m.create }));
    const dialog = await screen.findByRole('dialog', { name: m.form.title });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'CRM');
    await user.click(within(dialog).getByRole('checkbox', { name: /Read courses/ }));
    await user.click(within(dialog).getByRole('button', { name: m.form.submit }));

    const card = await screen.findByTestId('plan-required-card');
    expect(card).toHaveTextContent(m.plan);
    expect(card).toHaveTextContent('API access is part of the Pro plan.');
    expect(within(card).getByRole('button', { name: 'Upgrade to Pro' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.create })).not.toBeInTheDocument();
  });

  it('shows the plan card instead of Create for a plan without API access, keeping the keys listed', async () => {
    api([apiKey('k1', { name: 'Old' })], { 'GET /api/me/subscription': () => jsonResponse(200, subscription('starter')) });
    open();
    expect(await screen.findByTestId('plan-required-card')).toHaveTextContent(m.planReason);
    expect(rowsOf(await findTable())).toHaveLength(1);
    expect(screen.queryByRole('button', { name: m.create })).not.toBeInTheDocument();
  });
});

describe('ApiKeysCard: revoking a key', () => {
  it('revokes a key only after a confirmation naming it', async () => {
    const fetchMock = api([apiKey('k1', { name: 'CRM sync' }), apiKey('k2', { name: 'Zapier' })], {
      'DELETE /api/api-keys/k1': () => new Response(null, { status: 204 }),
    });
    const { user } = open();
    const table = await findTable();
    await user.click(screen.getByRole('button', { name: 'Revoke CRM sync' }));
    const question = screen.getByRole('alertdialog', { name: 'Revoke CRM sync?' });
    expect(question).toHaveTextContent('Calls with CRM sync are refused from the next one.');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetchMock, 'DELETE', '/api/api-keys/k1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke CRM sync' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: m.revoke.action }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.revoke.done, { description: 'CRM sync no longer works.' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(rowsOf(table).map((row) => cellsOf(row)[0])).toEqual(['Zapier']);
    expect(callsTo(fetchMock, 'DELETE', '/api/api-keys/k1')).toHaveLength(1);
  });
});
