import { afterEach, describe, expect, it } from 'vitest';
import { hasStoredSession, storedAccessToken, tokenExpiry } from './stored-session.ts';

const base64url = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
/** A token as Cognito shapes it; nothing here checks the signature. */
const jwt = (payload: Record<string, unknown>) => `${base64url({ alg: 'RS256' })}.${base64url(payload)}.signature`;
const now = Date.parse('2026-11-23T12:00:00Z');
const inSeconds = (seconds: number) => Math.floor(now / 1000) + seconds;

const store = (user: string, token: string, drift = '0') => {
  localStorage.setItem('CognitoIdentityServiceProvider.client.LastAuthUser', user);
  localStorage.setItem(`CognitoIdentityServiceProvider.client.${user}.accessToken`, token);
  localStorage.setItem(`CognitoIdentityServiceProvider.client.${user}.clockDrift`, drift);
};

afterEach(() => localStorage.clear());

describe("reading Amplify's stored session without Amplify", () => {
  it("knows a session is stored from Amplify's LastAuthUser key", () => {
    expect(hasStoredSession()).toBe(false);
    localStorage.setItem('CognitoIdentityServiceProvider.client.LastAuthUser', 'user-1');
    expect(hasStoredSession()).toBe(true);
  });

  it("reads a token's expiry, and nothing from what is not a token", () => {
    expect(tokenExpiry(jwt({ exp: 1_800_000_000, 'cognito:groups': ['creator'] }))).toBe(1_800_000_000);
    expect(tokenExpiry('not-a-token')).toBeUndefined();
    expect(tokenExpiry(`a.${base64url({ sub: 'x' })}.c`)).toBeUndefined();
  });

  it('gives the last user’s access token while it has more than a minute to live', () => {
    const token = jwt({ exp: inSeconds(3600) });
    store('user-1', token);
    expect(storedAccessToken('client', localStorage, now)).toBe(token);
  });

  it('gives nothing for a token about to expire, so that Amplify refreshes it', () => {
    store('user-1', jwt({ exp: inSeconds(59) }));
    expect(storedAccessToken('client', localStorage, now)).toBeUndefined();
  });

  it('counts the clock drift Amplify measured at sign-in', () => {
    // This browser's clock is 10 minutes behind Cognito's: the token has 5 minutes left, not 15.
    store('user-1', jwt({ exp: inSeconds(900) }), String(10 * 60_000));
    expect(storedAccessToken('client', localStorage, now)).toBe(localStorage.getItem('CognitoIdentityServiceProvider.client.user-1.accessToken'));
    store('user-1', jwt({ exp: inSeconds(900) }), String(15 * 60_000));
    expect(storedAccessToken('client', localStorage, now)).toBeUndefined();
  });

  it("gives nothing for another app client's session or a garbled token", () => {
    store('user-1', jwt({ exp: inSeconds(3600) }));
    expect(storedAccessToken('other-client', localStorage, now)).toBeUndefined();
    store('user-1', 'garbled');
    expect(storedAccessToken('client', localStorage, now)).toBeUndefined();
  });
});
