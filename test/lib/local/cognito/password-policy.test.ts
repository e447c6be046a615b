import { describe, expect, it } from 'vitest';
import { passwordProblem, policyViolation } from '#lib/local/cognito/password-policy.ts';

describe('the cloud password policy the Cognito shim enforces', () => {
  it('accepts 8 characters with upper case, lower case and a digit', () => {
    expect(passwordProblem('Abcdefg1')).toBeUndefined();
  });

  it.each([
    ['Abcde1', 'Password not long enough'],
    ['abcdefg1', 'Password must have uppercase characters'],
    ['ABCDEFG1', 'Password must have lowercase characters'],
    ['Abcdefgh', 'Password must have numeric characters'],
  ])('refuses %s with Cognito\'s message "%s"', (password, message) => {
    expect(passwordProblem(password)).toBe(`Password did not conform with policy: ${message}`);
  });

  it.each([
    ['SignUp', { Password: 'weak' }],
    ['ConfirmForgotPassword', { Password: 'weak' }],
    ['AdminSetUserPassword', { Password: 'weak' }],
    ['ChangePassword', { PreviousPassword: 'Whatever1', ProposedPassword: 'weak' }],
    ['AdminCreateUser', { TemporaryPassword: 'weak' }],
    ['RespondToAuthChallenge', { ChallengeName: 'NEW_PASSWORD_REQUIRED', ChallengeResponses: { NEW_PASSWORD: 'weak' } }],
  ])('checks the new password of %s', (operation, body) => {
    expect(policyViolation(operation, body)).toMatch(/not long enough/);
  });

  it('leaves calls that set no password alone', () => {
    expect(policyViolation('InitiateAuth', { AuthParameters: { PASSWORD: 'weak' } })).toBeUndefined();
    expect(policyViolation('AdminCreateUser', { Username: 'a@example.com' })).toBeUndefined();
    expect(policyViolation('RespondToAuthChallenge', { ChallengeName: 'SMS_MFA', ChallengeResponses: {} })).toBeUndefined();
  });
});
