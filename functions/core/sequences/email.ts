import { markdownToHtml } from '#contracts/markdown.ts';
import { fillPlaceholders, type SequenceStep } from '#contracts/sequences.ts';
import { emailHtml, escapeHtml, plainText, PRODUCT_NAME } from '#core/accounts/password-reset-email.ts';
import type { MailMessage, MailSchool } from '#core/ports.ts';

/**
 * A sequence step as the email a learner gets (issue 33 part 2): the placeholders filled, the Markdown rendered and
 * sanitized (the lessons' sanitizer, passed in), in the platform's frame with the creator's school on top and as the
 * sender's name while branded; a footer and the RFC 8058 headers carry the learner's unsubscribe link for this
 * creator's emails (core/campaigns: the `school-<creatorId>` list).
 */
export interface SequenceEmailInput {
  to: string;
  step: SequenceStep;
  learnerName: string;
  courseTitle: string;
  school: MailSchool | undefined;
  unsubscribeUrl: string;
  /** The project's HTML sanitizer (adapters/html-sanitizer.ts sanitizeLessonHtml). */
  sanitize: (html: string) => string;
  /** The RFC 8058 headers of the link (core/campaigns unsubscribeHeaders). */
  headers: { name: string; value: string }[];
}

/** The name a learner is greeted by: their certificate name, else their address's local part. */
export const learnerNameOf = (certificateName: string | undefined, email: string): string => plainText(certificateName ?? '') || (email.split('@')[0] ?? email);

export const sequenceEmail = (input: SequenceEmailInput): MailMessage => {
  const values = { learnerName: plainText(input.learnerName), courseTitle: plainText(input.courseTitle) };
  const body = fillPlaceholders(input.step.body, values);
  const sender = input.school ? plainText(input.school.name) : PRODUCT_NAME;
  const url = escapeHtml(input.unsubscribeUrl);
  const html = emailHtml(
    `<div style="font-size:16px;line-height:1.5">${input.sanitize(markdownToHtml(body))}</div>
<p style="margin:32px 0 0;font-size:13px;color:#71717a">You receive this email because you are enrolled in a course of ${escapeHtml(sender)}. <a href="${url}" style="color:#71717a">Unsubscribe from ${escapeHtml(sender)}'s emails</a></p>`,
    560,
    input.school,
  );
  return {
    to: input.to,
    // One line: a subject never carries a line break of the creator's (or a learner's name).
    subject: plainText(fillPlaceholders(input.step.subject, values)),
    text: `${body.trim()}\n\n--\nYou receive this email because you are enrolled in a course of ${sender}.\nUnsubscribe from ${sender}'s emails: ${input.unsubscribeUrl}\n`,
    html,
    ...(input.school ? { fromName: input.school.name } : {}),
    headers: input.headers,
  };
};
