import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { NewPasswordForm } from './new-password-form.tsx';

function renderForm(onSubmit = vi.fn(() => Promise.resolve())) {
  render(<NewPasswordForm onSubmit={onSubmit} />);
  return {
    user: userEvent.setup(),
    onSubmit,
    password: screen.getByLabelText('New password'),
    confirm: screen.getByLabelText('Confirm new password'),
    button: screen.getByRole('button', { name: 'Set password and continue' }),
  };
}

describe('NewPasswordForm', () => {
  it('puts the cursor in the new password field and explains the policy', () => {
    const { password } = renderForm();
    expect(password).toHaveFocus();
    expect(password).toHaveAccessibleDescription(/At least 8 characters/);
  });

  it("alerts 'Passwords do not match' and sends nothing when the two differ", async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const { user, onSubmit, password, confirm, button } = renderForm();
    await user.type(password, 'Chosen123');
    await user.type(confirm, 'Chosen321');
    await user.click(button);

    expect(alert).toHaveBeenCalledExactlyOnceWith('Passwords do not match');
    expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses a password shorter than 8 characters', async () => {
    const { user, onSubmit, password, confirm, button } = renderForm();
    await user.type(password, 'Ab1');
    await user.type(confirm, 'Ab1');
    await user.click(button);

    expect(await screen.findByText('Use at least 8 characters')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("sends the new password, reading 'Saving...' while busy", async () => {
    let finish!: () => void;
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { user, password, confirm, button } = renderForm(onSubmit);
    await user.type(password, 'Chosen123');
    await user.type(confirm, 'Chosen123');
    await user.click(button);

    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith({ password: 'Chosen123', confirmPassword: 'Chosen123' });
    finish();
    expect(await screen.findByRole('button', { name: 'Set password and continue' })).toBeEnabled();
  });
});
