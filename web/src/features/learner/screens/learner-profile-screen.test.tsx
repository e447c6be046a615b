import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LearnerProfile } from '@contracts/certificates.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { paths } from '@/lib/paths.ts';
import { callsTo, errorResponse, fakeApi, jsonResponse, renderWithProviders } from '@/test/render.tsx';
import { spyOnToasts } from '@/test/toasts.ts';
import { PROFILE_POLL_MS } from '../api/learning-queries.ts';
import { learnerProfile } from '../test/fixtures.ts';
import { LearnerProfileScreen, profileMessages as m } from './learner-profile-screen.tsx';

vi.mock('@/lib/auth.ts', () => ({ getAccessToken: vi.fn(() => Promise.resolve('access-token')) }));
// The signed-in account (GET /api/me), shown as it is above the name.
vi.mock('@/lib/session-hooks.ts', () => ({
  useProfile: () => ({ isPending: false, data: { id: 'u1', email: 'ada@example.com', role: 'learner', createdAt: '2026-10-01T10:00:00.000Z' } }),
}));
spyOnToasts();
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PROFILE = '/api/learner/profile';
const open = () => renderWithProviders(<LearnerProfileScreen />, { path: paths.learner.profile });
const api = (saved: LearnerProfile, put: (init?: RequestInit) => Response | Promise<Response> = () => jsonResponse(500, {})) =>
  fakeApi({ [`GET ${PROFILE}`]: () => jsonResponse(200, saved), [`PUT ${PROFILE}`]: put });

