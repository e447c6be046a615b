import { afterEach, describe, expect, it } from 'vitest';
import { SESSION_HINT_ATTRIBUTE, sessionHintScript } from './session-hint.ts';

// The key Amplify's default token store writes for the signed-in user (lib/auth.ts `hasStoredSession` reads it too).
const lastAuthUser = 'CognitoIdentityServiceProvider.client.LastAuthUser';
const runHint = () => new Function(sessionHintScript(['assets/amplify-abc.js']))();

afterEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute(SESSION_HINT_ATTRIBUTE);
  for (const link of document.head.querySelectorAll('link')) link.remove();
});

describe('the session hint of the page head', () => {
  it('marks the page and preloads what a signed-in page needs when a session is stored', () => {
    localStorage.setItem(lastAuthUser, 'creator@example.com');
    runHint();

    expect(document.documentElement).toHaveAttribute(SESSION_HINT_ATTRIBUTE);
    const preload = document.head.querySelector('link[rel="modulepreload"][href="/assets/amplify-abc.js"]');
    expect(preload).not.toBeNull();
  });

  it('leaves a page without a stored session alone', () => {
    localStorage.setItem('CognitoIdentityServiceProvider.client.creator@example.com.clockDrift', '0');
    runHint();

    expect(document.documentElement).not.toHaveAttribute(SESSION_HINT_ATTRIBUTE);
    expect(document.head.querySelector('link[rel="modulepreload"]')).toBeNull();
  });
});
