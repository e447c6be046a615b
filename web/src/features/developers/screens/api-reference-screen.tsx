import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, RotateCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { BrandHomeLink } from '@/components/brand-home-link.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { paths } from '@/lib/paths.ts';
import { developersMessages } from '../developers-messages.ts';

const m = developersMessages.reference;

/** GET /v1/openapi.json: public, generated from the /v1 handlers' schemas. Any JSON object that names its OpenAPI version. */
async function loadSpec({ signal }: { signal: AbortSignal }): Promise<object> {
  const res = await fetch('/v1/openapi.json', { headers: { Accept: 'application/json' }, signal });
  if (!res.ok) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
  const spec: unknown = await res.json();
  if (typeof spec !== 'object' || spec === null || !('openapi' in spec)) throw new Error('/v1/openapi.json is not an OpenAPI document');
  return spec;
}

/** Swagger UI's bundle and its styles, loaded by this page alone (its own chunk: no other page pays for them). */
const loadRenderer = () =>
  Promise.all([import('swagger-ui-dist/swagger-ui-es-bundle.js'), import('swagger-ui-dist/swagger-ui.css'), import('./swagger-ui-contrast.css')]).then(([bundle]) => bundle.default);

/**
 * /developers/api (issue 31 point 3): the public API's reference, for anyone, no sign-in: /v1/openapi.json rendered
 * with Swagger UI, in the app's frame and type, dark text on light. Loading and failure are said in the app's words;
 * 'Try again' loads both again.
 */
export function ApiReferenceScreen() {
  const spec = useQuery({ queryKey: ['developers', 'openapi'], queryFn: loadSpec, retry: false, staleTime: Infinity });
  const target = useRef<HTMLDivElement>(null);
  const [renderer, setRenderer] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const previous = document.title;
    document.title = `${m.title} · Course Platform`;
    return () => {
      document.title = previous;
    };
  }, []);

  useEffect(() => {
    if (!spec.data || !target.current) return;
    const node = target.current;
    let current = true;
    setRenderer('loading');
    loadRenderer().then(
      (SwaggerUI) => {
        if (!current) return;
        node.replaceChildren();
        SwaggerUI({ domNode: node, spec: spec.data, deepLinking: false, docExpansion: 'list', defaultModelsExpandDepth: -1, displayRequestDuration: true });
        setRenderer('ready');
      },
      () => current && setRenderer('failed'),
    );
    return () => {
      current = false;
    };
  }, [spec.data, attempt]);

  const failed = spec.isError || renderer === 'failed';
  const loading = !failed && (spec.isPending || renderer === 'loading');
  const retry = () => {
    if (spec.isError) void spec.refetch();
    setAttempt((n) => n + 1);
  };

  return (
    <div className="flex min-h-dvh flex-col bg-background text-foreground">
      <header className="border-b bg-background">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
          <BrandHomeLink />
          <Button asChild variant="ghost" size="sm" className="h-9 px-3 text-sm">
            <Link to={paths.creator.developers}>
              <ArrowLeft aria-hidden="true" />
              {m.back}
            </Link>
          </Button>
        </div>
      </header>
      <main id="main" className="mx-auto grid w-full max-w-6xl flex-1 content-start gap-6 px-4 py-8 sm:px-6">
        <div className="grid gap-2">
          <h1 className="text-3xl font-semibold tracking-tight">{m.title}</h1>
          <p className="max-w-3xl text-muted-foreground">{m.description}</p>
        </div>
        {failed ? (
          <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border px-4 py-10 text-center">
            <p className="font-medium">{m.loadFailed}</p>
            <p className="text-sm text-muted-foreground">{m.loadFailedDetail}</p>
            <Button variant="outline" loading={spec.isRefetching} onClick={retry}>
              {!spec.isRefetching && <RotateCw aria-hidden="true" />}
              {developersMessages.retry}
            </Button>
          </div>
        ) : (
          loading && (
            <div role="status" className="grid gap-3 rounded-xl border p-4 sm:p-6">
              <span className="sr-only">{m.loading}</span>
              <Skeleton className="h-8 w-1/3" />
              <Skeleton className="h-12 w-full" />
              <Skeleton className="h-12 w-full" />
              <Skeleton className="h-12 w-full" />
            </div>
          )
        )}
        <div
          ref={target}
          data-testid="api-reference"
          hidden={failed || loading}
          className="min-w-0 overflow-x-auto rounded-xl border bg-white text-zinc-950 shadow-sm [&_.swagger-ui]:font-sans [&_.swagger-ui_.info]:mx-5 [&_.swagger-ui_.info]:my-6 [&_.swagger-ui_.scheme-container]:shadow-none [&_.swagger-ui_.wrapper]:max-w-none [&_.swagger-ui_.wrapper]:px-5 [&_.swagger-ui_.info_.title]:font-sans"
        />
      </main>
    </div>
  );
}
