import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { completeNewPassword, signInWithPassword } from '../api/sign-in.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { ACCOUNT_DELETED_NOTICE, LoginScreen } from './login-screen.tsx';
import { renderAt } from './test-router.tsx';

vi.mock('../api/sign-in.ts', () => ({ signInWithPassword: vi.fn(), completeNewPassword: vi.fn() }));
vi.mock('@/components/ui/toaster.tsx', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const signIn = vi.mocked(signInWithPassword);
const confirm = vi.mocked(completeNewPassword);

beforeEach(() => {
  signIn.mockReset();
  confirm.mockReset();
  vi.mocked(toast.error).mockReset();
});

async function submitCredentials(url = '/auth/login') {
  renderAt('/auth/login', url, <LoginScreen />);
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'creator@example.com');
  await user.type(screen.getByLabelText('Password'), 'Secret123');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('LoginScreen', () => {
  it("links to 'Forgot your password?' and 'Sign up'", () => {
    renderAt('/auth/login', '/auth/login', <LoginScreen />);
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/auth/forgot-password');
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/auth/signup');
  });

  it('says the account is being deleted after "Delete my account"', () => {
    renderAt('/auth/login', '/auth/login?accountDeleted=1', <LoginScreen />);
    expect(screen.getByRole('status')).toHaveTextContent(ACCOUNT_DELETED_NOTICE);
  });

  it('shows no deletion notice on an ordinary visit', () => {
    renderAt('/auth/login', '/auth/login', <LoginScreen />);
    expect(screen.queryByText(ACCOUNT_DELETED_NOTICE)).not.toBeInTheDocument();
  });

  it('goes to / after signing in when no origin was remembered', async () => {
    signIn.mockResolvedValue('signedIn');
    await submitCredentials();
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/$/);
    expect(signIn).toHaveBeenCalledWith('creator@example.com', 'Secret123');
  });

  it('goes back to the remembered origin after signing in', async () => {
    signIn.mockResolvedValue('signedIn');
    await submitCredentials('/auth/login?redirectTo=%2Fdashboard%2Fcreator%2Fcrm');
    expect(await screen.findByTestId('landed')).toHaveTextContent('/dashboard/creator/crm');
  });

  it('ignores a remembered origin on another site', async () => {
    signIn.mockResolvedValue('signedIn');
    await submitCredentials('/auth/login?redirectTo=https%3A%2F%2Fevil.example');
    expect(await screen.findByTestId('landed')).toHaveTextContent(/^\/$/);
  });

  it("toasts 'Sign in failed' with the provider's message and stays on the form", async () => {
    signIn.mockRejectedValue(new Error('Incorrect username or password.'));
    await submitCredentials();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeEnabled();
    expect(toast.error).toHaveBeenCalledExactlyOnceWith('Sign in failed', { description: 'Incorrect username or password.' });
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
  });

  it('asks an invited account for a new password, then continues to the remembered origin', async () => {
    signIn.mockResolvedValue('newPasswordRequired');
    confirm.mockResolvedValue('signedIn');
    const user = await submitCredentials('/auth/login?redirectTo=%2Fdashboard%2Flearner');

    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), 'Chosen123');
    await user.type(screen.getByLabelText('Confirm new password'), 'Chosen123');
    await user.click(screen.getByRole('button', { name: 'Set password and continue' }));

    expect(await screen.findByTestId('landed')).toHaveTextContent('/dashboard/learner');
    expect(confirm).toHaveBeenCalledExactlyOnceWith('Chosen123');
  });

  it('keeps the new-password step and toasts the reason when the new password is refused', async () => {
    signIn.mockResolvedValue('newPasswordRequired');
    confirm.mockRejectedValue(new Error('Invalid session for the user, session is expired.'));
    const user = await submitCredentials();
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await user.type(screen.getByLabelText('New password'), 'Chosen123');
    await user.type(screen.getByLabelText('Confirm new password'), 'Chosen123');
    await user.click(screen.getByRole('button', { name: 'Set password and continue' }));

    expect(await screen.findByRole('button', { name: 'Set password and continue' })).toBeEnabled();
    expect(toast.error).toHaveBeenCalledExactlyOnceWith('Sign in failed', {
      description: 'Invalid session for the user, session is expired.',
    });
  });
});
