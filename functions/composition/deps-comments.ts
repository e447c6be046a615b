import { DEFAULT_CREATOR_NAME } from '#contracts/common.ts';
import type { DiscussionDeps, ReportDeps } from '#core/comments/comments.ts';
import type { DiscussionMailDeps } from '#core/comments/mail.ts';
import type { CommentRepository } from '#core/comments/ports.ts';
import { dynamoCampaigns } from '#data/campaigns.ts';
import { dynamoComments, dynamoDiscussionMail } from '#data/comments.ts';
import { dynamoLearnerProfiles } from '#data/learner-profiles.ts';
import { dynamoPublicProfiles } from '#data/public-profiles.ts';
import { dynamoSchoolUnsubscribes } from '#data/sequences.ts';
import { appOrigin, clock, courseReader, enrollmentRepository, ids, licenseReader, mailSchool, userRepository } from '#functions/composition/deps.ts';
import { startMailSender } from '#functions/composition/mail-sender-runs.ts';
import { schoolUnsubscribeLinks, unsubscribeLinks } from '#functions/composition/school-unsubscribe-links.ts';

/**
 * The composition of lesson discussions (issue 35 point 1): the comment routes and the 'discussion-mail' job. The
 * comment sanitizer (sanitize-html and its parser) is passed in by the two routes that write a comment's text (on the
 * heavy profile), so the others' bundles stay without it.
 */
let comments: CommentRepository | undefined;

export const commentRepository = (): CommentRepository => (comments ??= dynamoComments());

/** A learner without a certificate name is shown as this (never by their address). */
export const LEARNER_NAME = 'Learner';

/** What a route that renders no text has for a sanitizer: never called (listing, deleting, hiding, pinning, reporting). */
const noRendering = (): string => {
  throw new Error('This route renders no comment text.');
};

export const discussionDeps = (sanitize: (html: string) => string = noRendering): DiscussionDeps => {
  const learners = dynamoLearnerProfiles();
  const creators = dynamoPublicProfiles();
  return {
    comments: commentRepository(),
    courses: courseReader(),
    enrollments: enrollmentRepository(),
    licenses: licenseReader(),
    authorName: async (role, userId) =>
      role === 'creator' ? ((await creators.get(userId))?.displayName ?? DEFAULT_CREATOR_NAME) : (await learners.get(userId))?.certificateName.trim() || LEARNER_NAME,
    sanitize,
    ids,
    clock,
  };
};

export const reportDeps = (): ReportDeps => {
  const campaigns = dynamoCampaigns();
  return { ...discussionDeps(), users: userRepository(), suppressed: (emails) => campaigns.suppressed(emails), appOrigin: appOrigin() };
};

/** The 'discussion-mail' job's. */
export const discussionMailDeps = (warn: DiscussionMailDeps['warn']): DiscussionMailDeps => {
  const campaigns = dynamoCampaigns();
  const unsubscribes = dynamoSchoolUnsubscribes();
  const origin = appOrigin();
  return {
    mail: dynamoDiscussionMail(),
    comments: commentRepository(),
    users: userRepository(),
    courses: courseReader(),
    unsubscribed: (creatorId, emails) => unsubscribes.unsubscribed(creatorId, emails),
    suppressed: (emails) => campaigns.suppressed(emails),
    school: mailSchool,
    unsubscribeLink: schoolUnsubscribeLinks(origin),
    digestUnsubscribeLink: ((link) => (email: string) => link(email, 'comment-digest'))(unsubscribeLinks(origin)),
    appOrigin: origin,
    clock,
    startSender: startMailSender,
    warn,
  };
};
