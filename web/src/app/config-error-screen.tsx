/** Shown when `/config.json` is missing or invalid: the app cannot reach Cognito, so nothing else can render. */
export function ConfigErrorScreen({ message }: { message: string }) {
  return (
    <main role="alert" className="flex min-h-dvh flex-col items-center justify-center gap-3 px-4 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">The app could not start</h1>
      <p className="max-w-md text-sm text-muted-foreground break-words">{message}</p>
      <button
        type="button"
        className="rounded-md border border-input px-4 py-2 text-sm font-medium outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
        onClick={() => window.location.reload()}
      >
        Try again
      </button>
    </main>
  );
}
