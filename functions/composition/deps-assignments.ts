import type { AssignmentDeps, GradeDeps } from '#core/assignments/assignments.ts';
import type { SubmissionRepository } from '#core/assignments/ports.ts';
import { dynamoCampaigns } from '#data/campaigns.ts';
import { dynamoSubmissions } from '#data/submissions.ts';
import { appOrigin, clock, courseRepository, enrollmentRepository, ids, licenseReader, mailSchool, userRepository } from '#functions/composition/deps.ts';

/**
 * The composition of assignments (issue 35 point 2): the submission routes. Grading adds what its email and the
 * lesson's completion need (the mail queue is written in the grade's own transaction: no mailer here).
 */
let submissions: SubmissionRepository | undefined;

export const submissionRepository = (): SubmissionRepository => (submissions ??= dynamoSubmissions());

export const assignmentDeps = (): AssignmentDeps => ({
  submissions: submissionRepository(),
  courses: courseRepository(),
  enrollments: enrollmentRepository(),
  licenses: licenseReader(),
  users: userRepository(),
  ids,
  clock,
});

export const gradeDeps = (): GradeDeps => {
  const campaigns = dynamoCampaigns();
  return { ...assignmentDeps(), enrollments: enrollmentRepository(), suppressed: (emails) => campaigns.suppressed(emails), school: mailSchool, appOrigin: appOrigin() };
};
