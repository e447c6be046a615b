import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { createQueryClient } from '@/lib/query-client.ts';
import { connectSession } from '@/lib/session.ts';
import { AppProvider } from './provider.tsx';
import { createAppRouter } from './router.tsx';

let singletons: { queryClient: QueryClient; router: ReturnType<typeof createAppRouter> } | undefined;

/**
 * One query client and one router for the page's lifetime, made on the first render (after main.tsx configured
 * Amplify). The session is connected before the router exists, because creating the router starts its first
 * guards, which read the profile. Module state rather than useState: StrictMode calls state initialisers twice,
 * and a second, discarded client must not end up holding the session.
 */
function appSingletons() {
  if (!singletons) {
    const queryClient = createQueryClient();
    connectSession(queryClient);
    singletons = { queryClient, router: createAppRouter() };
  }
  return singletons;
}

export function App() {
  const { queryClient, router } = appSingletons();
  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
