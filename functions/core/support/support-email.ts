import { emailHtml, escapeHtml, plainText, PRODUCT_NAME, type EmailMessage } from '#core/accounts/password-reset-email.ts';

/** The admin's reply as plain text: its lines kept, any other control character a space. */
const replyText = (reply: string): string =>
  reply
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => [...line].map((c) => (/[\p{Cc}\u2028\u2029]/u.test(c) ? ' ' : c)).join(''))
    .join('\n');

/** The reply to a creator's support request: the reply itself, and the link to their Support page (the whole thread). */
export const supportReplyEmail = (input: { subject: string; reply: string; closed: boolean; link: string }): EmailMessage => {
  // The subject the creator typed stays out of the email's subject (it is theirs, not ours to put in a header).
  const subject = `${PRODUCT_NAME} support answered your request`;
  const closing = input.closed ? 'We have closed this request. If you need more help, open a new one on your Support page.' : 'Read the whole conversation on your Support page.';
  const text = [
    `${PRODUCT_NAME} support answered your request "${plainText(input.subject)}":`,
    '',
    replyText(input.reply),
    '',
    closing,
    input.link,
  ].join('\n');
  const paragraphs = escapeHtml(input.reply)
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 12px;line-height:1.5">${p.replace(/\n/g, '<br>')}</p>`)
    .join('');
  const html = emailHtml(`<h1 style="margin:0 0 16px;font-size:20px">Support answered your request</h1>
<p style="margin:0 0 16px;line-height:1.5;color:#52525b">Your request: <strong>${escapeHtml(input.subject)}</strong></p>
<div style="margin:0 0 16px;padding:12px 16px;border-left:3px solid #d4d4d8">${paragraphs}</div>
<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(closing)}</p>
<p style="margin:0"><a href="${escapeHtml(input.link)}" style="color:#18181b">Open your Support page</a></p>`);
  return { subject, text, html };
};
