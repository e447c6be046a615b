import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AutomationId, TemplateId } from '#contracts/campaigns.ts';

/**
 * What a platform email says and how it is rendered: the built-in templates, the automations that use them, the
 * plain text an admin writes turned into a text and an HTML part with an unsubscribe footer, and the unsubscribe
 * token (the address and an HMAC over it). Pure: the HMAC key is passed in.
 */

export interface TemplateDefault {
  name: string;
  description: string;
  subject: string;
  content: string;
}

export const templateDefaults: Record<TemplateId, TemplateDefault> = {
  welcome: {
    name: 'Welcome Email',
    description: 'Greets a new creator and points to their first course.',
    subject: 'Welcome to Course Platform: your first course starts here',
    content: [
      'Hello and welcome!',
      'Your creator account is ready. In a few minutes you can have your first course outline in place: open My Courses, choose Create Course, and add a lesson or two. Nothing is public until you publish it.',
      'Three things creators set up in their first week:\n- a course with a short welcome lesson\n- an AI landing page that tells visitors what you teach\n- an invitation to a first learner, so you can see the course through their eyes',
      'If you get stuck, reply to this email: a person reads every reply.',
      'Happy creating,\nThe Course Platform team',
    ].join('\n\n'),
  },
  newsletter: {
    name: 'Monthly Newsletter',
    description: 'Platform news, tips and featured courses.',
    subject: 'This month on Course Platform',
    content: [
      'Hello,',
      "Here is what's new on the platform this month, and one idea to try in your courses.",
      "What's new:\n- (a new feature or improvement)\n- (a second one)",
      'Tip of the month: short lessons are finished more often. Splitting a 30-minute video into three 10-minute lessons lets learners see their progress grow.',
      'Thanks for teaching with us,\nThe Course Platform team',
    ].join('\n\n'),
  },
  announcement: {
    name: 'Course Announcement',
    description: 'Announces a new or updated course.',
    subject: 'New course: (course name)',
    content: [
      'Hello,',
      "We're happy to announce (course name): (one sentence on what learners will be able to do afterwards).",
      'What it covers:\n- (first topic)\n- (second topic)\n- (third topic)',
      'Sign in to your dashboard to take a look.',
      'See you there,\nThe Course Platform team',
    ].join('\n\n'),
  },
  'trial-ending': {
    name: 'Trial Ending Reminder',
    description: 'Sent 3 days before a Starter trial ends.',
    subject: 'Your Starter trial ends in 3 days',
    content: [
      'Hello,',
      'Your 14-day Starter trial ends in 3 days. Your plan then continues on Starter at £28 a month, with your courses, learners and AI credits as they are.',
      'Nothing to do if you want to keep going. To change plan or cancel, open your dashboard and choose Manage billing.',
      'Thanks for trying Course Platform,\nThe Course Platform team',
    ].join('\n\n'),
  },
};

export const automationDefaults: Record<AutomationId, { name: string; trigger: string; templateId: TemplateId }> = {
  welcome: { name: 'Welcome email', trigger: 'When a creator signs up', templateId: 'welcome' },
  'trial-ending': { name: 'Trial ending reminder', trigger: '3 days before a Starter trial ends', templateId: 'trial-ending' },
};

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * SES renders a bulk message's parts as a Handlebars-like template, so `{{` in an admin's text would be read as a
 * placeholder (and a bad one fails the whole batch). In HTML the braces become entities; in text a zero-width space
 * separates them, which reads the same.
 */
export const noPlaceholdersHtml = (html: string): string => html.replace(/\{/g, '&#123;').replace(/\}/g, '&#125;');
export const noPlaceholdersText = (text: string): string => text.replace(/\{(?=\{)/g, '{\u200b').replace(/\}(?=\})/g, '}\u200b');

const linkify = (escaped: string): string => escaped.replace(/\bhttps?:\/\/[^\s<]+[^\s<.,;:!?)]/g, (url) => `<a href="${url}">${url}</a>`);

/** The placeholder each message's own unsubscribe URL replaces (SES ReplacementTemplateData). */
export const UNSUBSCRIBE_PLACEHOLDER = '{{unsubscribeUrl}}';

