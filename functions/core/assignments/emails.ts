import { emailHtml, escapeHtml, plainText } from '#core/accounts/password-reset-email.ts';
import { lessonLink } from '#core/comments/emails.ts';
import type { MailMessage, MailSchool } from '#core/ports.ts';

/**
 * The learner's email when the creator grades their assignment (issue 35 point 2): passed, or what to change. The
 * feedback is quoted as plain text (never markup); no user's words in the subject.
 */
export const gradedEmail = (input: {
  to: string;
  status: 'passed' | 'needs_revision';
  feedback: string;
  courseTitle: string;
  lessonTitle: string;
  courseId: string;
  lessonId: string;
  appOrigin: string;
  school: MailSchool | undefined;
}): MailMessage => {
  const link = lessonLink(input.appOrigin, 'learner', input.courseId, input.lessonId);
  const where = `${plainText(input.lessonTitle)} (${plainText(input.courseTitle)})`;
  const passed = input.status === 'passed';
  const headline = passed ? `Your assignment ${where} has passed.` : `Your assignment ${where} needs a revision.`;
  const next = passed ? 'The lesson now counts as complete.' : 'Change your work as the feedback asks and hand it in again.';
  // Line by line: the creator's paragraphs stay, control characters go.
  const feedback = input.feedback.replace(/\r\n?/g, '\n').split('\n').map(plainText).join('\n').trim();
  const label = passed ? 'Open the course' : 'Revise your work';
  return {
    to: input.to,
    subject: passed ? 'Your assignment has passed' : 'Your assignment needs a revision',
    text: `${headline}\n${feedback ? `\nFeedback:\n${feedback}\n` : ''}\n${next}\n\n${label}: ${link}\n`,
    html: emailHtml(
      `<p>${escapeHtml(headline)}</p>${feedback ? `<p style="margin:16px 0 4px">Feedback:</p><blockquote style="margin:0 0 16px;padding-left:12px;border-left:3px solid #e4e4e7;color:#3f3f46;white-space:pre-wrap">${escapeHtml(feedback)}</blockquote>` : ''}<p>${escapeHtml(next)}</p><p style="margin:24px 0"><a href="${escapeHtml(link)}" style="background:#18181b;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a></p>`,
      560,
      input.school,
    ),
    ...(input.school ? { fromName: input.school.name } : {}),
  };
};
