import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/lib/paths.ts';

export function NotFoundRoute() {
  const { pathname } = useLocation();
  useEffect(() => {
    // The spec asks for unknown paths to be logged.
    console.error(`404: no route for ${pathname}`);
  }, [pathname]);

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <p className="text-6xl font-bold tracking-tight text-muted-foreground" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-semibold tracking-tight">Oops! Page not found</h1>
      <p className="max-w-sm text-sm text-muted-foreground">
        The page <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs break-all">{pathname}</code> does not exist.
      </p>
      <Button asChild>
        <Link to={paths.home}>Return to Home</Link>
      </Button>
    </main>
  );
}
