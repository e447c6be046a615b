import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { DeleteAccountSection, deleteAccountMessages as m } from './delete-account-section.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
const signOutAndForget = vi.hoisted(() => vi.fn(() => Promise.resolve()));
vi.mock('@/lib/session.ts', () => ({ signOutAndForget }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  signOutAndForget.mockClear();
});

/** `location.replace` stood in for (jsdom does not navigate): where the page was sent. */
const stubLocation = () => {
  const replace = vi.fn();
  vi.stubGlobal('location', { ...globalThis.location, replace });
  return replace;
};

const openDialog = async (user: ReturnType<typeof renderWithProviders>['user']) => {
  await user.click(screen.getByRole('button', { name: m.open }));
  return screen.findByRole('alertdialog', { name: m.dialogTitle });
};

describe('DeleteAccountSection', () => {
  it('says what is erased, deletes only once DELETE is typed, then signs out to the sign-in page with the notice', async () => {
    const api = fakeApi({ 'DELETE /api/me': () => jsonResponse(202, { status: 'deleting', requestedAt: '2026-11-29T12:00:00.000Z' }) });
    const replace = stubLocation();
    const { user } = renderWithProviders(<DeleteAccountSection role="learner" />);
    const dialog = await openDialog(user);
    expect(within(dialog).getByText(/cannot sign in again/)).toBeInTheDocument();
    expect(within(dialog).getByText(/Orders and invoices are kept/)).toBeInTheDocument();
    expect(within(dialog).queryByText(/unpublish it first/)).not.toBeInTheDocument();

    const confirm = within(dialog).getByRole('button', { name: m.confirm });
    const field = within(dialog).getByLabelText(m.confirmLabel);
    await user.type(field, 'delete');
    expect(confirm).toBeDisabled();
    await user.clear(field);
    // Keyboard only: typed, then Enter submits.
    await user.type(field, 'DELETE{Enter}');

    await vi.waitFor(() => expect(replace).toHaveBeenCalledWith('/auth/login?accountDeleted=1'));
    expect(signOutAndForget).toHaveBeenCalledOnce();
    expect(callsTo(api, 'DELETE', '/api/me').map((c) => c.body)).toEqual([{ confirm: 'DELETE' }]);
  });

  it('lists the courses a creator must unpublish first, one per line, and stays signed in', async () => {
    fakeApi({
      'DELETE /api/me': () =>
        errorResponse(409, 'CONFLICT', 'Your account cannot be deleted while learners are enrolled on a published course. Unpublish these courses first, then delete your account: Bread, rolls, Knife skills.', {
          courses: ['Bread, rolls', 'Knife skills'],
        }),
    });
    const replace = stubLocation();
    const { user } = renderWithProviders(<DeleteAccountSection role="creator" />);
    const dialog = await openDialog(user);
    expect(within(dialog).getByText(/unpublish it first/)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(m.confirmLabel), 'DELETE');
    await user.click(within(dialog).getByRole('button', { name: m.confirm }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(m.blockedTitle);
    const courses = within(within(alert).getByRole('list', { name: 'Courses to unpublish' })).getAllByRole('listitem');
    expect(courses.map((li) => li.textContent)).toEqual(['Bread, rolls', 'Knife skills']);
    expect(signOutAndForget).not.toHaveBeenCalled();
    expect(replace).not.toHaveBeenCalled();
  });

  it("shows the last admin the server's reason, as a failure that names no course", async () => {
    fakeApi({ 'DELETE /api/me': () => errorResponse(409, 'CONFLICT', 'You are the only admin. Make another account an admin first, then delete your account.') });
    const replace = stubLocation();
    const { user } = renderWithProviders(<DeleteAccountSection role="admin" />);
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText(m.confirmLabel), 'DELETE');
    await user.click(within(dialog).getByRole('button', { name: m.confirm }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(`${m.failedTitle}You are the only admin. Make another account an admin first, then delete your account.`);
    expect(within(dialog).queryByRole('list', { name: 'Courses to unpublish' })).not.toBeInTheDocument();
    expect(replace).not.toHaveBeenCalled();
  });

  it('shows any other failure in the dialog, stays signed in, and forgets the failure when closed', async () => {
    fakeApi({ 'DELETE /api/me': () => errorResponse(503, 'SERVICE_UNAVAILABLE', 'A service we depend on did not answer in time.') });
    const replace = stubLocation();
    const { user } = renderWithProviders(<DeleteAccountSection role="learner" />);
    let dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText(m.confirmLabel), 'DELETE');
    await user.click(within(dialog).getByRole('button', { name: m.confirm }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(`${m.failedTitle}A service we depend on did not answer in time.`);
    expect(replace).not.toHaveBeenCalled();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    dialog = await openDialog(user);
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText(m.confirmLabel)).toHaveValue('');
  });
});
