import { createBrowserRouter, Outlet, redirect, type LoaderFunctionArgs } from 'react-router-dom';
import { LoadingScreen } from '@/components/ui/loading-screen.tsx';
import { isSignedIn } from '@/lib/auth.ts';
import { RouteErrorScreen } from './routes/error-screen.tsx';

/** Signed-in visitors of the auth screens go to `/`, which sends them on. */
async function guestOnly(): Promise<Response | null> {
  return (await isSignedIn()) ? redirect('/') : null;
}

/** Anonymous visitors go to the sign-in page, remembering where they wanted to go. */
async function requireSession({ request }: LoaderFunctionArgs): Promise<Response | null> {
  if (await isSignedIn()) return null;
  const { pathname, search } = new URL(request.url);
  return redirect(`/auth/login?redirectTo=${encodeURIComponent(pathname + search)}`);
}

async function home(): Promise<Response> {
  return redirect((await isSignedIn()) ? '/dashboard' : '/auth/login');
}

/**
 * The route table of the SPA. Every screen is a lazy chunk (the initial bundle holds only the shell, router,
 * query client and Amplify auth); guards are loaders, so a redirect happens before any screen renders.
 */
export function createAppRouter() {
  return createBrowserRouter([
    {
      path: '/',
      Component: Outlet,
      ErrorBoundary: RouteErrorScreen,
      HydrateFallback: LoadingScreen,
      children: [
        // The loader always redirects; the Component only satisfies the router (a leaf must render something).
        { index: true, loader: home, Component: LoadingScreen },
        {
          path: 'auth/login',
          loader: guestOnly,
          lazy: () => import('@/features/auth/screens/login-screen.tsx').then((m) => ({ Component: m.LoginScreen })),
        },
        {
          path: 'dashboard',
          loader: requireSession,
          lazy: () =>
            import('@/features/account/screens/account-screen.tsx').then((m) => ({ Component: m.AccountScreen })),
        },
        {
          path: '*',
          lazy: () => import('./routes/not-found.tsx').then((m) => ({ Component: m.NotFoundRoute })),
        },
      ],
    },
  ]);
}
