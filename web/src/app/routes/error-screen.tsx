import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';

/** What a routing failure (a loader that throws, a lazy chunk that fails to load) shows instead of a blank page. */
export function RouteErrorScreen() {
  const error = useRouteError();
  console.error(error);
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Something went wrong.';

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">Unexpected Application Error!</h1>
      <p className="max-w-md text-sm text-muted-foreground break-words">{detail}</p>
      <Button variant="outline" onClick={() => window.location.reload()}>
        Reload the page
      </Button>
    </main>
  );
}
