import type { MailSchool } from '#core/ports.ts';

/**
 * The password reset email (Cognito CustomMessage_ForgotPassword). Cognito puts the code where
 * `codeParameter` ('{####}') stands, in the subject and body alike, and refuses a message without it.
 * The link opens the web app's /reset-password with the code and the email filled in.
 */

export const PRODUCT_NAME = 'Course Platform';
/** Cognito's forgot-password codes expire after one hour. */
const CODE_VALIDITY = '1 hour';

export interface PasswordResetEmailInput {
  /** The web app's origin, e.g. https://courses.example.com (a trailing slash is ignored). */
  appOrigin: string;
  email: string;
  /** What Cognito replaces with the code: '{####}'. Kept verbatim, never URL-encoded. */
  codeParameter: string;
}

export interface EmailMessage {
  subject: string;
  /** HTML body (Cognito sends the message as HTML). */
  html: string;
  /** The same content as plain text, for senders that send both parts. */
  text: string;
  /** The sender's display name: a branded creator's school (issue 32). */
  fromName?: string;
}

/** Text made safe inside HTML and its attributes (every email builds its HTML with it). */
export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * A user's words (a course title, a creator's name) inside the platform's plain-text email: one line, no control
 * characters, so it reads as quoted text in the platform's sentence and can never start a line or a header of its own.
 * The HTML part escapes it (escapeHtml). Subjects never carry it (issue 27 point 4).
 */
export const plainText = (value: string): string =>
  [...value]
    .map((c) => (/[\p{Cc}\u2028\u2029]/u.test(c) ? ' ' : c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();

/** `<origin>/reset-password?code={####}&email=<encoded>`: the placeholder stays literal so Cognito can fill it. */
/**
 * The frame of every platform email's HTML part: a card on a light page, the product's name on top, `content` (HTML
 * the caller escaped) inside, `width` pixels at most. An email to a branded creator's learners (issue 32) has the
 * school on top instead (its logo, else its name) and says under the card that the platform sent it for the school.
 */
export const emailHtml = (content: string, width = 480, school?: MailSchool): string => `<!doctype html>
<html lang="en">
<body style="margin:0;padding:24px;background:#f6f6f7;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#18181b">
<div style="max-width:${width}px;margin:0 auto;background:#ffffff;border:1px solid #e4e4e7;border-radius:12px;padding:32px">
${school ? schoolHeader(school) : `<p style="margin:0 0 24px;font-weight:600">${PRODUCT_NAME}</p>`}
${content}
</div>${school ? `\n<p style="max-width:${width}px;margin:12px auto 0;font-size:12px;color:#71717a;text-align:center">Sent by ${PRODUCT_NAME} for ${escapeHtml(school.name)}.</p>` : ''}
</body>
</html>`;

const schoolHeader = (school: MailSchool): string =>
  school.logoUrl
    ? `<p style="margin:0 0 24px"><img src="${escapeHtml(school.logoUrl)}" alt="${escapeHtml(school.name)}" height="40" style="height:40px;max-width:200px;border:0"></p>`
    : `<p style="margin:0 0 24px;font-weight:600">${escapeHtml(school.name)}</p>`;

/** The first words of an email's text part: the school it comes from, or the platform. */
export const senderOf = (school: MailSchool | undefined): string => (school ? plainText(school.name) : PRODUCT_NAME);

/** The sender's display name of an email from a branded school (issue 32); none for the platform's own email. */
export const fromSchool = (school: MailSchool | undefined): Pick<EmailMessage, 'fromName'> => (school ? { fromName: school.name } : {});

export const passwordResetLink = ({ appOrigin, email, codeParameter }: PasswordResetEmailInput): string =>
  `${appOrigin.replace(/\/+$/, '')}/reset-password?code=${codeParameter}&email=${encodeURIComponent(email)}`;

export const passwordResetEmail = (input: PasswordResetEmailInput): EmailMessage => {
  const link = passwordResetLink(input);
  const href = escapeHtml(link);
  const email = escapeHtml(input.email);
  const code = escapeHtml(input.codeParameter);
  const subject = `Reset your ${PRODUCT_NAME} password`;

  const html = emailHtml(`<h1 style="margin:0 0 16px;font-size:20px">Reset your password</h1>
<p style="margin:0 0 16px;line-height:1.5">We received a request to reset the password of the account <strong>${email}</strong>. Choose a new password with this link:</p>
<p style="margin:0 0 24px"><a href="${href}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">Reset Password</a></p>
<p style="margin:0 0 8px;line-height:1.5">If the button does not work, open this address:</p>
<p style="margin:0 0 16px;line-height:1.5;word-break:break-all"><a href="${href}" style="color:#18181b">${href}</a></p>
<p style="margin:0 0 16px;line-height:1.5">Your code is <strong style="font-size:18px;letter-spacing:2px">${code}</strong>. It expires in ${CODE_VALIDITY}.</p>
<p style="margin:0;line-height:1.5;color:#52525b">If you did not ask for this, ignore this email: your password stays as it is.</p>`);

  const text = [
    `${PRODUCT_NAME}: reset your password`,
    '',
    `We received a request to reset the password of the account ${input.email}.`,
    'Choose a new password here:',
    link,
    '',
    `Your code is ${input.codeParameter}. It expires in ${CODE_VALIDITY}.`,
    'If you did not ask for this, ignore this email: your password stays as it is.',
  ].join('\n');

  return { subject, html, text };
};

/** Cognito's attribute verification codes expire after 24 hours. */
const VERIFY_CODE_VALIDITY = '24 hours';

/**
 * The email verification code (Cognito CustomMessage_VerifyUserAttribute, sent when the app asks for it with
 * GetUserAttributeVerificationCode): the code to type into the app's "Verify your email" field. Cognito puts the code
 * where `codeParameter` stands.
 */
export const emailVerificationEmail = (input: { email: string; codeParameter: string }): EmailMessage => {
  const subject = `Verify your email for ${PRODUCT_NAME}`;
  const [email, code] = [input.email, input.codeParameter].map(escapeHtml);
  const html = emailHtml(`<h1 style="margin:0 0 16px;font-size:20px">Verify your email</h1>
<p style="margin:0 0 16px;line-height:1.5">Enter this code in ${PRODUCT_NAME} to verify <strong>${email}</strong>:</p>
<p style="margin:0 0 16px;font-size:24px;letter-spacing:4px"><strong>${code}</strong></p>
<p style="margin:0 0 16px;line-height:1.5">It expires in ${VERIFY_CODE_VALIDITY}. Once your email is verified, ${PRODUCT_NAME} can send invitations and messages on your behalf.</p>
<p style="margin:0;line-height:1.5;color:#52525b">If you did not ask for this, ignore this email.</p>`);
  const text = [
    `${PRODUCT_NAME}: verify your email`,
    '',
    `Enter this code in ${PRODUCT_NAME} to verify ${input.email}: ${input.codeParameter}`,
    `It expires in ${VERIFY_CODE_VALIDITY}.`,
    'If you did not ask for this, ignore this email.',
  ].join('\n');
  return { subject, html, text };
};
