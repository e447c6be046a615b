/**
 * The page's one classic script, run from <head> before the body is parsed (so before any paint; allowed by the CSP
 * as a same-origin file). When Amplify has a session stored (the `LastAuthUser` key lib/auth.ts `hasStoredSession`
 * looks for), it
 * - marks <html> with SESSION_HINT_ATTRIBUTE: on `/`, whose HTML carries the prerendered marketing page
 *   (vite.config.ts `prerenderLanding`), index.css hides that page and main.tsx starts as on any other page (the
 *   loading screen, then wherever the guard sends the visitor), so a signed-in visitor never sees it flash up;
 * - preloads what a signed-in page needs at once but the first load leaves out: Amplify's chunk (lib/auth.ts loads
 *   it lazily) and the profile's (lib/session-me.ts).
 * Only a hint: the guards still decide, and a stale key costs a signed-out visitor the loading screen, nothing more.
 */
export const SESSION_HINT_ATTRIBUTE = 'data-session-hint';

/** The attribute landing.html's #root carries: its markup is the marketing page, rendered at build time. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/** The script's source; `preloads` are the files (under the site root) to preload when a session is stored. */
export const sessionHintScript = (preloads: readonly string[]): string => `try {
  for (var i = 0; i < localStorage.length; i++) {
    var key = localStorage.key(i) || '';
    if (key.indexOf('CognitoIdentityServiceProvider.') === 0 && key.slice(-13) === '.LastAuthUser') {
      document.documentElement.setAttribute('${SESSION_HINT_ATTRIBUTE}', '');
      ${JSON.stringify(preloads)}.forEach(function (file) {
        var link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        link.href = '/' + file;
        document.head.appendChild(link);
      });
      break;
    }
  }
} catch (e) {}
`;
