import { passwordClasses, passwordPolicy } from '#contracts/auth.ts';
import type { Role } from '#contracts/common.ts';
import { emailHtml, escapeHtml, fromSchool, plainText, PRODUCT_NAME, senderOf, type EmailMessage } from '#core/accounts/password-reset-email.ts';
import type { MailSchool } from '#core/ports.ts';

/**
 * The invitation of a learner a creator enrolled by email: the course, where to sign in, the temporary password,
 * and that they will choose their own on first sign-in (Cognito's NEW_PASSWORD_REQUIRED).
 *
 * Every email here is the platform's words with the creator's (a course title) inside them as plain text, escaped in
 * the HTML and never in the subject: a creator cannot make the platform send "their" email (issue 27 point 4).
 */
export interface InvitationEmailInput {
  /** The web app's origin (a trailing slash is ignored). */
  appOrigin: string;
  email: string;
  courseTitle: string;
  temporaryPassword: string;
  /** The creator's school when branded (issue 32): the sender's name, its logo on top, its name in the first line. */
  school?: MailSchool | undefined;
}


export const signInLink = (appOrigin: string): string => `${appOrigin.replace(/\/+$/, '')}/auth/login`;

export const INVITATION_SUBJECT = `You're invited to a course on ${PRODUCT_NAME}`;

export const invitationEmail = (input: InvitationEmailInput): EmailMessage =>
  invitation(input, {
    subject: INVITATION_SUBJECT,
    lead: `${senderOf(input.school)}: you are enrolled in the course "${plainText(input.courseTitle)}".`,
    heading: "You're invited to a course",
    course: input.courseTitle,
  });

/** Pence as pounds in an email ('£29', '£29.50'). */
export const pounds = (pence: number): string => `£${(pence / 100).toFixed(pence % 100 === 0 ? 0 : 2)}`;

/** The account made for a buyer of a course: what they bought and how to sign in to take it. */
export const PURCHASE_SUBJECT = `Your purchase on ${PRODUCT_NAME}`;

export const purchaseInvitationEmail = (input: InvitationEmailInput & { amount: number }): EmailMessage =>
  invitation(input, {
    subject: PURCHASE_SUBJECT,
    lead: `${senderOf(input.school)}: thank you for buying the course "${plainText(input.courseTitle)}" (${pounds(input.amount)}). An account was made for you to take it.`,
    heading: 'Thank you for your purchase',
    course: input.courseTitle,
  });

/** The receipt of a buyer who has an account already: what they bought and where it is (from the school when branded). */
export const purchaseReceiptEmail = (input: { appOrigin: string; courseTitle: string; amount: number; school?: MailSchool | undefined }): EmailMessage => {
  const link = signInLink(input.appOrigin);
  const subject = PURCHASE_SUBJECT;
  const text = [
    `${senderOf(input.school)}: thank you for buying the course "${plainText(input.courseTitle)}" (${pounds(input.amount)}).`,
    '',
    `It is in your courses now. Sign in to start learning: ${link}`,
  ].join('\n');
  const [title, href, paid] = [input.courseTitle, link, pounds(input.amount)].map(escapeHtml);
  const html = emailHtml(`<h1 style="margin:0 0 16px;font-size:20px">Thank you for your purchase</h1>
<p style="margin:0 0 16px;line-height:1.5">Course: <strong>${title}</strong></p>
<p style="margin:0 0 16px;line-height:1.5">You paid <strong>${paid}</strong>. The course is in your courses now.</p>
<p style="margin:0"><a href="${href}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">Start learning</a></p>`,
    480,
    input.school,
  );
  return { subject, text, html, ...fromSchool(input.school) };
};

const roleWords: Record<Role, string> = { admin: 'an admin', creator: 'a creator', leader: 'a group leader', learner: 'a learner' };

/** The invitation of an account an admin created (user management): the role, where to sign in, the password. */
export const accountInvitationEmail = (input: Omit<InvitationEmailInput, 'courseTitle'> & { role: Role }): EmailMessage =>
  invitation(input, {
    subject: `Your ${PRODUCT_NAME} account is ready`,
    lead: `${PRODUCT_NAME}: an account was created for you as ${roleWords[input.role]}.`,
    heading: `Your ${PRODUCT_NAME} account is ready`,
  });

/** A group leader's invitation: the team licence they run (its course and seats), where to sign in, the password. */
export const LEADER_INVITATION_SUBJECT = `You lead a team on ${PRODUCT_NAME}`;

