import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { confirmPasswordReset } from '../api/password-reset.ts';
import { ResetPasswordScreen } from './reset-password-screen.tsx';
import { renderAt } from './test-router.tsx';

vi.mock('../api/password-reset.ts', () => ({ requestPasswordReset: vi.fn(), confirmPasswordReset: vi.fn() }));
vi.mock('@/components/ui/toaster.tsx', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const confirmReset = vi.mocked(confirmPasswordReset);
const fromLink = '/reset-password?code=123456&email=creator%2Bdemo%40example.com';

beforeEach(() => {
  confirmReset.mockReset();
  vi.mocked(toast.error).mockReset();
  vi.mocked(toast.success).mockReset();
});

async function submitNewPassword(url: string, password = 'Newpass123', confirmation = password) {
  renderAt('/reset-password', url, <ResetPasswordScreen />);
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Confirm new password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Reset Password' }));
}

describe('ResetPasswordScreen', () => {
  it("prefills the code and the email from the email's link", () => {
    renderAt('/reset-password', fromLink, <ResetPasswordScreen />);
    expect(screen.getByLabelText('Code')).toHaveValue('123456');
    expect(screen.getByLabelText('Email')).toHaveValue('creator+demo@example.com');
    expect(screen.getByLabelText('New password')).toHaveFocus();
  });

  it('asks for the code when the link did not carry one', async () => {
    await submitNewPassword('/reset-password');
    expect(await screen.findByText('Enter the code from the email')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(confirmReset).not.toHaveBeenCalled();
  });

  it("alerts 'Passwords do not match' and sends nothing", async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await submitNewPassword(fromLink, 'Newpass123', 'Newpass124');

    expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(alert).toHaveBeenCalledExactlyOnceWith('Passwords do not match');
    expect(confirmReset).not.toHaveBeenCalled();
  });

  it('sets the new password, toasts and goes to the sign-in page with the email', async () => {
    confirmReset.mockResolvedValue(undefined);
    await submitNewPassword(fromLink);

    expect(await screen.findByTestId('landed')).toHaveTextContent('/auth/login {"email":"creator+demo@example.com"}');
    expect(confirmReset).toHaveBeenCalledExactlyOnceWith('creator+demo@example.com', '123456', 'Newpass123');
    expect(toast.success).toHaveBeenCalledExactlyOnceWith('Password reset', {
      description: 'You can now sign in with your new password.',
    });
  });

  it("toasts 'Reset failed' with the provider's message when the code is wrong", async () => {
    confirmReset.mockRejectedValue(new Error('Invalid verification code provided, please try again.'));
    await submitNewPassword(fromLink);

    expect(await screen.findByRole('button', { name: 'Reset Password' })).toBeEnabled();
    expect(toast.error).toHaveBeenCalledExactlyOnceWith('Reset failed', {
      description: 'Invalid verification code provided, please try again.',
    });
  });
});
