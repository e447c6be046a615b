import { s3SubmissionFileLinks } from '#adapters/s3-presigner.ts';
import type { AssignmentDeps, GradeDeps, SubmissionFileDeps } from '#core/assignments/assignments.ts';
import type { SubmissionFileStore, SubmissionRepository } from '#core/assignments/ports.ts';
import type { CourseSubmissionRemovalDeps } from '#core/assignments/course-deleted.ts';
import type { UnnamedUploadDeps } from '#core/assignments/unnamed-uploads.ts';
import { dynamoCampaigns } from '#data/campaigns.ts';
import { dynamoCourseSubmissionRemoval, dynamoSubmissions, dynamoUnnamedUploads } from '#data/submissions.ts';
import { appOrigin, clock, courseRepository, enrollmentRepository, fileStore, ids, licenseReader, mailSchool, userRepository } from '#functions/composition/deps.ts';

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

/** The learners' files in the files bucket: presigned links without the S3 client, HeadObject with it. */
export const submissionFiles = (): SubmissionFileStore => ({
  ...s3SubmissionFileLinks(),
  head: (key) => fileStore().head(key),
  deleteObjects: (keys) => fileStore().deleteObjects(keys),
});

/** The sweep of uploads no submission named (the 'discussion-mail' job's 'uploads' lane; capability 'files'). */
export const unnamedUploadDeps = (): UnnamedUploadDeps => ({ uploads: dynamoUnnamedUploads(), files: submissionFiles(), clock });

/** Handing in (with files), uploading and downloading a submission's files. */
export const submissionFileDeps = (): SubmissionFileDeps => ({ ...assignmentDeps(), files: submissionFiles() });

export const gradeDeps = (): GradeDeps => {
  const campaigns = dynamoCampaigns();
  return { ...assignmentDeps(), enrollments: enrollmentRepository(), suppressed: (emails) => campaigns.suppressed(emails), school: mailSchool, appOrigin: appOrigin() };
};

/** A deleted course's submissions and their files (the 'course-changed' job; capability 'files'). */
export const courseSubmissionRemovalDeps = (): CourseSubmissionRemovalDeps => ({ submissions: dynamoCourseSubmissionRemoval(), files: submissionFiles() });
