import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render.tsx';
import { VerifyEmailBanner, VerifyEmailPanel } from './verify-email.tsx';

const verification = vi.hoisted(() => ({
  isEmailVerified: vi.fn<() => Promise<boolean>>(),
  sendEmailVerificationCode: vi.fn<() => Promise<void>>(),
  confirmEmailVerificationCode: vi.fn<(code: string) => Promise<void>>(),
}));
vi.mock('@/lib/email-verification.ts', () => ({ ...verification, emailVerifiedQueryKey: ['email-verified'] }));

beforeEach(() => vi.clearAllMocks());

describe('verifying the email', () => {
  it('sends the code, refuses a malformed one without asking Cognito, and confirms the right one', async () => {
    verification.sendEmailVerificationCode.mockResolvedValue();
    verification.confirmEmailVerificationCode.mockResolvedValue();
    const onVerified = vi.fn();
    const { user } = renderWithProviders(<VerifyEmailPanel reason="Verify your email address first." onVerified={onVerified} />);
    expect(screen.getByText('Verify your email address first.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send verification code' }));
    expect(verification.sendEmailVerificationCode).toHaveBeenCalledOnce();

    const field = await screen.findByLabelText('Verification code', { exact: true });
    await user.type(field, '12');
    await user.click(screen.getByRole('button', { name: 'Verify email' }));
    expect(screen.getByText('Enter the 6-digit code from the email.')).toBeInTheDocument();
    expect(verification.confirmEmailVerificationCode).not.toHaveBeenCalled();

    await user.clear(field);
    await user.type(field, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify email' }));
    expect(await screen.findByRole('heading', { name: 'Your email is verified' })).toBeInTheDocument();
    expect(verification.confirmEmailVerificationCode).toHaveBeenCalledWith('123456');
    expect(onVerified).toHaveBeenCalledOnce();
  });

  it("shows Cognito's refusal of a wrong code under the field", async () => {
    verification.sendEmailVerificationCode.mockResolvedValue();
    verification.confirmEmailVerificationCode.mockRejectedValue(new Error('Invalid verification code provided, please try again.'));
    const { user } = renderWithProviders(<VerifyEmailPanel />);
    await user.click(screen.getByRole('button', { name: 'Send verification code' }));
    await user.type(await screen.findByLabelText('Verification code', { exact: true }), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify email' }));
    expect(await screen.findByText('Invalid verification code provided, please try again.')).toBeInTheDocument();
  });

  it('shows the banner only while the email is not verified', async () => {
    verification.isEmailVerified.mockResolvedValue(false);
    renderWithProviders(<VerifyEmailBanner />);
    expect(await screen.findByRole('region', { name: 'Verify your email' })).toBeInTheDocument();
  });

  it('shows nothing for a verified email', async () => {
    verification.isEmailVerified.mockResolvedValue(true);
    renderWithProviders(<VerifyEmailBanner />);
    await waitFor(() => expect(verification.isEmailVerified).toHaveBeenCalled());
    expect(screen.queryByRole('region', { name: 'Verify your email' })).not.toBeInTheDocument();
  });
});
