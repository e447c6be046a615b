import { creatorOfList, type SchoolList, type UnsubscribeList } from '#core/campaigns/email-content.ts';

/**
 * The small pages of the unsubscribe link (RFC 8058): a mail client's one-click POST needs no page, but a person who
 * opens the link gets a confirmation page (a GET never unsubscribes: link scanners and prefetchers open links), whose
 * form sends the same one-click POST. Self-contained HTML under a CSP that allows its inline style and nothing else.
 */
export const unsubscribePageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
} as const;

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const page = (title: string, body: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Course Platform</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f8fafc; color: #0f172a; font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', sans-serif; }
  main { box-sizing: border-box; width: min(28rem, calc(100% - 2rem)); background: #fff; border: 1px solid #e2e8f0; border-radius: 12px; padding: 2rem; box-shadow: 0 1px 2px rgb(0 0 0 / 0.05); }
  h1 { font-size: 1.25rem; margin: 0 0 0.75rem; }
  p { margin: 0 0 1rem; color: #475569; }
  button { font: inherit; font-weight: 600; color: #fff; background: #0f172a; border: 0; border-radius: 8px; padding: 0.625rem 1.25rem; cursor: pointer; }
  button:focus-visible { outline: 3px solid #6366f1; outline-offset: 2px; }
  .brand { font-size: 0.875rem; font-weight: 600; color: #64748b; margin-bottom: 1.5rem; }
</style>
</head>
<body>
<main>
<p class="brand">Course Platform</p>
${body}
</main>
</body>
</html>
`;

/** What each list's pages say it stops. */
const stops: Record<Exclude<UnsubscribeList, SchoolList>, { question: string; confirm: string; done: string }> = {
  campaigns: {
    question: 'Unsubscribe from Course Platform emails?',
    confirm: 'will no longer receive our newsletters and announcements. Emails about your account, such as password resets, still arrive.',
    done: 'You will not receive Course Platform newsletters and announcements any more. You can close this page.',
  },
  'weekly-report': {
    question: 'Stop the weekly team report?',
    confirm: 'will no longer receive the weekly team progress email. Your team, its reports and your other emails stay as they are.',
    done: 'You will not receive the weekly team progress email any more. You can turn it back on in your group leader settings. You can close this page.',
  },
  'comment-digest': {
    question: 'Stop the daily digest of new comments?',
    confirm: "will no longer receive the daily email of new comments in your courses' discussions. The discussions and your other emails stay as they are.",
    done: 'You will not receive the daily digest of new comments any more. You can turn it back on in your profile. You can close this page.',
  },
};

/** A creator's own emails (issue 33): their sequences stop; their courses and the platform's emails go on. */
const schoolStops = {
  question: "Stop this school's emails?",
  confirm: "will no longer receive this school's course emails (its email sequences). Your courses, receipts and invitations stay as they are.",
  done: "You will not receive this school's course emails any more. Your courses and your other emails stay as they are. You can close this page.",
};

const stopsOf = (list: UnsubscribeList) => (creatorOfList(list) !== undefined ? schoolStops : stops[list as Exclude<UnsubscribeList, SchoolList>]);

/** GET with a valid token: who is about to be unsubscribed from what, and the button that does it. */
export const confirmPage = (maskedAddress: string, list: UnsubscribeList = 'campaigns'): string =>
  page(
    'Unsubscribe',
    `<h1>${stopsOf(list).question}</h1>
<p>${escapeHtml(maskedAddress)} ${stopsOf(list).confirm}</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>`,
  );

/** After the POST, for a person (a mail client gets JSON). */
export const donePage = (list: UnsubscribeList = 'campaigns'): string => page('Unsubscribed', `<h1>You're unsubscribed</h1>\n<p>${stopsOf(list).done}</p>`);

/** A token that was changed or cut short. */
export const invalidLinkPage = (message: string): string => page('Link not valid', `<h1>This link is not valid</h1>\n<p>${escapeHtml(message)}</p>`);
