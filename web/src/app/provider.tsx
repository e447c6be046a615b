import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';

const Toaster = lazy(() => import('@/components/ui/toaster.tsx').then((m) => ({ default: m.Toaster })));

/** The next moment the main thread is idle (a second at most), or a short timeout where there is no idle callback. */
function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: 1000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 200);
  return () => window.clearTimeout(id);
}

/**
 * The toast outlet, mounted once the first page is on screen and the main thread is idle: sonner (its code, and the
 * styles it injects, which restyle the whole page) stays out of the first load. A toast raised before it mounts
 * waits in sonner's queue and shows when it does.
 */
function DeferredToaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => whenIdle(() => setMounted(true)), []);
  return mounted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

/**
 * App-wide providers. The session (lib/session.ts, connected in app.tsx) follows Amplify's auth events: the profile
 * tracks sign-in and sign-out, and nothing cached for one user survives into the next.
 */
export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <DeferredToaster />
    </QueryClientProvider>
  );
}