describe('LearnerProfileScreen', () => {
  it('shows the account, and the name on certificates with what it is for', async () => {
    api(learnerProfile({ certificateName: 'Ada Lovelace' }));
    open();
    expect(await screen.findByRole('status')).toHaveTextContent(m.loading);

    const name = await screen.findByRole('textbox', { name: m.name });
    expect(name).toHaveValue('Ada Lovelace');
    expect(name).toHaveAccessibleDescription(m.nameHint);
    expect(name).toHaveAttribute('maxlength', '100');
    expect(name).toHaveAttribute('autocomplete', 'name');
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: m.name })).toBeInTheDocument();
    expect(screen.getByTestId('me-email')).toHaveTextContent('ada@example.com');
    // Nothing to save until the name changes; no re-issue under way.
    expect(screen.getByRole('button', { name: m.save })).toBeDisabled();
    expect(screen.queryByText(m.updating)).not.toBeInTheDocument();
  });

  it('saves the name, says the certificates will follow, and polls until they have', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let stored = learnerProfile();
    let answer!: (response: Response) => void;
    const fetchMock = fakeApi({
      [`GET ${PROFILE}`]: () => jsonResponse(200, stored),
      [`PUT ${PROFILE}`]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const { user, queryClient } = open();
    const certificatesKey = ['learning', 'certificates'];
    const certificatesInvalidated = () => queryClient.getQueryState(certificatesKey)?.isInvalidated;
    queryClient.setQueryData(certificatesKey, { items: [] });
    const name = await screen.findByRole('textbox', { name: m.name });
    expect(name).toHaveValue('');

    await user.type(name, '  Ada   Lovelace ');
    await user.click(screen.getByRole('button', { name: m.save }));

    expect(await screen.findByRole('button', { name: m.saving })).toBeDisabled();
    const [call] = callsTo(fetchMock, 'PUT', PROFILE);
    expect(call!.body).toEqual({ certificateName: 'Ada Lovelace' });
    expect(call!.headers.get('Authorization')).toBe('Bearer access-token');
    stored = learnerProfile({ certificateName: 'Ada Lovelace', certificatesUpdating: true, updatedAt: '2026-11-25T10:00:00.000Z' });
    answer(jsonResponse(200, stored));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.saved, { description: m.savedUpdating }));
    expect(await screen.findByRole('status')).toHaveTextContent(m.updating);
    expect(screen.getByRole('textbox', { name: m.name })).toHaveValue('Ada Lovelace');
    expect(screen.getByRole('button', { name: m.save })).toBeDisabled();
    // The certificates are loaded again when next shown.
    expect(certificatesInvalidated()).toBe(true);
    queryClient.setQueryData(certificatesKey, { items: [] });
    expect(callsTo(fetchMock, 'GET', PROFILE)).toHaveLength(1);

    // Every 5 s the profile is asked for again while the certificates are re-issued...
    await vi.advanceTimersByTimeAsync(PROFILE_POLL_MS);
    await waitFor(() => expect(callsTo(fetchMock, 'GET', PROFILE)).toHaveLength(2));
    expect(screen.getByRole('status')).toHaveTextContent(m.updating);
    expect(certificatesInvalidated()).toBe(false);

    // ...until they carry the name: the line goes, the certificates are loaded again, and the polling stops.
    stored = { ...stored, certificatesUpdating: false };
    await vi.advanceTimersByTimeAsync(PROFILE_POLL_MS);
    await waitFor(() => expect(screen.queryByText(m.updating)).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'GET', PROFILE)).toHaveLength(3);
    expect(certificatesInvalidated()).toBe(true);
    await vi.advanceTimersByTimeAsync(PROFILE_POLL_MS * 3);
    expect(callsTo(fetchMock, 'GET', PROFILE)).toHaveLength(3);
  });

  it('says the name is saved when the certificates need no change', async () => {
    const fetchMock = api(learnerProfile({ certificateName: 'Ada Lovelace' }), () => jsonResponse(200, learnerProfile({ certificateName: '' })));
    const { user } = open();
    const name = await screen.findByRole('textbox', { name: m.name });

    await user.clear(name);
    await user.click(screen.getByRole('button', { name: m.save }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(m.saved, { description: m.savedDone }));
    expect(callsTo(fetchMock, 'PUT', PROFILE)[0]!.body).toEqual({ certificateName: '' });
    expect(screen.queryByText(m.updating)).not.toBeInTheDocument();
  });

  it("shows the server's refusal under the field", async () => {
    api(learnerProfile(), () =>
      errorResponse(400, 'VALIDATION_FAILED', 'The request is not valid.', [{ path: 'certificateName', code: 'custom', message: 'Use letters, spaces and punctuation only.' }]),
    );
    const { user } = open();
    const name = await screen.findByRole('textbox', { name: m.name });

    await user.type(name, 'Ada Lovelace');
    await user.click(screen.getByRole('button', { name: m.save }));

    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription(`${m.nameHint} Use letters, spaces and punctuation only.`);
    expect(name).toHaveFocus();
    expect(toast.error).not.toHaveBeenCalled();
    expect(toast.success).not.toHaveBeenCalled();
    expect(name).toHaveValue('Ada Lovelace');
  });

  it('refuses markup before sending it, in the words the server would use', async () => {
    const fetchMock = api(learnerProfile());
    const { user } = open();
    const name = await screen.findByRole('textbox', { name: m.name });

    await user.type(name, '<b>Ada</b>');
    await user.click(screen.getByRole('button', { name: m.save }));

    await waitFor(() => expect(name).toHaveAccessibleDescription(`${m.nameHint} Use letters, spaces and punctuation only.`));
    expect(callsTo(fetchMock, 'PUT', PROFILE)).toHaveLength(0);
  });

  it("toasts any other failure in the server's words", async () => {
    api(learnerProfile(), () => errorResponse(500, 'INTERNAL', 'Something went wrong on our side. Please try again.'));
    const { user } = open();
    await user.type(await screen.findByRole('textbox', { name: m.name }), 'Ada');
    await user.click(screen.getByRole('button', { name: m.save }));

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Something went wrong on our side. Please try again.' }));
    expect(screen.getByRole('textbox', { name: m.name })).not.toHaveAttribute('aria-invalid');
  });

  it('shows the re-issue under way when the screen opens during one', async () => {
    api(learnerProfile({ certificateName: 'Ada Lovelace', certificatesUpdating: true }));
    open();
    expect(await screen.findByText(m.updating)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(m.updating);
  });

  it("offers 'Try again' when the name cannot be loaded", async () => {
    let fail = true;
    const fetchMock = fakeApi({ [`GET ${PROFILE}`]: () => (fail ? errorResponse(500, 'INTERNAL', 'boom') : jsonResponse(200, learnerProfile({ certificateName: 'Ada' }))) });
    const { user } = open();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(m.loadFailed);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('textbox', { name: m.name })).toHaveValue('Ada');
    expect(callsTo(fetchMock, 'GET', PROFILE)).toHaveLength(2);
  });
});
