import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect.ts';

describe('safeRedirect', () => {
  it('keeps a same-origin path with its query', () => {
    expect(safeRedirect('/dashboard/creator/crm?page=2')).toBe('/dashboard/creator/crm?page=2');
  });

  it.each(['https://evil.example/', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '', null, undefined])(
    'falls back to /dashboard for %s',
    (target) => {
      expect(safeRedirect(target)).toBe('/dashboard');
    },
  );
});
