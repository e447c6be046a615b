import type { CommentRole } from '#contracts/comments.ts';
import { emailHtml, escapeHtml, plainText, PRODUCT_NAME } from '#core/accounts/password-reset-email.ts';
import type { StoredComment } from '#core/comments/ports.ts';
import type { MailMessage, MailSchool } from '#core/ports.ts';

/**
 * The discussion's emails (issue 35 point 1): a thread's author told of replies (several within minutes in one),
 * the creator's daily digest of their learners' comments, and a learner's report to the creator. A comment's text is
 * quoted as plain text, cut short: never its HTML, so nothing a learner typed becomes markup in an email.
 */

/** Where a link leads (web/src/lib/paths.ts): the learner's player at the lesson, the creator's course editor. */
export const lessonLink = (appOrigin: string, role: CommentRole, courseId: string, lessonId: string): string =>
  role === 'learner'
    ? `${appOrigin}/dashboard/learner/courses/${encodeURIComponent(courseId)}?lesson=${encodeURIComponent(lessonId)}`
    : `${appOrigin}/dashboard/creator/courses/${encodeURIComponent(courseId)}`;

/** How much of a reply its notice quotes: enough to answer from the email, not the whole of a long one. */
export const REPLY_QUOTE_MAX = 500;

/** A comment's first words as one line of text. */
export const excerpt = (body: string, max = 160): string => {
  const line = plainText(body.replace(/\s+/g, ' ')).trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const button = (url: string, label: string) =>
  `<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="background:#18181b;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a></p>`;

export interface ReplyNoticeInput {
  to: string;
  role: CommentRole;
  replies: number;
  courseTitle: string;
  lessonTitle: string;
  /** The latest reply, quoted (its first REPLY_QUOTE_MAX characters) with who wrote it. */
  latest: Pick<StoredComment, 'authorName' | 'authorRole' | 'body'> | undefined;
  link: string;
  school: MailSchool | undefined;
  /** A learner's: the creator's unsubscribe link (school list) and its RFC 8058 headers. */
  unsubscribe?: { url: string; headers: { name: string; value: string }[] } | undefined;
}

export const replyNoticeEmail = (input: ReplyNoticeInput): MailMessage => {
  const what = input.replies === 1 ? 'a new reply' : `${input.replies} new replies`;
  const where = `${plainText(input.lessonTitle)} (${plainText(input.courseTitle)})`;
  const sender = input.school ? plainText(input.school.name) : PRODUCT_NAME;
  const who = input.latest && `${plainText(input.latest.authorName)}${input.latest.authorRole === 'creator' ? ' (the course’s creator)' : ''}`;
  const said = input.latest && excerpt(input.latest.body, REPLY_QUOTE_MAX);
  const intro = input.replies === 1 ? `${who} replied:` : `The latest, from ${who}:`;
  const footer = input.unsubscribe
    ? `<p style="margin:32px 0 0;font-size:13px;color:#71717a">You receive this email because you take part in a course of ${escapeHtml(sender)}. <a href="${escapeHtml(input.unsubscribe.url)}" style="color:#71717a">Unsubscribe from ${escapeHtml(sender)}'s emails</a></p>`
    : '';
  return {
    to: input.to,
    // No user's words in a subject (issue 27 point 4): the lesson and course are in the body.
    subject: `Your comment has ${what}`,
    text: `Your comment on ${where} has ${what}.\n${said ? `\n${intro}\n“${said}”\n` : ''}\nRead the thread: ${input.link}\n${input.unsubscribe ? `\n--\nUnsubscribe from ${sender}'s emails: ${input.unsubscribe.url}\n` : ''}`,
    html: emailHtml(
      `<p>Your comment on <strong>${escapeHtml(where)}</strong> has ${escapeHtml(what)}.</p>${said ? `<p style="margin:16px 0 4px">${escapeHtml(intro)}</p><blockquote style="margin:0 0 16px;padding-left:12px;border-left:3px solid #e4e4e7;color:#3f3f46">${escapeHtml(said)}</blockquote>` : ''}${button(input.link, 'Read the thread')}${footer}`,
      560,
      input.school,
    ),
    ...(input.school ? { fromName: input.school.name } : {}),
    ...(input.unsubscribe ? { headers: input.unsubscribe.headers } : {}),
  };
};

export interface DigestInput {
  to: string;
  day: string;
  /** Every comment of the day (the digest lists the newest of them). */
  total: number;
  listed: { authorName: string; body: string; courseTitle: string; lessonTitle: string; link: string }[];
  /** The link that turns the digest off (and nothing else), and its RFC 8058 headers. */
  unsubscribe: { url: string; headers: { name: string; value: string }[] };
}

export const digestEmail = (input: DigestInput): MailMessage => {
  const what = input.total === 1 ? '1 new comment' : `${input.total} new comments`;
  const more = input.total > input.listed.length ? input.total - input.listed.length : 0;
  const lines = input.listed.map((c) => `- ${plainText(c.authorName)} on ${plainText(c.lessonTitle)} (${plainText(c.courseTitle)}): “${excerpt(c.body)}”\n  ${c.link}`);
  const items = input.listed
    .map((c) => `<li style="margin:0 0 12px"><strong>${escapeHtml(plainText(c.authorName))}</strong> on <a href="${escapeHtml(c.link)}">${escapeHtml(plainText(c.lessonTitle))}</a> (${escapeHtml(plainText(c.courseTitle))})<br>“${escapeHtml(excerpt(c.body))}”</li>`)
    .join('');
  return {
    to: input.to,
    subject: `${what} from your learners on ${input.day}`,
    text: `${what} from your learners on ${input.day}:\n\n${lines.join('\n')}${more ? `\n\nand ${more} more.` : ''}\n\n--\nStop this daily digest: ${input.unsubscribe.url}\n`,
    html: emailHtml(
      `<p>${escapeHtml(what)} from your learners on ${escapeHtml(input.day)}:</p><ul style="padding-left:18px">${items}</ul>${more ? `<p>and ${more} more.</p>` : ''}<p style="margin:32px 0 0;font-size:13px;color:#71717a">You receive this email because your learners comment in your courses. <a href="${escapeHtml(input.unsubscribe.url)}" style="color:#71717a">Stop the daily digest</a> (your other emails stay as they are; turn it back on in your profile).</p>`,
      560,
    ),
    headers: input.unsubscribe.headers,
  };
};

export const reportEmail = (input: { to: string; courseTitle: string; comment: StoredComment; appOrigin: string }): MailMessage => {
  const link = lessonLink(input.appOrigin, 'creator', input.comment.courseId, input.comment.lessonId);
  const quote = `${plainText(input.comment.authorName)}: “${excerpt(input.comment.body)}”`;
  return {
    to: input.to,
    subject: 'A learner reported a comment in your course',
    text: `A learner reported this comment in ${plainText(input.courseTitle)}:\n\n${quote}\n\nHide or delete it from the lesson's discussion: ${link}\n`,
    html: emailHtml(
      `<p>A learner reported this comment in <strong>${escapeHtml(plainText(input.courseTitle))}</strong>:</p><blockquote style="margin:16px 0;padding-left:12px;border-left:3px solid #e4e4e7">${escapeHtml(quote)}</blockquote><p>You can hide or delete it from the lesson's discussion.</p>${button(link, 'Open the course')}`,
      560,
    ),
  };
};
