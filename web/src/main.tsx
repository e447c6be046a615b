import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, firstNavigation, startApp, type AppRouter } from './app/app.tsx';
import { ConfigErrorScreen } from './app/config-error-screen.tsx';
import { storefrontSiteOf } from './features/storefront/storefront-host.ts';
import { PRERENDERED_ATTRIBUTE, SESSION_HINT_ATTRIBUTE, SHELL_ATTRIBUTE } from './app/session-hint.ts';
import { configureAuth } from './lib/auth.ts';
import { loadConfig } from './lib/config.ts';
import { paths } from './lib/paths.ts';
import './index.css';

// A stored session: the profile's module (GET /api/me's contract, with zod) is needed before any signed-in page can
// show. Asked for now, its evaluation goes ahead of the route chunks' instead of queueing behind them.
if (document.documentElement.hasAttribute(SESSION_HINT_ATTRIBUTE)) void import('./lib/session-me.ts');
const container = document.getElementById('root')!;

/**
 * landing.html (`/`) carries the marketing page rendered at build time, on screen before any script runs. Unless
 * the session hint hid it (a signed-in visitor, see app/session-hint.ts), React adopts that markup (hydrates it)
 * instead of replacing it.
 */
const prerendered = container.hasAttribute(PRERENDERED_ATTRIBUTE) && !document.documentElement.hasAttribute(SESSION_HINT_ATTRIBUTE);
/** The app shell the session hint painted (a signed-in dashboard's frame and heading, app/dashboard-shell.tsx). */
const shell = container.hasAttribute(SHELL_ATTRIBUTE);
if (!prerendered && !shell) {
  // The hidden markup of a signed-in visitor goes; whatever renders next must not be hidden by index.css. (A page
  // about to be hydrated keeps its attribute: removing it would make the browser restyle the whole page.)
  container.replaceChildren();
  container.removeAttribute(PRERENDERED_ATTRIBUTE);
}

/** Whether the router settled where the prerendered markup is: `/` for an anonymous visitor, without an error. */
async function settlesOnLanding(router: AppRouter): Promise<boolean> {
  await firstNavigation(router);
  return router.state.location.pathname === paths.home && !router.state.errors;
}

// Amplify must be configured before the first route guard asks for the session, so config comes first. Then, on a
// host that is not the app's own, whether it is a creator's custom domain (the router is then their storefront's).
const started = loadConfig().then((config) => {
  configureAuth(config);
  return storefrontSiteOf(config);
});
started.then(
  async (site) => {
    if (site && (prerendered || shell)) {
      // Never the platform's landing page or dashboard shell under a creator's address (the tenant serves the plain
      // index.html, but a cached or hinted page must not be adopted there either).
      container.replaceChildren();
      container.removeAttribute(PRERENDERED_ATTRIBUTE);
      container.removeAttribute(SHELL_ATTRIBUTE);
    }
    const app = startApp(site);
    const tree = (
      <StrictMode>
        <App {...app} />
      </StrictMode>
    );
    if (prerendered && !site && (await settlesOnLanding(app.router))) {
      // The page is on screen already: hydrating as a transition lets React work in slices, so the browser
      // answers input in between instead of freezing for the whole page.
      startTransition(() => void hydrateRoot(container, tree));
    } else {
      // Any other page (or a signed-in visitor of `/`, whose guard moved on): the loading screen at once while
      // the router's guards run, then the page; markup left in the container is replaced. An app shell stays on
      // screen instead of the loading screen until the router settled, then React's page replaces it in one commit
      // (the same frame and heading in the same place: nothing moves, the heading is not painted anew).
      // As a transition, React renders that page in slices, so the shell on screen stays responsive meanwhile.
      if (shell && !site) {
        await firstNavigation(app.router);
        container.removeAttribute(SHELL_ATTRIBUTE);
        const root = createRoot(container);
        startTransition(() => root.render(tree));
      } else {
        createRoot(container).render(tree);
      }
    }
  },
  (error: unknown) => {
    console.error(error);
    createRoot(container).render(<ConfigErrorScreen message={error instanceof Error ? error.message : String(error)} />);
  },
);
