import { WEBHOOK_DISABLE_AFTER_DAYS } from '#contracts/webhooks.ts';
import { emailHtml, escapeHtml, PRODUCT_NAME, type EmailMessage } from '#core/accounts/password-reset-email.ts';

/**
 * The creator's notice that one of their webhook endpoints was disabled (issue 31 point 4): which URL, since when it
 * failed, that nothing more is sent to it, and where to turn it back on. The URL is the creator's own, shown as text.
 */
export const webhookDisabledEmail = (input: { url: string; failingSince: string; link: string }): EmailMessage => {
  const since = new Date(input.failingSince).toUTCString().replace(/:\d\d GMT$/, ' UTC');
  const subject = `${PRODUCT_NAME}: a webhook endpoint was disabled`;
  const explain = `Every delivery to it has failed since ${since}, so after ${WEBHOOK_DISABLE_AFTER_DAYS} days we stopped sending events to it. Events that happen while it is disabled are not sent.`;
  const next = 'Once it answers again with a 2xx status, turn it back on from the Developers page, then use "Retry now" on the deliveries you still need.';
  const text = [`Your webhook endpoint ${input.url} was disabled.`, '', explain, '', next, input.link].join('\n');
  const [url, words, then, href] = [input.url, explain, next, input.link].map(escapeHtml);
  const html = emailHtml(`<h1 style="margin:0 0 16px;font-size:20px">A webhook endpoint was disabled</h1>
<p style="margin:0 0 16px;line-height:1.5;word-break:break-all">Your endpoint <code>${url}</code> was disabled.</p>
<p style="margin:0 0 16px;line-height:1.5">${words}</p>
<p style="margin:0 0 16px;line-height:1.5">${then}</p>
<p style="margin:0;line-height:1.5"><a href="${href}" style="color:#18181b">Open the Developers page</a></p>`);
  return { subject, text, html };
};
