import { beforeEach, vi } from 'vitest';
import { toast } from '@/components/ui/toaster.tsx';

/**
 * Spies on `toast.success` and `toast.error` in each test of the file, so that a test can assert what a screen told
 * the user; the toasts still show (the spies call through, `findToast` finds them). Call at the top of the file. The
 * web project's `restoreMocks` puts the spies back after each test, so no test sees another's calls.
 */
export const spyOnToasts = (): void => {
  beforeEach(() => {
    vi.spyOn(toast, 'success');
    vi.spyOn(toast, 'error');
  });
};
