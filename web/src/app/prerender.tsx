import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router-dom';
import { marketingRoutes } from '@/features/marketing/routes.tsx';
import { createQueryClient } from '@/lib/query-client.ts';
import { App, firstNavigation } from './app.tsx';
import { appRoutes } from './router.tsx';

/**
 * The marketing page as HTML, rendered at build time (vite.config.ts `prerenderLanding` writes it into
 * landing.html, which CloudFront serves for `/`): the page is on screen at the first paint instead of after the
 * scripts ran. The same tree main.tsx hydrates (App under StrictMode, the root route's frame around the landing
 * screen), so React adopts the markup as it is. The guard of `/` is left out: at build time nobody is signed in.
 */
export async function prerenderLanding(): Promise<string> {
  const [root] = appRoutes;
  if (!root || root.index) throw new Error('app/router.tsx has no root route');
  const router = createMemoryRouter([{ ...root, children: marketingRoutes }], { initialEntries: ['/'] });
  await firstNavigation(router);
  if (router.state.errors) throw new Error(`the landing page failed to render: ${JSON.stringify(router.state.errors)}`);
  const html = renderToString(
    <StrictMode>
      <App queryClient={createQueryClient()} router={router} />
    </StrictMode>,
  );
  router.dispose();
  return html;
}