/**
 * An admin's plain text as a message: paragraphs (blank lines), lines (`\n`) and links kept in the HTML, and a footer
 * with the unsubscribe link in both parts (the link is also in the List-Unsubscribe header).
 */
export const renderMessage = (subject: string, content: string): { subject: string; text: string; html: string } => {
  const paragraphs = content.trim().split(/\n\s*\n/);
  const html = paragraphs.map((p) => `<p style="margin:0 0 16px">${linkify(escapeHtml(p.trim())).replace(/\n/g, '<br>')}</p>`).join('\n');
  return {
    subject: noPlaceholdersText(subject),
    text: `${noPlaceholdersText(content.trim())}\n\n--\nYou receive this email because you have an account on Course Platform.\nUnsubscribe: ${UNSUBSCRIBE_PLACEHOLDER}\n`,
    html:
      `<div style="font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:16px;line-height:1.5;color:#111827;max-width:560px">\n` +
      `${noPlaceholdersHtml(html)}\n` +
      `<p style="margin:32px 0 0;font-size:13px;color:#6b7280">You receive this email because you have an account on Course Platform. ` +
      `<a href="${UNSUBSCRIBE_PLACEHOLDER}" style="color:#6b7280">Unsubscribe</a></p>\n</div>`,
  };
};

const b64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');
const mac = (key: Uint8Array, subject: string): Buffer => createHmac('sha256', key).update(`unsubscribe:${subject}`).digest();

/**
 * What an unsubscribe link stops: `campaigns` (newsletters, announcements and automations: the address is suppressed)
 * or one kind of notification (`weekly-report`: the group leader's weekly team email is turned off; `comment-digest`:
 * the creator's daily digest of their learners' comments is turned off).
 */
export const unsubscribeLists = ['campaigns', 'weekly-report', 'comment-digest'] as const;
/**
 * Or one creator's marketing mail to their learners (`school-<creatorId>`: their email sequences, issue 33): the learner
 * leaves that creator's sequences, and nothing else of theirs stops.
 */
export type SchoolList = `school-${string}`;
export type UnsubscribeList = (typeof unsubscribeLists)[number] | SchoolList;

const SCHOOL_LIST = /^school-([A-Za-z0-9_-]{1,100})$/;
/** The list of a creator's own emails to their learners. */
export const schoolList = (creatorId: string): SchoolList => `school-${creatorId}`;
/** The creator a school list names, or undefined for the platform's lists. */
export const creatorOfList = (list: UnsubscribeList): string | undefined => SCHOOL_LIST.exec(list)?.[1];

/** What the HMAC covers: the address, and the list when it is not the campaigns' (whose tokens predate lists). */
const subjectOf = (email: string, list: UnsubscribeList): string => (list === 'campaigns' ? email : `${list}:${email}`);

/** The unsubscribe token of an address: `<address>.<HMAC>` (campaigns) or `<address>.<HMAC>.<list>`, base64url parts. */
export const unsubscribeToken = (key: Uint8Array, email: string, list: UnsubscribeList = 'campaigns'): string => {
  const address = email.toLowerCase();
  const token = `${b64url(address)}.${b64url(mac(key, subjectOf(address, list)))}`;
  return list === 'campaigns' ? token : `${token}.${list}`;
};

/** The address and list a token was made for, or undefined when any part of it was changed. */
export const verifyUnsubscribeToken = (key: Uint8Array, token: string): { email: string; list: UnsubscribeList } | undefined => {
  const [encoded, signature, named, extra] = token.split('.');
  if (!encoded || !signature || extra !== undefined) return undefined;
  const list = named === undefined ? 'campaigns' : (unsubscribeLists.find((l) => l === named && l !== 'campaigns') ?? (SCHOOL_LIST.test(named) ? (named as SchoolList) : undefined));
  if (!list) return undefined;
  const email = Buffer.from(encoded, 'base64url').toString('utf8');
  if (b64url(email) !== encoded || !email.includes('@')) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, subjectOf(email, list));
  return given.length === expected.length && timingSafeEqual(given, expected) ? { email, list } : undefined;
};

/** The address as the confirmation page shows it: enough to recognise, not enough to harvest (a•••@example.com). */
export const maskedEmail = (email: string): string => {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
};
