import { emailHtml, escapeHtml, plainText, PRODUCT_NAME, type EmailMessage } from '#core/accounts/password-reset-email.ts';

/** The new affiliate's welcome: whose courses, their link, what they earn and how long a click counts. */
export const affiliateEmail = (input: { name: string; creatorName: string; link: string; percent: number; cookieDays: number; holdDays: number }): EmailMessage => {
  // The creator's name and the affiliate's name (both typed by the creator) stay out of the subject (issue 27 point 4).
  const subject = `Your affiliate link on ${PRODUCT_NAME}`;
  const terms = `You earn ${input.percent}% of what each buyer you send pays. A click counts for ${input.cookieDays} day${input.cookieDays === 1 ? '' : 's'}; commissions are approved ${input.holdDays} day${input.holdDays === 1 ? '' : 's'} after the sale, once it can no longer be refunded.`;
  const text = [
    `${PRODUCT_NAME}: hello ${plainText(input.name)},`,
    '',
    `The creator "${plainText(input.creatorName)}" added you as an affiliate. Share this link:`,
    input.link,
    '',
    terms,
  ].join('\n');
  const [name, creator, href, words] = [input.name, input.creatorName, input.link, terms].map(escapeHtml);
  const html = emailHtml(`<h1 style="margin:0 0 16px;font-size:20px">Here is your affiliate link</h1>
<p style="margin:0 0 16px;line-height:1.5">Hello ${name},</p>
<p style="margin:0 0 16px;line-height:1.5">The creator <strong>${creator}</strong> added you as an affiliate. Share this link:</p>
<p style="margin:0 0 16px;line-height:1.5;word-break:break-all"><a href="${href}" style="color:#18181b">${href}</a></p>
<p style="margin:0;line-height:1.5;color:#52525b">${words}</p>`);
  return { subject, text, html };
};
