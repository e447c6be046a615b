import { act } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App, firstNavigation, startApp } from './app.tsx';
import { prerenderLanding } from './prerender.tsx';

// An anonymous visitor: no session, so the guard of `/` lets the marketing page stay.
vi.mock('@/lib/auth.ts', () => ({
  isSignedIn: vi.fn(() => Promise.resolve(false)),
  getAccessToken: vi.fn(() => Promise.resolve(undefined)),
  signOutUser: vi.fn(() => Promise.resolve()),
  onAuthEvent: vi.fn(() => () => undefined),
}));

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.replaceChildren();
});

describe('the prerendered marketing page', () => {
  it('is adopted by the app as it is: hydrated without a mismatch, its nodes kept', async () => {
    const container = document.createElement('div');
    container.innerHTML = await prerenderLanding();
    document.body.append(container);
    const heading = container.querySelector('h1');
    expect(heading).toHaveTextContent('Create. License. Grow.');

    // What main.tsx does on `/`: the app's own router settles on the page, then React hydrates it.
    window.history.replaceState(null, '', '/');
    const app = startApp();
    await firstNavigation(app.router);
    const mismatches: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(
        container,
        <StrictMode>
          <App {...app} />
        </StrictMode>,
        { onRecoverableError: (error) => mismatches.push(error) },
      );
    });

    expect(mismatches).toEqual([]);
    expect(container.querySelector('h1')).toBe(heading);
    // The one thing the build cannot know, the copyright year, is filled in after hydration.
    expect(container.querySelector('footer')).toHaveTextContent(`© ${new Date().getFullYear()} Course Platform`);
  });
});
