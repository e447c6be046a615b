import { Spinner } from './spinner.tsx';

/** Full-page 'Loading...' while a route's code or the session is resolved. */
export function LoadingScreen({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-dvh items-center justify-center gap-2 text-sm text-muted-foreground">
      <Spinner className="size-5" />
      {label}
    </div>
  );
}
