import { COMMENTS_PAGE, COMMENTS_PER_MINUTE, QUESTIONS_PAGE, REPLIES_MAX, type CommentList, type CommentRole, type CommentView, type UnansweredQuestions } from '#contracts/comments.ts';
import { courseAccess, type AccessSources } from '#core/access/access.ts';
import { reportEmail } from '#core/comments/emails.ts';
import type { CommentRepository, StoredComment } from '#core/comments/ports.ts';
import {
  commentViewOf,
  digestOf,
  mayDelete,
  mayEdit,
  mayModerate,
  mayReport,
  minuteOf,
  noticeDueAt,
  renderComment,
  secondsToNextMinute,
  threadIdOf,
  threadView,
  type Viewer,
} from '#core/comments/rules.ts';
import { isOpen } from '#core/enrollments/drip.ts';
import { ConflictError, ForbiddenError, NotFoundError, RateLimitedError, ValidationError } from '#core/errors.ts';
import type { Clock, CourseOutline, CourseRepository, Ids, QueuedMail, UserRepository } from '#core/ports.ts';

/**
 * Lesson discussions (issue 35 point 1; docs/api.md "Lesson discussions"): the threads under a lesson, posting,
 * editing, deleting, the creator's hiding and pinning, a learner's report. Who may take part is decided here once
 * (`discussionViewer`): the course's creator, or a learner the access module (core/access/access.ts) opens the
 * published course to, on a lesson its drip release has opened to them (core/enrollments/drip.ts); anyone else gets the 404 of a lesson that does not exist.
 */

export const DISCUSSION_NOT_FOUND = 'Lesson not found.';
export const COMMENT_NOT_FOUND = 'Comment not found.';
export const rateLimitMessage = `You can post ${COMMENTS_PER_MINUTE} comments a minute. Wait a moment and try again.`;
export const THREAD_FULL = `This thread has ${REPLIES_MAX} replies, the most one thread holds: start a new one.`;
export const THREAD_DELETED = 'This comment was deleted: start a new thread instead.';

export interface DiscussionDeps extends AccessSources {
  comments: CommentRepository;
  courses: Pick<CourseRepository, 'getOutline'>;
  /** How an author is shown: the creator's public name, a learner's certificate name (never an email). */
  authorName: (role: CommentRole, userId: string) => Promise<string>;
  /** The comment sanitizer (adapters/html-sanitizer.ts sanitizeCommentHtml). */
  sanitize: (html: string) => string;
  ids: Ids;
  clock: Clock;
}

export interface ReportDeps extends DiscussionDeps {
  users: Pick<UserRepository, 'getUser'>;
  /** The addresses that refused the platform's mail (never mailed). */
  suppressed: (emails: readonly string[]) => Promise<Set<string>>;
  appOrigin: string;
}

/**
 * The caller in the lesson's discussion: its course's creator, or a learner who may open the course now, with the
 * lesson open to them. Anyone else (another creator, a learner without access, an unknown or locked lesson): 404.
 */
export const discussionViewer = async (deps: Pick<DiscussionDeps, 'courses' | keyof AccessSources>, userId: string, courseId: string, lessonId: string): Promise<{ viewer: Viewer; course: CourseOutline }> => {
  const [course, access] = await Promise.all([deps.courses.getOutline(courseId), courseAccess(deps, userId, courseId)]);
  const lesson = course?.lessons.find((l) => l.id === lessonId);
  if (!course || !lesson) throw new NotFoundError(DISCUSSION_NOT_FOUND);
  if (course.creatorId === userId) return { viewer: { userId, role: 'creator' }, course };
  if (course.status !== 'published' || !access.open || !isOpen(lesson.release, access.enrollment.enrolledAt, deps.clock.now())) throw new NotFoundError(DISCUSSION_NOT_FOUND);
  return { viewer: { userId, role: 'learner' }, course };
};

/** A comment and its caller, by the comment's id alone: the same rule, through the comment's lesson. */
const commentAndViewer = async (deps: Pick<DiscussionDeps, 'courses' | 'comments' | keyof AccessSources>, userId: string, commentId: string) => {
  const comment = await deps.comments.get(commentId);
  if (!comment) throw new NotFoundError(COMMENT_NOT_FOUND);
  try {
    const { viewer, course } = await discussionViewer(deps, userId, comment.courseId, comment.lessonId);
    return { comment, viewer, course };
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError(COMMENT_NOT_FOUND);
    throw error;
  }
};

