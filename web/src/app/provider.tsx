import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from '@/components/ui/toaster.tsx';

/**
 * App-wide providers. The session (lib/session.ts, connected in app.tsx) follows Amplify's auth events: the profile
 * tracks sign-in and sign-out, and nothing cached for one user survives into the next.
 */
export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
