import { emailHtml, escapeHtml, fromSchool, plainText, type EmailMessage, senderOf } from '#core/accounts/password-reset-email.ts';
import type { MailSchool } from '#core/ports.ts';

/**
 * "A new lesson is ready" (issue 33 part 1): a drip lesson opened for a learner. Branded like the invitation (the
 * creator's school as the sender's name and its logo, while their plan includes branding); the platform's fixed words
 * in the subject, the creator's (course and lesson titles) only in the body, as plain text, escaped in the HTML
 * (issue 27 point 4). The button opens the player on that lesson.
 */
export const LESSON_READY_SUBJECT = 'A new lesson is ready';

export interface LessonReadyEmailInput {
  /** The web app's origin (a trailing slash is ignored). */
  appOrigin: string;
  courseId: string;
  courseTitle: string;
  lessonId: string;
  lessonTitle: string;
  school?: MailSchool | undefined;
}

/** The player on that lesson (web/src/lib/paths.ts learnerCoursePath). */
export const lessonLink = (appOrigin: string, courseId: string, lessonId: string): string =>
  `${appOrigin.replace(/\/+$/, '')}/dashboard/learner/courses/${encodeURIComponent(courseId)}?lesson=${encodeURIComponent(lessonId)}`;

export const lessonReadyEmail = (input: LessonReadyEmailInput): EmailMessage => {
  const link = lessonLink(input.appOrigin, input.courseId, input.lessonId);
  const text = [
    `${senderOf(input.school)}: a new lesson is ready in the course "${plainText(input.courseTitle)}": "${plainText(input.lessonTitle)}".`,
    '',
    `Open it here: ${link}`,
  ].join('\n');
  const [course, lesson, href] = [input.courseTitle, input.lessonTitle, link].map(escapeHtml);
  const html = emailHtml(
    `<h1 style="margin:0 0 16px;font-size:20px">A new lesson is ready</h1>
<p style="margin:0 0 8px;line-height:1.5">Course: <strong>${course}</strong></p>
<p style="margin:0 0 24px;line-height:1.5">Lesson: <strong>${lesson}</strong></p>
<p style="margin:0"><a href="${href}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">Open the lesson</a></p>`,
    480,
    input.school,
  );
  return { subject: LESSON_READY_SUBJECT, text, html, ...fromSchool(input.school) };
};
