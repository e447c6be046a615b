import { describe, expect, it } from 'vitest';
import { checkSignUp, SELF_SIGN_UP_REFUSED } from '#core/accounts/sign-up-policy.ts';
import { ForbiddenError } from '#core/errors.ts';

const attempt = (overrides: Partial<Parameters<typeof checkSignUp>[0]> = {}) => ({
  source: 'PreSignUp_SignUp',
  attributes: { email: 'new@example.com' },
  metadata: {},
  ...overrides,
});

describe('who may sign up', () => {
  it('confirms a self sign-up that asks for no role', () => {
    expect(checkSignUp(attempt())).toEqual({ autoConfirm: true });
  });

  it('confirms a self sign-up that asks for the creator role in its metadata', () => {
    expect(checkSignUp(attempt({ metadata: { role: 'creator' } }))).toEqual({ autoConfirm: true });
  });

  for (const role of ['admin', 'leader', 'learner', 'Admin ', 'superuser']) {
    it(`refuses a self sign-up asking for "${role}" in client metadata`, () => {
      expect(() => checkSignUp(attempt({ metadata: { role } }))).toThrow(new ForbiddenError(SELF_SIGN_UP_REFUSED));
    });
    it(`refuses a self sign-up asking for "${role}" as a user attribute`, () => {
      expect(() => checkSignUp(attempt({ attributes: { email: 'x@example.com', 'custom:role': role } }))).toThrow(ForbiddenError);
    });
  }

  it('refuses when one place says creator and another says admin', () => {
    expect(() => checkSignUp(attempt({ metadata: { role: 'creator' }, attributes: { 'custom:role': 'admin' } }))).toThrow(ForbiddenError);
  });

  it('lets accounts created by an admin through without confirming them itself', () => {
    expect(checkSignUp(attempt({ source: 'PreSignUp_AdminCreateUser', metadata: { role: 'leader' } }))).toEqual({ autoConfirm: false });
  });
});