export const leaderInvitationEmail = (input: InvitationEmailInput & { seats: number }): EmailMessage =>
  invitation(input, {
    subject: LEADER_INVITATION_SUBJECT,
    lead: `${senderOf(input.school)}: you are the group leader of a team licence for the course "${plainText(input.courseTitle)}" (${input.seats} seat${input.seats === 1 ? '' : 's'}). Sign in to add your team members.`,
    heading: 'You lead a team',
    course: input.courseTitle,
  });

/** The receipt of a team licence bought by a leader who has an account already: what they bought, where to add the team. */
export const teamReceiptEmail = (input: { appOrigin: string; courseTitle: string; seats: number; amount: number; school?: MailSchool | undefined }): EmailMessage => {
  const link = `${input.appOrigin.replace(/\/+$/, '')}/dashboard/leader/groups`;
  const subject = `Your team licence on ${PRODUCT_NAME}`;
  const what = `${input.seats} seat${input.seats === 1 ? '' : 's'} on the course "${plainText(input.courseTitle)}" (${pounds(input.amount)})`;
  const text = [`${senderOf(input.school)}: thank you for buying ${what}.`, '', `Add your team members here: ${link}`].join('\n');
  const [words, href] = [what, link].map(escapeHtml);
  const html = emailHtml(`<h1 style="margin:0 0 16px;font-size:20px">Your team licence is ready</h1>
<p style="margin:0 0 16px;line-height:1.5">You bought ${words}.</p>
<p style="margin:0"><a href="${href}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">Add your team</a></p>`,
    480,
    input.school,
  );
  return { subject, text, html, ...fromSchool(input.school) };
};

/** Either invitation: its own subject, first line and heading (the platform's), the course, then the same sign-in details. */
const invitation = (input: Omit<InvitationEmailInput, 'courseTitle'>, words: { subject: string; lead: string; heading: string; course?: string }): EmailMessage => {
  const link = signInLink(input.appOrigin);
  const text = [
    words.lead,
    '',
    `Sign in here: ${link}`,
    `Email: ${input.email}`,
    `Temporary password: ${input.temporaryPassword}`,
    '',
    'When you sign in for the first time, you will choose your own password.',
  ].join('\n');
  const [heading, href, email, password] = [words.heading, link, input.email, input.temporaryPassword].map(escapeHtml);
  const course = words.course === undefined ? '' : `<p style="margin:0 0 16px;line-height:1.5">Course: <strong>${escapeHtml(words.course)}</strong></p>\n`;
  const html = emailHtml(
    `<h1 style="margin:0 0 16px;font-size:20px">${heading}</h1>
${course}<p style="margin:0 0 16px;line-height:1.5">Sign in with your email <strong>${email}</strong> and this temporary password:</p>
<p style="margin:0 0 16px;font-size:18px;letter-spacing:1px"><strong>${password}</strong></p>
<p style="margin:0 0 24px"><a href="${href}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">Sign In</a></p>
<p style="margin:0;line-height:1.5;color:#52525b">When you sign in for the first time, you will choose your own password.</p>`,
    480,
    input.school,
  );
  return { subject: words.subject, text, html, ...fromSchool(input.school) };
};

const ALPHABETS = {
  requireUppercase: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
  requireLowercase: 'abcdefghijkmnopqrstuvwxyz',
  requireDigits: '23456789',
  requireSymbols: '!#%+=?@',
} as const;
const LENGTH = Math.max(16, passwordPolicy.minLength);

/**
 * A temporary password that meets the pool's policy (contracts/auth.ts): one character of each class, the rest from
 * them all, shuffled. `randomInt(max)` is a uniform integer in [0, max) from a cryptographic source (the caller's).
 */
export const makeTemporaryPassword = (randomInt: (max: number) => number): string => {
  const classes = (Object.keys(ALPHABETS) as (keyof typeof ALPHABETS)[]).filter((rule) => rule !== 'requireSymbols' || passwordPolicy[rule]);
  const all = classes.map((rule) => ALPHABETS[rule]).join('');
  const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)]!;
  const chars = [...classes.map((rule) => pick(ALPHABETS[rule]))];
  while (chars.length < LENGTH) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  const password = chars.join('');
  if (!classes.every((rule) => passwordClasses[rule].test(password))) throw new Error('temporary password misses a class');
  return password;
};
