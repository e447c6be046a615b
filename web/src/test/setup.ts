import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Without vitest globals, Testing Library cannot register its own cleanup.
afterEach(cleanup);

// findBy*/waitFor wait up to 3 s, not 1 s: on CI's two shared cores a screen's first fetch and render can pass a second
// (a quiz screen's findBy once timed out under load and passed alone). What they wait for is unchanged.
configure({ asyncUtilTimeout: 3_000 });

// Radix's Select and Switch use browser APIs jsdom lacks; stand-ins that do nothing are enough for the tests.
class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoResizeObserver;
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => undefined;
Element.prototype.scrollIntoView ??= () => undefined;
