import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { createQueryClient } from '@/lib/query-client.ts';
import { connectSession, profileQueryOptions } from '@/lib/session.ts';
import type { StorefrontSite } from '@/features/storefront/storefront-host.ts';
import { AppProvider } from './provider.tsx';
import { createAppRouter } from './router.tsx';

export type AppRouter = ReturnType<typeof createAppRouter>;

export interface AppParts {
  queryClient: QueryClient;
  router: AppRouter;
}

/**
 * The page's one query client and one router, made once by main.tsx after it configured Amplify (never during a
 * render: StrictMode would make a second, discarded client that could end up holding the session). The session is
 * connected before the router exists, because creating the router starts its first guards, which read the profile.
 * The profile is asked for first, before the router starts loading the page's screens: a signed-in page waits for
 * it, and the screens' chunks would otherwise keep the main thread from sending the request. `site`: the page is a
 * creator's storefront on their custom domain (main.tsx looked the host up), whose router has only its pages.
 */
export function startApp(site?: StorefrontSite): AppParts {
  const queryClient = createQueryClient();
  connectSession(queryClient);
  void queryClient.prefetchQuery(profileQueryOptions());
  return { queryClient, router: createAppRouter(site) };
}

/** Resolves once the router's first navigation settled: its guards ran (redirects followed) and its screens loaded. */
export function firstNavigation(router: AppRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

export function App({ queryClient, router }: AppParts) {
  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
