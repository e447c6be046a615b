import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { requestPasswordReset } from '../api/password-reset.ts';
import { ForgotPasswordScreen } from './forgot-password-screen.tsx';
import { renderAt } from './test-router.tsx';

vi.mock('../api/password-reset.ts', () => ({ requestPasswordReset: vi.fn(), confirmPasswordReset: vi.fn() }));
vi.mock('@/components/ui/toaster.tsx', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const request = vi.mocked(requestPasswordReset);

beforeEach(() => {
  request.mockReset();
  vi.mocked(toast.error).mockReset();
  vi.mocked(toast.success).mockReset();
});

function renderScreen() {
  renderAt('/auth/forgot-password', '/auth/forgot-password', <ForgotPasswordScreen />);
  return userEvent.setup();
}

describe('ForgotPasswordScreen', () => {
  it("offers 'Remember your password?' with a link to the sign-in page before sending", () => {
    renderScreen();
    expect(screen.getByText(/Remember your password\?/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/login');
  });

  it('requires the email', async () => {
    const user = renderScreen();
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(request).not.toHaveBeenCalled();
  });

  it("reads 'Sending...', then replaces the form with the confirmation and a way back", async () => {
    let finish!: () => void;
    request.mockImplementation(() => new Promise<void>((resolve) => (finish = resolve)));
    const user = renderScreen();
    await user.type(screen.getByLabelText('Email'), 'creator@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));

    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    finish();

    expect(await screen.findByText('Check your email for a password reset link')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/auth/login');
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.queryByText(/Remember your password\?/)).not.toBeInTheDocument();
    expect(request).toHaveBeenCalledExactlyOnceWith('creator@example.com');
    expect(toast.success).toHaveBeenCalledExactlyOnceWith('Check your email', {
      description: "We've sent you a password reset link.",
    });
  });

  it("toasts 'Reset failed' with the message and keeps the form", async () => {
    request.mockRejectedValue(new Error('Attempt limit exceeded, please try after some time.'));
    const user = renderScreen();
    await user.type(screen.getByLabelText('Email'), 'creator@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));

    expect(await screen.findByRole('button', { name: 'Send Reset Link' })).toBeEnabled();
    expect(toast.error).toHaveBeenCalledExactlyOnceWith('Reset failed', {
      description: 'Attempt limit exceeded, please try after some time.',
    });
    expect(screen.queryByText('Check your email for a password reset link')).not.toBeInTheDocument();
  });
});
