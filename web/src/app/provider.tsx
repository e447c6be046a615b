import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Toaster } from '@/components/ui/toaster.tsx';
import { onAuthEvent } from '@/lib/auth.ts';

/** App-wide providers. Amplify's auth events keep server state per user: nothing cached survives a change of user. */
export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  useEffect(
    () =>
      onAuthEvent((event) => {
        if (event === 'signedIn' || event === 'signedOut' || event === 'tokenRefresh_failure') queryClient.clear();
      }),
    [queryClient],
  );

  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
