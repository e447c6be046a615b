import { redirect, type LoaderFunctionArgs } from 'react-router-dom';
import { paths, signInReturningTo } from './paths.ts';
import { dashboardPathFor, type Role } from './roles.ts';
import { getProfile, type Me } from './session.ts';

export type GuardDecision = { allow: true } | { allow: false; redirectTo: string };

/**
 * SPEC.md section 6: a guard takes the allowed roles and a redirect (default /auth/login). Anonymous visitors go to
 * the redirect with their origin remembered (`?redirectTo=`); a signed-in user whose role is not allowed goes to
 * their own dashboard. No `allowed` list means "any signed-in user".
 */
export function decideAccess(
  profile: Pick<Me, 'role'> | null,
  origin: string,
  { allowed, redirectTo = paths.login }: { allowed?: readonly Role[]; redirectTo?: string } = {},
): GuardDecision {
  if (!profile) return { allow: false, redirectTo: signInReturningTo(origin, redirectTo) };
  if (allowed && !allowed.includes(profile.role)) return { allow: false, redirectTo: dashboardPathFor(profile.role) };
  return { allow: true };
}

function originOf(request: Request): string {
  const { pathname, search, hash } = new URL(request.url);
  return pathname + search + hash;
}

/** A route loader that enforces decideAccess before any of the route's code loads. */
export function requireRole(allowed?: readonly Role[], redirectTo?: string) {
  return async ({ request }: LoaderFunctionArgs): Promise<Response | null> => {
    const decision = decideAccess(await getProfile(), originOf(request), {
      ...(allowed ? { allowed } : {}),
      ...(redirectTo ? { redirectTo } : {}),
    });
    return decision.allow ? null : redirect(decision.redirectTo);
  };
}

/** Any signed-in user (the checkout success page). */
export const requireSession = requireRole();

/** Signed-in visitors of the sign-in and sign-up screens go to `/`, which sends them to their dashboard. */
export async function guestOnly(): Promise<Response | null> {
  return (await getProfile()) ? redirect(paths.home) : null;
}

/** `/dashboard`: each role to its own dashboard, anonymous visitors to sign in (and back here afterwards). */
export async function dashboardRedirect({ request }: LoaderFunctionArgs): Promise<Response> {
  const profile = await getProfile();
  if (!profile) return redirect(signInReturningTo(originOf(request)));
  return redirect(dashboardPathFor(profile.role));
}

/** `/`: a signed-in user goes to their dashboard; an anonymous visitor stays and sees the marketing page. */
export async function homeRedirect(): Promise<Response | null> {
  const profile = await getProfile();
  return profile ? redirect(dashboardPathFor(profile.role)) : null;
}
