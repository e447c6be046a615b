import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeaderSettings } from '@contracts/licenses.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { deleteAccountMessages } from '@/components/delete-account-section.tsx';
import { yourDataMessages } from '@/components/your-data-section.tsx';
import { leaderMessages } from '../leader-messages.ts';
import { leaderSettings } from '../test/fixtures.ts';
import { LeaderSettingsScreen } from './leader-settings-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
spyOnToasts();
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const m = leaderMessages.settings;
const SETTINGS = '/api/leader/settings';
const open = () => renderWithProviders(<LeaderSettingsScreen />, { path: paths.leader.settings });
const api = (saved: LeaderSettings, put: (init?: RequestInit) => Response | Promise<Response>) =>
  fakeApi({ [`GET ${SETTINGS}`]: () => jsonResponse(200, saved), [`PUT ${SETTINGS}`]: put });

describe('LeaderSettingsScreen', () => {
  it('shows the email (read only), name, organisation and the weekly email choice', async () => {
    api(leaderSettings(), () => jsonResponse(500, {}));
    open();
    expect(await screen.findByRole('status')).toHaveTextContent(m.loading);

    expect(await screen.findByLabelText(m.name)).toHaveValue('Lee Leader');
    expect(screen.getByRole('heading', { level: 1, name: m.title })).toBeInTheDocument();
    expect(screen.getByLabelText(m.email)).toHaveValue('leader@example.com');
    expect(screen.getByLabelText(m.email)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(m.organization)).toHaveValue('Acme Learning');
    const weekly = screen.getByLabelText(m.weekly);
    expect(weekly).toHaveRole('switch');
    expect(weekly).toBeChecked();
    expect(weekly).toHaveAccessibleDescription(m.weeklyHint);
    expect(screen.getByText(m.lastSaved('22 Nov 2026'))).toBeInTheDocument();
  });

  it('saves the name, organisation and weekly choice, and says so', async () => {
    let answer!: (response: Response) => void;
    const fetchMock = api(leaderSettings({ name: '', organization: '', updatedAt: null }), () => new Promise<Response>((resolve) => (answer = resolve)));
    open();
    const name = await screen.findByLabelText(m.name);
    expect(screen.queryByText(/Last saved/)).not.toBeInTheDocument();

    await userEvent.type(name, '  Ada Lovelace ');
    await userEvent.type(screen.getByLabelText(m.organization), 'Analytical Engines Ltd');
    await userEvent.click(screen.getByLabelText(m.weekly));
    expect(screen.getByLabelText(m.weekly)).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: m.save }));

    expect(await screen.findByRole('button', { name: m.saving })).toBeDisabled();
    const [call] = callsTo(fetchMock, 'PUT', SETTINGS);
    expect(call!.body).toEqual({ name: 'Ada Lovelace', organization: 'Analytical Engines Ltd', weeklyReport: false });
    expect(call!.headers.get('Authorization')).toBe('Bearer access-token');
    answer(
      jsonResponse(200, leaderSettings({ name: 'Ada Lovelace', organization: 'Analytical Engines Ltd', weeklyReport: false, updatedAt: '2026-11-25T10:00:00.000Z' })),
    );

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.saved, { description: m.weeklyOff }));
    expect(await screen.findByRole('button', { name: m.save })).toBeEnabled();
    expect(screen.getByLabelText(m.name)).toHaveValue('Ada Lovelace');
    expect(screen.getByText(m.lastSaved('25 Nov 2026'))).toBeInTheDocument();
  });

  it("toasts the server's message when the settings cannot be saved, and keeps what was typed", async () => {
    api(leaderSettings(), () => errorResponse(500, 'INTERNAL', 'The settings could not be stored. Try again.'));
    open();
    const organization = await screen.findByLabelText(m.organization);
    await userEvent.clear(organization);
    await userEvent.type(organization, 'Globex');
    await userEvent.click(screen.getByRole('button', { name: m.save }));

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'The settings could not be stored. Try again.' }));
    expect(toast.success).not.toHaveBeenCalled();
    expect(screen.getByLabelText(m.organization)).toHaveValue('Globex');
  });

  it('shows a field the server refused beside it, and checks the lengths before sending', async () => {
    const fetchMock = api(leaderSettings(), () =>
      errorResponse(400, 'VALIDATION_FAILED', 'Invalid request.', [{ path: 'name', code: 'custom', message: 'That name cannot be used.' }]),
    );
    open();
    const name = await screen.findByLabelText(m.name);
    await userEvent.click(screen.getByRole('button', { name: m.save }));
    await waitFor(() => expect(name).toHaveAccessibleDescription(`${m.nameHint} That name cannot be used.`));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(toast.error).not.toHaveBeenCalled();

    // maxLength stops typing past 120; a pasted value past it is refused before any request.
    const organization = screen.getByLabelText(m.organization);
    organization.removeAttribute('maxlength');
    await userEvent.clear(organization);
    await userEvent.click(organization);
    await userEvent.paste('x'.repeat(121));
    await userEvent.click(screen.getByRole('button', { name: m.save }));
    await waitFor(() => expect(organization).toHaveAttribute('aria-invalid', 'true'));
    expect(callsTo(fetchMock, 'PUT', SETTINGS)).toHaveLength(1);
  });

  it('offers the leader a copy of their data, as every profile does', async () => {
    fakeApi({
      [`GET ${SETTINGS}`]: () => jsonResponse(200, leaderSettings()),
      'POST /api/me/exports': () => jsonResponse(202, { exportId: 'x1' }),
      'GET /api/me/exports/x1': () => jsonResponse(200, { status: 'pending' }),
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: yourDataMessages.request }));
    expect(await screen.findByText(yourDataMessages.preparing)).toBeInTheDocument();
  });

  it('offers the leader account deletion, saying their licences stay with their courses', async () => {
    fakeApi({ [`GET ${SETTINGS}`]: () => jsonResponse(200, leaderSettings()) });
    open();
    await userEvent.click(await screen.findByRole('button', { name: deleteAccountMessages.open }));
    const dialog = await screen.findByRole('alertdialog', { name: deleteAccountMessages.dialogTitle });
    expect(within(dialog).getByText(/Team licences you lead stay with their courses/)).toBeInTheDocument();
    expect(within(dialog).queryByText(/unpublish it first/)).not.toBeInTheDocument();
  });

  it("offers 'Try again' when the settings cannot be loaded", async () => {
    let fail = true;
    fakeApi({ [`GET ${SETTINGS}`]: () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, leaderSettings())) });
    open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.loadFailed);
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: m.retry }));
    expect(await screen.findByLabelText(m.name)).toHaveValue('Lee Leader');
  });
});
