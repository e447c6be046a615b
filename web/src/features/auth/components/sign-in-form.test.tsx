import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SignInForm } from './sign-in-form.tsx';

function renderForm(onSubmit = vi.fn(() => Promise.resolve())) {
  render(<SignInForm onSubmit={onSubmit} />);
  return {
    user: userEvent.setup(),
    onSubmit,
    email: screen.getByLabelText('Email'),
    password: screen.getByLabelText('Password'),
    button: screen.getByRole('button', { name: 'Sign in' }),
  };
}

describe('SignInForm', () => {
  it('labels a required email field of type email and a required password field', () => {
    const { email, password } = renderForm();
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toBeRequired();
  });

  it('sends nothing and names both missing fields when submitted empty', async () => {
    const { user, onSubmit, email, password, button } = renderForm();
    await user.click(button);

    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(email).toHaveAccessibleDescription('Email is required');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses an address that is not an email', async () => {
    const { user, onSubmit, email, password, button } = renderForm();
    await user.type(email, 'not-an-email');
    await user.type(password, 'Secret123');
    await user.click(button);

    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("reads 'Signing in...' and is disabled while the sign-in is under way, then returns to 'Sign in'", async () => {
    let finish!: () => void;
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { user, email, password, button } = renderForm(onSubmit);
    await user.type(email, '  creator@example.com ');
    await user.type(password, 'Secret123');
    await user.click(button);

    const busy = await screen.findByRole('button', { name: 'Signing in...' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith({ email: 'creator@example.com', password: 'Secret123' });

    finish();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('leaves the busy state when the sign-in fails, so the user can try again', async () => {
    const { user, email, password, button } = renderForm(vi.fn(() => Promise.reject(new Error('Incorrect username or password.'))));
    await user.type(email, 'creator@example.com');
    await user.type(password, 'wrong');
    await user.click(button);

    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeEnabled();
  });
});
