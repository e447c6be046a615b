import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SignUpForm } from './sign-up-form.tsx';

function renderForm(onSubmit = vi.fn(() => Promise.resolve())) {
  render(<SignUpForm onSubmit={onSubmit} />);
  return {
    user: userEvent.setup(),
    onSubmit,
    email: screen.getByLabelText('Email'),
    accountType: screen.getByLabelText('Account Type'),
    password: screen.getByLabelText('Password'),
    confirm: screen.getByLabelText('Confirm Password'),
    button: screen.getByRole('button', { name: 'Create Account' }),
  };
}

describe('SignUpForm', () => {
  it('offers Creator as the only account type, chosen already', () => {
    const { accountType } = renderForm();
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Creator']);
    expect(accountType).toHaveValue('creator');
  });

  it('labels a required email field of type email and two required password fields', () => {
    const { email, password, confirm } = renderForm();
    expect(email).toHaveAttribute('type', 'email');
    for (const field of [email, password, confirm]) expect(field).toBeRequired();
    expect(password).toHaveAttribute('type', 'password');
    expect(confirm).toHaveAttribute('type', 'password');
  });

  it("alerts 'Passwords do not match' and sends nothing when the passwords differ", async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const { user, onSubmit, email, password, confirm, button } = renderForm();
    await user.type(email, 'new@example.com');
    await user.type(password, 'Secret123');
    await user.type(confirm, 'Secret124');
    await user.click(button);

    expect(alert).toHaveBeenCalledExactlyOnceWith('Passwords do not match');
    expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(confirm).toHaveAttribute('aria-invalid', 'true');
    expect(confirm).toHaveAccessibleDescription('Passwords do not match');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses a password outside the policy before sending anything, without the mismatch alert', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const { user, onSubmit, email, password, confirm, button } = renderForm();
    await user.type(email, 'new@example.com');
    await user.type(password, 'secret123');
    await user.type(confirm, 'secret123');
    await user.click(button);

    expect(await screen.findByText('Include an upper-case letter')).toBeInTheDocument();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(alert).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('names the missing email and password when submitted empty', async () => {
    const { user, onSubmit, button } = renderForm();
    await user.click(button);

    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("reads 'Creating account...' and is disabled while busy, sending the creator role", async () => {
    let finish!: () => void;
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { user, email, password, confirm, button } = renderForm(onSubmit);
    await user.type(email, ' New@Example.com ');
    await user.type(password, 'Secret123');
    await user.type(confirm, 'Secret123');
    await user.click(button);

    const busy = await screen.findByRole('button', { name: 'Creating account...' });
    expect(busy).toBeDisabled();
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith({
      email: 'New@Example.com',
      role: 'creator',
      password: 'Secret123',
      confirmPassword: 'Secret123',
    });
    finish();
    expect(await screen.findByRole('button', { name: 'Create Account' })).toBeEnabled();
  });
});
