import { afterEach, describe, expect, it, vi } from 'vitest';
import { takeEarlyProfile } from '../lib/stored-session.ts';
import { SESSION_HINT_ATTRIBUTE, SHELL_ATTRIBUTE, sessionHintScript } from './session-hint.ts';

// The key Amplify's default token store writes for the signed-in user (lib/auth.ts `hasStoredSession` reads it too).
const lastAuthUser = 'CognitoIdentityServiceProvider.client.LastAuthUser';
const runHint = () => new Function(sessionHintScript(['assets/session-me-abc.js'], ['assets/amplify-abc.js']))();
const preloaded = (file: string) => document.head.querySelector(`link[rel="modulepreload"][href="/${file}"]`) !== null;

/** A token as Cognito shapes it (header.payload.signature, base64url); nothing checks the signature here. */
const jwt = (exp: number, claims: Record<string, unknown> = {}) => `e30.${btoa(JSON.stringify({ exp, ...claims })).replace(/=+$/, '')}.sig`;

afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
  document.body.innerHTML = '';
  document.cookie = 'sidebar_state=; max-age=0; path=/';
  localStorage.clear();
  document.documentElement.removeAttribute(SESSION_HINT_ATTRIBUTE);
  for (const link of document.head.querySelectorAll('link')) link.remove();
});

describe('the session hint of the page head', () => {
  it('marks the page and preloads the profile and Amplify when the stored session needs a refresh', () => {
    localStorage.setItem(lastAuthUser, 'creator@example.com');
    runHint();

    expect(document.documentElement).toHaveAttribute(SESSION_HINT_ATTRIBUTE);
    expect(preloaded('assets/session-me-abc.js')).toBe(true);
    expect(preloaded('assets/amplify-abc.js')).toBe(true);
  });

  it('leaves Amplify out while the stored access token is fresh (the app uses it without Amplify)', () => {
    localStorage.setItem(lastAuthUser, 'user-1');
    localStorage.setItem('CognitoIdentityServiceProvider.client.user-1.accessToken', jwt(Math.floor(Date.now() / 1000) + 3600));
    runHint();

    expect(document.documentElement).toHaveAttribute(SESSION_HINT_ATTRIBUTE);
    expect(preloaded('assets/session-me-abc.js')).toBe(true);
    expect(preloaded('assets/amplify-abc.js')).toBe(false);
  });

  it('sends GET /api/me with the fresh stored token at once, for the app to adopt', () => {
    const token = jwt(Math.floor(Date.now() / 1000) + 3600);
    localStorage.setItem(lastAuthUser, 'user-1');
    localStorage.setItem('CognitoIdentityServiceProvider.client.user-1.accessToken', token);
    const fetch = vi.spyOn(window, 'fetch').mockResolvedValue(new Response('{}'));
    runHint();

    expect(fetch).toHaveBeenCalledWith('/api/me', { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });
    expect(takeEarlyProfile()).toBeInstanceOf(Promise);
    expect(takeEarlyProfile()).toBeUndefined();
  });

  it('sends nothing early when the stored token needs a refresh first', () => {
    localStorage.setItem(lastAuthUser, 'user-1');
    localStorage.setItem('CognitoIdentityServiceProvider.client.user-1.accessToken', jwt(Math.floor(Date.now() / 1000) - 10));
    const fetch = vi.spyOn(window, 'fetch');
    runHint();

    expect(fetch).not.toHaveBeenCalled();
    expect(takeEarlyProfile()).toBeUndefined();
  });

  it('leaves a page without a stored session alone', () => {
    localStorage.setItem('CognitoIdentityServiceProvider.client.creator@example.com.clockDrift', '0');
    runHint();

    expect(document.documentElement).not.toHaveAttribute(SESSION_HINT_ATTRIBUTE);
    expect(document.head.querySelector('link[rel="modulepreload"]')).toBeNull();
  });
});

describe('the app shell of a signed-in dashboard', () => {
  const shells = [{ path: '/dashboard/creator', role: 'creator' as const, html: '<div data-testid="sidebar"></div><p data-testid="user-email"></p><h1>Creator Dashboard</h1>' }];
  const signedIn = (groups: string[], token = jwt(Math.floor(Date.now() / 1000) + 3600, { 'cognito:groups': groups })) => {
    localStorage.setItem(lastAuthUser, 'user-1');
    localStorage.setItem('CognitoIdentityServiceProvider.client.user-1.accessToken', token);
    localStorage.setItem('CognitoIdentityServiceProvider.client.user-1.idToken', jwt(0, { email: 'creator@example.com' }));
  };
  const paint = (path: string) => {
    window.history.replaceState(null, '', path);
    document.body.innerHTML = '<div id="root"></div>';
    vi.spyOn(window, 'fetch').mockResolvedValue(new Response('{}'));
    new Function(sessionHintScript([], [], shells))();
    return document.getElementById('root')!;
  };

  it("paints the creator's dashboard frame and heading, with the stored email, before any module runs", () => {
    signedIn(['creator']);
    const root = paint('/dashboard/creator');

    expect(root).toHaveAttribute(SHELL_ATTRIBUTE);
    expect(root.querySelector('h1')).toHaveTextContent('Creator Dashboard');
    expect(root.querySelector('[data-testid="user-email"]')).toHaveTextContent('creator@example.com');
  });

  it('keeps the sidebar collapsed when the visitor collapsed it', () => {
    signedIn(['creator']);
    document.cookie = 'sidebar_state=false; path=/';
    const root = paint('/dashboard/creator');

    expect(root.querySelector('[data-testid="sidebar"]')).toHaveAttribute('data-state', 'collapsed');
  });

  it("never paints another role's shell: an admin who is also a creator, or a learner, gets none", () => {
    signedIn(['creator', 'admin']);
    expect(paint('/dashboard/creator')).toBeEmptyDOMElement();

    signedIn(['learner']);
    expect(paint('/dashboard/creator')).toBeEmptyDOMElement();
  });

  it('paints nothing on other pages, or when the token needs a refresh first (the session may be over)', () => {
    signedIn(['creator']);
    expect(paint('/dashboard/creator/courses')).toBeEmptyDOMElement();

    signedIn(['creator'], jwt(Math.floor(Date.now() / 1000) - 10, { 'cognito:groups': ['creator'] }));
    expect(paint('/dashboard/creator')).toBeEmptyDOMElement();
  });
});
