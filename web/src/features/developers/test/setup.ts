import { afterEach, vi } from 'vitest';
import { fakeApi, jsonResponse } from '@/test/render.tsx';
import { subscription } from '@/test/fixtures.ts';
import { spyOnToasts } from '@/test/toasts.ts';

/**
 * What the Developers page's card tests share (each test file still mocks `@/lib/auth.ts` itself: vi.mock is hoisted
 * per file). Call at the top of the file: the toasts spied on in each test, every stub and spy put back after it.
 */
export const useCardTestSetup = (): void => {
  spyOnToasts();
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
};

type Routes = Parameters<typeof fakeApi>[0];

/** The API of a Pro creator whose `list` route (e.g. 'GET /api/api-keys') answers these items; `more` adds or overrides routes. */
export const proCreatorApi =
  <T,>(list: string) =>
  (items: T[], more: Routes = {}) =>
    fakeApi({
      [list]: () => jsonResponse(200, { items }),
      'GET /api/me/subscription': () => jsonResponse(200, subscription('pro')),
      ...more,
    });
