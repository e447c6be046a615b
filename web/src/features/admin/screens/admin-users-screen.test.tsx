import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '@contracts/admin-users.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { AdminUsersScreen } from './admin-users-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
// The signed-in admin is person0.
vi.mock('@/lib/session-hooks.ts', () => ({
  useProfile: () => ({ data: { id: 'u0', email: 'person0@example.com', role: 'admin', createdAt: '2026-11-01T10:00:00.000Z' } }),
}));

spyOnToasts();
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const user = (n: number, role: AdminUser['role'] = 'creator'): AdminUser => ({
  id: `u${n}`,
  email: `person${n}@example.com`,
  role,
  createdAt: `2026-11-${String(20 - n).padStart(2, '0')}T10:00:00.000Z`,
  disabled: false,
});

// jsdom applies no CSS: a row holds both its wide columns and the folded line a phone shows, so texts appear twice.
const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('AdminUsersScreen', () => {
  it('lists creators newest first, and loads the next page on "Load more"', async () => {
    const api = fakeApi({
      'GET /api/admin/users?role=creator': () => jsonResponse(200, { items: [user(1), user(2)], nextCursor: 'next-1' }),
      'GET /api/admin/users?role=creator&cursor=next-1': () => jsonResponse(200, { items: [user(3)], nextCursor: null }),
    });
    renderWithProviders(<AdminUsersScreen />);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading users...');
    await screen.findByText('person1@example.com');
    expect(rows().map((r) => within(r).getAllByRole('cell')[0]!.firstChild!.textContent)).toEqual(['person1@example.com', 'person2@example.com']);
    expect(within(rows()[0]!).getAllByText('Creator')).not.toHaveLength(0);
    expect(within(rows()[0]!).getAllByText('19 Nov 2026')).not.toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('person3@example.com');
    expect(rows()).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(callsTo(api, 'GET', '/api/admin/users?role=creator&cursor=next-1')).toHaveLength(1);
  });

  it('says when a role has nobody yet, and offers to retry a failed load', async () => {
    let fail = true;
    fakeApi({
      'GET /api/admin/users?role=creator': () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, { items: [], nextCursor: null })),
    });
    renderWithProviders(<AdminUsersScreen />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load users');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No creators yet')).toBeInTheDocument();
  });

  it('invites a user: the dialog sends email and role, toasts, closes and shows that role', async () => {
    const leader = user(9, 'leader');
    const api = fakeApi({
      'GET /api/admin/users?role=creator': () => jsonResponse(200, { items: [user(1)], nextCursor: null }),
      'POST /api/admin/users': () => jsonResponse(201, leader),
      'GET /api/admin/users?role=leader': () => jsonResponse(200, { items: [leader], nextCursor: null }),
    });
    renderWithProviders(<AdminUsersScreen />);
    await screen.findByText('person1@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = screen.getByRole('dialog', { name: 'Add user' });
    await userEvent.type(within(dialog).getByLabelText(/Email/), 'Person9@Example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Invite user' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('User invited', { description: 'person9@example.com was emailed a temporary password to sign in.' }));
    expect(callsTo(api, 'POST', '/api/admin/users')[0]!.body).toEqual({ email: 'person9@example.com', role: 'leader' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('person9@example.com')).toBeInTheDocument();
  });

  it('shows why an invitation was refused on the field: a bad email before sending, a taken one after', async () => {
    const api = fakeApi({
      'GET /api/admin/users?role=creator': () => jsonResponse(200, { items: [], nextCursor: null }),
      'POST /api/admin/users': () => errorResponse(409, 'CONFLICT', 'An account with taken@example.com already exists.'),
    });
    renderWithProviders(<AdminUsersScreen />);
    await screen.findByText('No creators yet');
    await userEvent.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = screen.getByRole('dialog', { name: 'Add user' });
    const email = within(dialog).getByLabelText(/Email/);
    await userEvent.type(email, 'not-an-email');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Invite user' }));
    expect(await within(dialog).findByText('Enter a valid email address.')).toBeInTheDocument();
    expect(callsTo(api, 'POST', '/api/admin/users')).toHaveLength(0);

    await userEvent.clear(email);
    await userEvent.type(email, 'taken@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Invite user' }));
    expect(await within(dialog).findByText('An account with taken@example.com already exists.')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
  });

  it('disables an account after a confirmation, shows it Disabled, and enables it again; never offers to disable oneself', async () => {
    const ann = user(1);
    let current = ann;
    const api = fakeApi({
      'GET /api/admin/users?role=admin': () => jsonResponse(200, { items: [user(0, 'admin')], nextCursor: null }),
      'GET /api/admin/users?role=creator': () => jsonResponse(200, { items: [current], nextCursor: null }),
      'PATCH /api/admin/users/u1': (init) => {
        current = { ...ann, disabled: (JSON.parse(init!.body as string) as { disabled: boolean }).disabled };
        return jsonResponse(200, current);
      },
    });
    renderWithProviders(<AdminUsersScreen />);
    await screen.findByText('person1@example.com');
    expect(within(rows()[0]!).getAllByText('Active')).not.toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Disable person1@example.com' }));
    const question = screen.getByRole('alertdialog', { name: 'Disable this account?' });
    expect(question).toHaveTextContent('person1@example.com will no longer be able to sign in');
    await userEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(api, 'PATCH', '/api/admin/users/u1')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Disable person1@example.com' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Disable account' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Account disabled', { description: 'person1@example.com can no longer sign in.' }));
    expect(callsTo(api, 'PATCH', '/api/admin/users/u1')[0]!.body).toEqual({ disabled: true });
    expect(within(rows()[0]!).getAllByText('Disabled')).not.toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'Enable person1@example.com' }));
    await userEvent.click(within(screen.getByRole('alertdialog', { name: 'Enable this account?' })).getByRole('button', { name: 'Enable account' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Account enabled', { description: 'person1@example.com can sign in again.' }));
    expect(within(rows()[0]!).getAllByText('Active')).not.toHaveLength(0);

    await userEvent.click(screen.getByRole('combobox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Admins' }));
    await screen.findByText('person0@example.com');
    expect(within(rows()[0]!).getAllByText('You')).not.toHaveLength(0);
    expect(within(rows()[0]!).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says why an account could not be disabled and keeps it as it was', async () => {
    fakeApi({
      'GET /api/admin/users?role=creator': () => jsonResponse(200, { items: [user(1)], nextCursor: null }),
      'PATCH /api/admin/users/u1': () => errorResponse(500, 'INTERNAL', 'The server failed.'),
    });
    renderWithProviders(<AdminUsersScreen />);
    await screen.findByText('person1@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Disable person1@example.com' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Disable account' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Could not disable the account', { description: 'The server failed.' }));
    const question = screen.getByRole('alertdialog');
    await userEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(within(rows()[0]!).getAllByText('Active')).not.toHaveLength(0);
  });

  it("changes a learner's role in a dialog, moving them to the other role's list; a creator has no such action", async () => {
    const lee = user(4, 'learner');
    let moved = false;
    const api = fakeApi({
      'GET /api/admin/users?role=creator': () => jsonResponse(200, { items: [user(1)], nextCursor: null }),
      'GET /api/admin/users?role=learner': () => jsonResponse(200, { items: moved ? [] : [lee], nextCursor: null }),
      'GET /api/admin/users?role=leader': () => jsonResponse(200, { items: moved ? [{ ...lee, role: 'leader' }] : [], nextCursor: null }),
      'PATCH /api/admin/users/u4': () => {
        moved = true;
        return jsonResponse(200, { ...lee, role: 'leader' });
      },
    });
    renderWithProviders(<AdminUsersScreen />);
    await screen.findByText('person1@example.com');
    expect(within(rows()[0]!).queryByRole('button', { name: /Change the role/ })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('combobox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Learners' }));
    await screen.findByText('person4@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Change the role of person4@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Change role' });
    expect(dialog).toHaveTextContent('person4@example.com is a learner.');
    expect(within(dialog).getByRole('button', { name: 'Change role' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'New role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Group leader' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change role' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Role changed', { description: 'person4@example.com is now a group leader and signs in again to use it.' }));
    expect(callsTo(api, 'PATCH', '/api/admin/users/u4')[0]!.body).toEqual({ role: 'leader' });
    expect(await screen.findByText('No learners yet')).toBeInTheDocument();
  });
});
