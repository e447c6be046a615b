import { emailHtml, escapeHtml, fromSchool, plainText, PRODUCT_NAME, senderOf, type EmailMessage } from '#core/accounts/password-reset-email.ts';
import { pounds, signInLink } from '#core/enrollments/invitation-email.ts';
import type { MailSchool } from '#core/ports.ts';

/**
 * Why a paid order could not be fulfilled (and was refunded at once): what the buyer is told, privately, by email. Two
 * are told nothing: 'no-email' has nobody to tell, and 'buyer-deleted' (the buyer deleted their account while the
 * checkout was open) must not be written to again.
 */
export const unfulfilledReasons = ['no-email', 'buyer-deleted', 'cannot-take-courses', 'cannot-lead', 'enrolled-already', 'coupon-used'] as const;
export type UnfulfilledReason = (typeof unfulfilledReasons)[number];
/** The reasons whose buyer gets the refund notice. */
export type NoticedReason = Exclude<UnfulfilledReason, 'no-email' | 'buyer-deleted'>;

const why: Record<NoticedReason, string> = {
  'cannot-take-courses': 'this email belongs to an account that does not take courses. Buy again with another email.',
  'cannot-lead': 'this email belongs to an account that does not lead teams. Buy again with another email.',
  'enrolled-already': 'you are enrolled in this course already: sign in to take it.',
  'coupon-used': 'you had used this coupon code already (one use per buyer). Buy again without it.',
};

/**
 * The buyer's notice of an automatic refund: the whole payment back, and why. Creator text (the course title) is in
 * the body as quoted plain text, never in the subject.
 */
export const refundedOrderEmail = (input: {
  appOrigin: string;
  courseTitle: string;
  amount: number;
  reason: NoticedReason;
  /** The course's school when branded (issue 32): the sender's name and its logo on top. */
  school?: MailSchool | undefined;
}): EmailMessage => {
  const subject = `${PRODUCT_NAME}: your payment was refunded`;
  const link = signInLink(input.appOrigin);
  const text = [
    `${senderOf(input.school)}: your payment of ${pounds(input.amount)} for the course "${plainText(input.courseTitle)}" was refunded in full, because ${why[input.reason]}`,
    '',
    `Sign in: ${link}`,
  ].join('\n');
  const [title, paid, reason, href] = [input.courseTitle, pounds(input.amount), why[input.reason], link].map(escapeHtml);
  const html = emailHtml(`<h1 style="margin:0 0 16px;font-size:20px">Your payment was refunded</h1>
<p style="margin:0 0 16px;line-height:1.5">Your payment of <strong>${paid}</strong> for the course "${title}" was refunded in full, because ${reason}</p>
<p style="margin:0"><a href="${href}">Sign in</a></p>`,
    480,
    input.school,
  );
  return { subject, text, html, ...fromSchool(input.school) };
};
