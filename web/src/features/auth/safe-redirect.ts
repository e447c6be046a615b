import { paths } from '@/lib/paths.ts';

/**
 * The remembered origin after sign-in (`/auth/login?redirectTo=...`, see signInReturningTo). Only same-origin paths
 * pass, so a link to `?redirectTo=https://evil.example` or `//evil.example` cannot send a fresh session elsewhere.
 */
export function safeRedirect(target: string | null | undefined, fallback: string = paths.dashboard): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  return target;
}