/** GET .../comments?cursor=: a page of threads (pinned first, then newest activity), each with its replies. */
export const listComments = async (deps: DiscussionDeps, input: { userId: string; courseId: string; lessonId: string; cursor?: string | undefined }): Promise<CommentList> => {
  const { viewer } = await discussionViewer(deps, input.userId, input.courseId, input.lessonId);
  const page = await deps.comments.pageByLesson(input.courseId, input.lessonId, { cursor: input.cursor, limit: COMMENTS_PAGE });
  return { items: page.items.map(({ thread, replies }) => threadView(viewer, thread, replies)), nextCursor: page.nextCursor };
};

/** A thread read again when its pin moved between our read and our write. */
const CREATE_ATTEMPTS = 3;

/**
 * POST .../comments: 201 and the comment. A reply (`parentId`, a thread of the same lesson or a reply in one) joins
 * that thread and moves its activity; its author's notice is counted in the same write (core/comments/mail.ts sends
 * it). A learner's comment counts against their minute (429 past COMMENTS_PER_MINUTE) and their creator's day.
 */
export const postComment = async (deps: DiscussionDeps, input: { userId: string; courseId: string; lessonId: string; body: string; parentId?: string | undefined }): Promise<CommentView> => {
  const { viewer, course } = await discussionViewer(deps, input.userId, input.courseId, input.lessonId);
  const now = deps.clock.now();
  const at = now.toISOString();
  const authorName = await deps.authorName(viewer.role, viewer.userId);
  for (let attempt = 1; ; attempt++) {
    let thread: StoredComment | undefined;
    if (input.parentId !== undefined) {
      const parent = await deps.comments.get(input.parentId);
      if (!parent || parent.courseId !== course.id || parent.lessonId !== input.lessonId) throw new NotFoundError(COMMENT_NOT_FOUND);
      thread = parent.parentId === null ? parent : await deps.comments.get(threadIdOf(parent));
      if (!thread) throw new NotFoundError(COMMENT_NOT_FOUND);
      if (thread.deleted) throw new ConflictError(THREAD_DELETED);
    }
    const comment: StoredComment = {
      id: deps.ids.newId(),
      courseId: course.id,
      lessonId: input.lessonId,
      creatorId: course.creatorId,
      parentId: thread?.id ?? null,
      authorId: viewer.userId,
      authorName,
      authorRole: viewer.role,
      body: input.body,
      html: renderComment(input.body, deps.sanitize),
      createdAt: at,
      editedAt: null,
      hidden: false,
      reports: 0,
      pinned: false,
      deleted: false,
      lastActivityAt: at,
      replyCount: 0,
    };
    const learner = viewer.role === 'learner';
    const outcome = await deps.comments.create({
      comment,
      thread,
      maxReplies: REPLIES_MAX,
      quota: learner ? { minute: minuteOf(now), cap: COMMENTS_PER_MINUTE } : undefined,
      digest: learner ? { creatorId: course.creatorId, ...digestOf(now) } : undefined,
      notice:
        thread && thread.authorId !== viewer.userId
          ? { threadId: thread.id, recipientId: thread.authorId, courseId: course.id, lessonId: input.lessonId, creatorId: course.creatorId, dueAt: noticeDueAt(now), latestReplyId: comment.id }
          : undefined,
    });
    if (outcome === 'created') return commentViewOf(viewer, comment);
    if (outcome === 'rate-limited') throw new RateLimitedError(rateLimitMessage, secondsToNextMinute(now));
    if (outcome === 'thread-gone') throw new NotFoundError(COMMENT_NOT_FOUND);
    if (outcome === 'thread-full') throw new ConflictError(THREAD_FULL);
    if (attempt === CREATE_ATTEMPTS) throw new ConflictError('The thread changed while you were replying: try again.');
  }
};

/** PATCH /api/comments/{commentId}: the author's new text (403 for anyone else who can see it). */
export const editComment = async (deps: DiscussionDeps, input: { userId: string; commentId: string; body: string }): Promise<CommentView> => {
  const { comment, viewer } = await commentAndViewer(deps, input.userId, input.commentId);
  if (!mayEdit(viewer, comment)) throw new ForbiddenError('Only its author can edit a comment.');
  const edited = { ...comment, body: input.body, html: renderComment(input.body, deps.sanitize), editedAt: deps.clock.now().toISOString() };
  if (!(await deps.comments.edit({ commentId: comment.id, authorId: viewer.userId, body: edited.body, html: edited.html, editedAt: edited.editedAt }))) throw new NotFoundError(COMMENT_NOT_FOUND);
  return commentViewOf(viewer, edited);
};

