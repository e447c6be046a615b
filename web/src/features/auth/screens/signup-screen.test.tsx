import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';
import { signUpWithEmail } from '../api/sign-up.ts';
import { SignUpScreen } from './signup-screen.tsx';
import { renderAt } from './test-router.tsx';

vi.mock('../api/sign-up.ts', () => ({ signUpWithEmail: vi.fn() }));
vi.mock('@/components/ui/toaster.tsx', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const signUp = vi.mocked(signUpWithEmail);

beforeEach(() => {
  signUp.mockReset();
  vi.mocked(toast.error).mockReset();
  vi.mocked(toast.success).mockReset();
});

async function submit(password = 'Secret123', confirmation = password) {
  renderAt('/auth/signup', '/auth/signup', <SignUpScreen />);
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'new@example.com');
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Confirm Password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('SignUpScreen', () => {
  it("links to 'Sign in'", () => {
    renderAt('/auth/signup', '/auth/signup', <SignUpScreen />);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/login');
  });

  it("signs up as a creator, toasts 'Success!' and goes to the sign-in page with the email", async () => {
    signUp.mockResolvedValue('ready');
    await submit();

    expect(await screen.findByTestId('landed')).toHaveTextContent('/auth/login {"email":"new@example.com"}');
    expect(signUp).toHaveBeenCalledExactlyOnceWith('new@example.com', 'Secret123', 'creator');
    expect(toast.success).toHaveBeenCalledExactlyOnceWith('Success!', {
      description: 'Account created successfully! You can now sign in.',
    });
  });

  it("toasts 'Sign up failed' with the provider's message and stays on the form", async () => {
    signUp.mockRejectedValue(new Error('User already exists'));
    await submit();

    expect(await screen.findByRole('button', { name: 'Create Account' })).toBeEnabled();
    expect(toast.error).toHaveBeenCalledExactlyOnceWith('Sign up failed', { description: 'User already exists' });
    expect(screen.queryByTestId('landed')).not.toBeInTheDocument();
  });

  it('sends nothing when the passwords differ', async () => {
    vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    await submit('Secret123', 'Secret999');

    expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(signUp).not.toHaveBeenCalled();
  });
});
