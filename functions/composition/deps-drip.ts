import type { DripDueDeps, DripReplanDeps } from '#core/enrollments/drip-notices.ts';
import { readOutline } from '#data/courses.ts';
import { dynamoDripPlans } from '#data/drip-notices.ts';
import { readEnrollment } from '#data/enrollments.ts';
import { appOrigin, clock, ids, mailSchool } from '#functions/composition/deps.ts';
import { startMailSender } from '#functions/composition/mail-sender-runs.ts';

/**
 * Drip release's jobs (issue 33 part 1): the 'drip-due' sweep (the due plans, each against its enrolment and the
 * course's outline, the creator's school for the email, the mail queue through the plans' notice transaction) and the
 * 'course-changed' run's re-plan.
 */
export const dripDueDeps = (warn: DripDueDeps['warn']): DripDueDeps => ({
  plans: dynamoDripPlans(),
  courses: { getOutline: readOutline },
  enrollments: { get: readEnrollment },
  school: mailSchool,
  appOrigin: appOrigin(),
  startSender: startMailSender,
  ids,
  clock,
  warn,
});

export const dripReplanDeps = (): DripReplanDeps => ({ plans: dynamoDripPlans(), courses: { getOutline: readOutline } });
