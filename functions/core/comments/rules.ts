import type { CommentReply, CommentRole, CommentThread, CommentView } from '#contracts/comments.ts';
import { markdownToHtml } from '#contracts/markdown.ts';
import type { StoredComment } from '#core/comments/ports.ts';

/**
 * The discussion's rules, pure (issue 35 point 1): who may do what to a comment, how a comment is shown to whom,
 * and the times its limits and emails go by. core/comments/comments.ts applies them to what it reads.
 */

/** Who is looking: the course's creator, or a learner it is open to. */
export interface Viewer {
  userId: string;
  role: CommentRole;
}

/** Minutes a thread's author waits after a reply before its email, so that replies within them make one email. */
export const NOTICE_DELAY_MINUTES = 5;
/** The hour (UTC) a creator's digest of the day before goes. */
export const DIGEST_HOUR_UTC = 8;
/** Comments a digest lists (it counts them all). */
export const DIGEST_LISTED = 20;

/** The minute a comment counts against its learner's cap (UTC, `YYYY-MM-DDTHH:MM`). */
export const minuteOf = (now: Date): string => now.toISOString().slice(0, 16);
/** Seconds until the next minute: a learner past the cap may post again then. */
export const secondsToNextMinute = (now: Date): number => 60 - now.getUTCSeconds();

/** When a reply written `now` is told to the thread's author (a notice already waiting keeps its own time). */
export const noticeDueAt = (now: Date): string => new Date(now.getTime() + NOTICE_DELAY_MINUTES * 60_000).toISOString();

/** A comment's UTC day, and when that day's digest goes: the next day at DIGEST_HOUR_UTC. */
export const digestOf = (now: Date): { day: string; dueAt: string } => {
  const day = now.toISOString().slice(0, 10);
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  next.setUTCHours(DIGEST_HOUR_UTC);
  return { day, dueAt: next.toISOString() };
};

/**
 * A comment's text as HTML: the platform's Markdown (functions/contracts/markdown.ts) through the comment sanitizer
 * (adapters/html-sanitizer.ts sanitizeCommentHtml: the lesson body's rules, links `rel="nofollow ugc noopener"`).
 */
export const renderComment = (body: string, sanitize: (html: string) => string): string => sanitize(markdownToHtml(body));

/** Replies join the thread of what they answer: one level, whatever the reply button was under. */
export const threadIdOf = (parent: StoredComment): string => parent.parentId ?? parent.id;

export const mayEdit = (viewer: Viewer, comment: StoredComment): boolean => comment.authorId === viewer.userId && !comment.deleted;
export const mayDelete = (viewer: Viewer, comment: StoredComment): boolean => !comment.deleted && (comment.authorId === viewer.userId || viewer.role === 'creator');
/** Hide, pin: the course's creator moderates. */
export const mayModerate = (viewer: Viewer): boolean => viewer.role === 'creator';
/** A learner reports someone else's comment to the creator (the creator hides or deletes instead). */
export const mayReport = (viewer: Viewer, comment: StoredComment): boolean => viewer.role === 'learner' && comment.authorId !== viewer.userId && !comment.deleted;

/** Whether the text is shown: never a deleted one; a hidden one to the creator alone. */
const showsText = (viewer: Viewer, comment: StoredComment): boolean => !comment.deleted && (!comment.hidden || viewer.role === 'creator');

export const replyView = (viewer: Viewer, comment: StoredComment): CommentReply => {
  const shown = showsText(viewer, comment);
  return {
    id: comment.id,
    author: { displayName: comment.authorName, role: comment.authorRole },
    body: shown ? comment.body : '',
    html: shown ? comment.html : '',
    createdAt: comment.createdAt,
    editedAt: comment.editedAt,
    hidden: comment.hidden,
    mine: comment.authorId === viewer.userId,
    reports: viewer.role === 'creator' ? comment.reports : 0,
  };
};

export const threadView = (viewer: Viewer, thread: StoredComment, replies: readonly StoredComment[]): CommentThread => ({
  ...replyView(viewer, thread),
  pinned: thread.pinned,
  deleted: thread.deleted,
  lastActivityAt: thread.lastActivityAt,
  replies: replies.map((r) => replyView(viewer, r)),
});

export const commentViewOf = (viewer: Viewer, comment: StoredComment): CommentView => ({ ...replyView(viewer, comment), parentId: comment.parentId });