/** DELETE /api/comments/{commentId}: its author or the course's creator; 204. */
export const deleteComment = async (deps: DiscussionDeps, input: { userId: string; commentId: string }): Promise<void> => {
  const { comment, viewer } = await commentAndViewer(deps, input.userId, input.commentId);
  if (!mayDelete(viewer, comment)) throw new ForbiddenError('Only its author or the course’s creator can delete a comment.');
  if (!(await deps.comments.remove(comment))) throw new ConflictError('The comment changed meanwhile: reload and try again.');
};

/** POST /api/comments/{commentId}/hide: the course's creator hides a comment (or shows it again). */
export const hideComment = async (deps: DiscussionDeps, input: { userId: string; commentId: string; hidden: boolean }): Promise<CommentView> => {
  const { comment, viewer } = await commentAndViewer(deps, input.userId, input.commentId);
  if (!mayModerate(viewer)) throw new ForbiddenError('Only the course’s creator can hide a comment.');
  if (!(await deps.comments.setHidden(comment, input.hidden))) throw new NotFoundError(COMMENT_NOT_FOUND);
  return commentViewOf(viewer, { ...comment, hidden: input.hidden });
};

/** POST /api/comments/{commentId}/pin: the course's creator pins a thread on top of the lesson's (or unpins it). */
export const pinComment = async (deps: DiscussionDeps, input: { userId: string; commentId: string; pinned: boolean }): Promise<CommentView> => {
  for (let attempt = 1; ; attempt++) {
    const { comment, viewer } = await commentAndViewer(deps, input.userId, input.commentId);
    if (!mayModerate(viewer)) throw new ForbiddenError('Only the course’s creator can pin a comment.');
    if (comment.parentId !== null) throw new ValidationError('Only a thread can be pinned, not a reply.');
    if (await deps.comments.setPinned(comment, input.pinned)) return commentViewOf(viewer, { ...comment, pinned: input.pinned });
    if (attempt === CREATE_ATTEMPTS) throw new ConflictError('The thread changed meanwhile: try again.');
  }
};

/**
 * POST /api/comments/{commentId}/report: a learner tells the creator about someone else's comment. Counted once per
 * learner (a repeat answers the same and sends nothing); the creator's email is queued in the same write.
 */
export const reportComment = async (deps: ReportDeps, input: { userId: string; commentId: string }): Promise<{ reported: true }> => {
  const { comment, viewer, course } = await commentAndViewer(deps, input.userId, input.commentId);
  if (!mayReport(viewer, comment)) throw new ForbiddenError(viewer.role === 'creator' ? 'Hide or delete the comment instead.' : 'You cannot report your own comment.');
  const creator = await deps.users.getUser(course.creatorId);
  const suppressed = creator ? await deps.suppressed([creator.email.toLowerCase()]) : new Set<string>();
  const at = deps.clock.now().toISOString();
  const mail: QueuedMail | undefined =
    creator && !suppressed.has(creator.email.toLowerCase())
      ? { ...reportEmail({ to: creator.email, courseTitle: course.title, comment, appOrigin: deps.appOrigin }), id: `comment-report:${comment.id}:${viewer.userId}`, queuedAt: at, dueAt: at, tries: 0 }
      : undefined;
  await deps.comments.report({ commentId: comment.id, learnerId: viewer.userId, mail });
  return { reported: true };
};

/**
 * GET /api/creator/questions?cursor=: the caller's unanswered questions (learners' threads with no reply of theirs),
 * longest waiting first, each with its course's and lesson's titles (one outline read per course of the page). A
 * question whose course or lesson has gone since is left out of the page rather than shown without a place to answer.
 */
export const unansweredQuestions = async (deps: Pick<DiscussionDeps, 'comments' | 'courses'>, input: { userId: string; cursor?: string | undefined }): Promise<UnansweredQuestions> => {
  const page = await deps.comments.unansweredForCreator(input.userId, { cursor: input.cursor, limit: QUESTIONS_PAGE });
  const courseIds = [...new Set(page.items.map((c) => c.courseId))];
  const outlines = new Map((await Promise.all(courseIds.map((id) => deps.courses.getOutline(id)))).flatMap((o) => (o && o.creatorId === input.userId ? [[o.id, o] as const] : [])));
  const items = page.items.flatMap((c) => {
    const course = outlines.get(c.courseId);
    const lesson = course?.lessons.find((l) => l.id === c.lessonId);
    if (!course || !lesson) return [];
    return [
      {
        id: c.id,
        courseId: c.courseId,
        courseTitle: course.title,
        lessonId: c.lessonId,
        lessonTitle: lesson.title,
        author: { displayName: c.authorName, role: c.authorRole },
        body: c.body,
        createdAt: c.createdAt,
        replyCount: c.replyCount,
      },
    ];
  });
  return { items, nextCursor: page.nextCursor };
};
