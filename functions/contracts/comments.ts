import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * Lesson discussions (issue 35 point 1; ../shared/API.md "Discussions and assignments", docs/api.md "Lesson
 * discussions"): comments under a lesson, each with one level of replies, for the course's enrolled learners and its
 * creator. The body is kept as the text typed (Markdown in the platform's dialect, functions/contracts/markdown.ts)
 * and answered beside its rendering (`html`), which the server made with the lessons' sanitizer rules and links marked
 * `rel="nofollow ugc noopener"`: what a learner types never becomes markup of its own. An author is shown by display
 * name and role, never by email.
 */

export const COMMENT_BODY_MAX = 5000;
/** Threads per page of a lesson's discussion. */
export const COMMENTS_PAGE = 20;
/** Replies one thread holds (they are read with their thread, so a page's cost stays bounded). */
export const REPLIES_MAX = 100;
/** Comments (threads and replies) one learner may post in a minute. */
export const COMMENTS_PER_MINUTE = 10;

export const commentRoles = ['creator', 'learner'] as const;
export type CommentRole = (typeof commentRoles)[number];

const body = z.string().trim().min(1, 'Write a comment.').max(COMMENT_BODY_MAX, `Use at most ${COMMENT_BODY_MAX} characters.`);

/** POST /api/courses/{courseId}/lessons/{lessonId}/comments: a thread, or with `parentId` a reply in that thread. */
export const createCommentBody = z.strictObject({ body, parentId: z.string().min(1).max(100).optional() });
export type CreateCommentBody = z.infer<typeof createCommentBody>;

/** GET .../comments?cursor=: the cursor of the page before (absent: the first page). */
export const commentsQuery = z.strictObject({ cursor: z.string().min(1).max(2000).optional() });

/** PATCH /api/comments/{commentId}: the author's new text. */
export const editCommentBody = z.strictObject({ body });
export type EditCommentBody = z.infer<typeof editCommentBody>;

/** POST /api/comments/{commentId}/hide: hidden (the default) or shown again. */
export const hideCommentBody = z.strictObject({ hidden: z.boolean().optional() });
/** POST /api/comments/{commentId}/pin: pinned (the default) or unpinned; threads only. */
export const pinCommentBody = z.strictObject({ pinned: z.boolean().optional() });

export const commentAuthor = z.object({ displayName: z.string(), role: z.enum(commentRoles) });
export type CommentAuthor = z.infer<typeof commentAuthor>;

const commentFields = {
  id: z.string(),
  author: commentAuthor,
  /** The text as typed; '' when hidden (to learners) or deleted. */
  body: z.string(),
  /** The body rendered and sanitized; '' when `body` is. */
  html: z.string(),
  createdAt: isoDate,
  editedAt: isoDate.nullable(),
  /** Hidden by the creator: learners see that a comment was there, not what it said. */
  hidden: z.boolean(),
  /** The caller wrote it (they may edit and delete it). */
  mine: z.boolean(),
  /** Learners who reported it (answered to the creator only; 0 to learners). */
  reports: z.number().int().min(0),
};

export const commentReply = z.object(commentFields);
export type CommentReply = z.infer<typeof commentReply>;

export const commentThread = z.object({
  ...commentFields,
  pinned: z.boolean(),
  /** Deleted by its author or the creator while it had replies: the thread stays, without its text. */
  deleted: z.boolean(),
  /** The latest reply's time (or the comment's own): threads are listed by it, newest first, pinned ones on top. */
  lastActivityAt: isoDate,
  /** Oldest first. */
  replies: z.array(commentReply),
});
export type CommentThread = z.infer<typeof commentThread>;

/** GET /api/courses/{courseId}/lessons/{lessonId}/comments?cursor=. */
export const commentList = z.object({ items: z.array(commentThread), nextCursor: z.string().nullable() });
export type CommentList = z.infer<typeof commentList>;

/** POST (201) and PATCH answer the comment as its author sees it. */
export const commentView = commentReply.extend({ parentId: z.string().nullable() });
export type CommentView = z.infer<typeof commentView>;

/** Questions per page of the creator's unanswered list. */
export const QUESTIONS_PAGE = 10;

/** GET /api/creator/questions?cursor=. */
export const questionsQuery = commentsQuery;

/**
 * A learner's thread its course's creator has not answered yet: no reply of theirs, not hidden or deleted (the
 * creator's dashboard lists them, longest waiting first, each linking to its lesson's discussion).
 */
export const unansweredQuestion = z.object({
  id: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  lessonId: z.string(),
  lessonTitle: z.string(),
  author: commentAuthor,
  body: z.string(),
  createdAt: isoDate,
  replyCount: z.number().int().min(0),
});
export type UnansweredQuestion = z.infer<typeof unansweredQuestion>;
export const unansweredQuestions = z.object({ items: z.array(unansweredQuestion), nextCursor: z.string().nullable() });
export type UnansweredQuestions = z.infer<typeof unansweredQuestions>;

/**
 * The creator's discussion emails (GET and PUT /api/creator/discussion-emails): whether the daily digest of their
 * learners' comments comes (on until turned off, here or by the digest's own unsubscribe link).
 */
export const discussionEmails = z.object({ commentDigest: z.boolean() });
export type DiscussionEmails = z.infer<typeof discussionEmails>;
export const discussionEmailsBody = z.strictObject({ commentDigest: z.boolean() });
