/**
 * The remembered origin after sign-in (`/auth/login?redirectTo=...`). Only same-origin paths pass, so a link to
 * `?redirectTo=https://evil.example` or `//evil.example` cannot send a fresh session elsewhere.
 */
export function safeRedirect(target: string | null | undefined, fallback = '/dashboard'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  return target;
}
