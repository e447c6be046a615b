import type { DashboardShell } from './dashboard-shell.tsx';
import { roleLabels } from '../lib/roles.ts';
import { EARLY_PROFILE_GLOBAL, EARLY_PROFILE_PATH, SESSION_KEY_PREFIX, SESSION_KEY_SUFFIX, TOKEN_MARGIN_MS } from '../lib/stored-session.ts';

/**
 * The page's one classic script, run from <head> before the body is parsed (so before any paint; allowed by the CSP
 * as a same-origin file). When Amplify has a session stored (the `LastAuthUser` key lib/stored-session.ts `hasStoredSession`
 * looks for), it
 * - marks <html> with SESSION_HINT_ATTRIBUTE: on `/`, whose HTML carries the prerendered marketing page
 *   (vite.config.ts `prerenderLanding`), index.css hides that page and main.tsx starts as on any other page (the
 *   loading screen, then wherever the guard sends the visitor), so a signed-in visitor never sees it flash up;
 * - preloads what a signed-in page needs at once but the first load leaves out: the profile's chunk
 *   (lib/session-me.ts) always, and Amplify's (lib/auth.ts loads it lazily) only when the stored access token has
 *   less than a minute to live: a fresh one is used without Amplify (lib/stored-session.ts `storedAccessToken`);
 * - with a fresh token, sends GET /api/me at once (EARLY_PROFILE_GLOBAL), so the profile is on its way while the
 *   scripts load and run;
 * - with a fresh token whose role (its first Cognito group in the API's order) owns a page that has an app shell
 *   (app/dashboard-shell.tsx) and the visitor is on that page, puts the shell into #root as soon as the body is
 *   parsed (before the module scripts run), marked with SHELL_ATTRIBUTE: the frame and the page's heading are on
 *   screen at the first paint, and main.tsx lets React replace them only once the page is ready to render.
 * Only a hint: the guards still decide, and a stale key costs a signed-out visitor the loading screen, nothing more.
 */
export const SESSION_HINT_ATTRIBUTE = 'data-session-hint';

/** The attribute landing.html's #root carries: its markup is the marketing page, rendered at build time. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/** The attribute #root carries while it holds an app shell painted by the session hint. */
export const SHELL_ATTRIBUTE = 'data-app-shell';

/**
 * The script's source: `preloads` (files under the site root) when a session is stored, and `refreshPreloads` as well
 * when its access token needs refreshing (expired, expiring, or unreadable); `shells`, the pages painted early.
 */
export const sessionHintScript = (
  preloads: readonly string[],
  refreshPreloads: readonly string[] = [],
  shells: readonly DashboardShell[] = [],
): string => `try {
  var preload = function (file) {
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = '/' + file;
    document.head.appendChild(link);
  };
  var claims = function (token) {
    var part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(part + '==='.slice((part.length + 3) % 4)));
  };
  var freshToken = function (base) {
    try {
      var user = localStorage.getItem(base + '${SESSION_KEY_SUFFIX}');
      var token = localStorage.getItem(base + '.' + user + '.accessToken') || '';
      var drift = parseInt(localStorage.getItem(base + '.' + user + '.clockDrift') || '0', 10) || 0;
      return claims(token).exp * 1000 - (Date.now() + drift) > ${TOKEN_MARGIN_MS} ? token : null;
    } catch (e) {
      return null;
    }
  };
  var paintShell = function (base, token) {
    var groups = claims(token)['cognito:groups'] || [];
    var role = ${JSON.stringify(Object.keys(roleLabels))}.filter(function (r) { return groups.indexOf(r) >= 0; })[0];
    var shell = ${JSON.stringify(shells)}.filter(function (s) { return s.path === location.pathname && s.role === role; })[0];
    if (!shell) return;
    var email = '';
    try {
      email = claims(localStorage.getItem(base + '.' + localStorage.getItem(base + '${SESSION_KEY_SUFFIX}') + '.idToken') || '').email || '';
    } catch (e) {}
    var fill = function () {
      var root = document.getElementById('root');
      if (!root || root.firstChild) return;
      root.innerHTML = shell.html;
      root.setAttribute('${SHELL_ATTRIBUTE}', '');
      var line = root.querySelector('[data-testid="user-email"]');
      if (line) line.textContent = email;
      var sidebar = root.querySelector('[data-testid="sidebar"]');
      if (sidebar && /(^|;\\s*)sidebar_state=false(;|$)/.test(document.cookie)) {
        sidebar.setAttribute('data-state', 'collapsed');
        sidebar.setAttribute('data-collapsible', 'icon');
      }
    };
    if (document.readyState === 'loading') document.addEventListener('readystatechange', fill, { once: true });
    else fill();
  };
  for (var i = 0; i < localStorage.length; i++) {
    var key = localStorage.key(i) || '';
    if (key.indexOf('${SESSION_KEY_PREFIX}') === 0 && key.slice(-${SESSION_KEY_SUFFIX.length}) === '${SESSION_KEY_SUFFIX}') {
      document.documentElement.setAttribute('${SESSION_HINT_ATTRIBUTE}', '');
      ${JSON.stringify(preloads)}.forEach(preload);
      var token = freshToken(key.slice(0, -${SESSION_KEY_SUFFIX.length}));
      if (!token) ${JSON.stringify(refreshPreloads)}.forEach(preload);
      else {
        var early = fetch('${EARLY_PROFILE_PATH}', { headers: { Accept: 'application/json', Authorization: 'Bearer ' + token } });
        early.catch(function () {});
        window.${EARLY_PROFILE_GLOBAL} = early;
        paintShell(key.slice(0, -${SESSION_KEY_SUFFIX.length}), token);
      }
      break;
    }
  }
} catch (e) {}
`;
