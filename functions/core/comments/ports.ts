import type { CommentRole } from '#contracts/comments.ts';
import type { QueuedMail } from '#core/ports.ts';

/**
 * The ports only core/comments uses (docs/decisions/0029-rooms-match-the-domains.md); functions/data/comments.ts
 * implements them.
 */

/** A comment as stored: a thread (parentId null) or a reply in one (parentId: the thread's id). */
export interface StoredComment {
  id: string;
  courseId: string;
  lessonId: string;
  /** The course's creator (who moderates it, and whose digest counts it). */
  creatorId: string;
  /** The thread's id (its own for a thread). */
  parentId: string | null;
  authorId: string;
  /** The author's display name when they wrote it (a certificate name or the creator's public name; never an email). */
  authorName: string;
  authorRole: CommentRole;
  body: string;
  /** `body` rendered and sanitized when it was written. */
  html: string;
  createdAt: string;
  editedAt: string | null;
  hidden: boolean;
  /** Learners who reported it. */
  reports: number;
  /* A thread's own fields (a reply's: false, its createdAt, 0). */
  pinned: boolean;
  deleted: boolean;
  lastActivityAt: string;
  replyCount: number;
}

/** A learner's minute of comments: the cap they may not pass (the write carries it). */
export interface CommentQuota {
  minute: string;
  cap: number;
}

/** A thread's author waiting for the email that tells them of replies (several within minutes: one email). */
export interface ReplyNotice {
  threadId: string;
  recipientId: string;
  courseId: string;
  lessonId: string;
  creatorId: string;
  /** Replies since the last email. */
  replies: number;
  dueAt: string;
  /** The newest of those replies, which the email quotes (absent on a notice counted before it was kept). */
  latestReplyId?: string | undefined;
}

/** A creator's day of learners' comments, due for its digest the next morning. */
export interface CommentDigest {
  creatorId: string;
  day: string;
  comments: number;
  dueAt: string;
}

export interface CommentRepository {
  /** Consistent. */
  get(commentId: string): Promise<StoredComment | undefined>;
  /** A lesson's threads, pinned first, then newest activity first, a page at a time, with their replies (oldest first). */
  pageByLesson(courseId: string, lessonId: string, page: { cursor?: string | undefined; limit: number }): Promise<{ items: { thread: StoredComment; replies: StoredComment[] }[]; nextCursor: string | null }>;
  /**
   * One transaction: the comment (a thread, or a reply that moves its thread's activity, only while the thread is
   * there, not deleted, as pinned as `thread` was read, and holds fewer than `maxReplies`), the learner's minute (only
   * while under its cap), the creator's day for the digest (a learner's comment), the thread author's reply notice
   * (a reply by someone else: `notice`, its due time kept when one is waiting).
   */
  create(input: {
    comment: StoredComment;
    thread?: StoredComment | undefined;
    maxReplies: number;
    quota?: CommentQuota | undefined;
    digest?: Omit<CommentDigest, 'comments'> | undefined;
    notice?: Omit<ReplyNotice, 'replies'> | undefined;
  }): Promise<'created' | 'rate-limited' | 'thread-gone' | 'thread-full' | 'changed'>;
  /** The author's new text, only while it is theirs and not deleted. */
  edit(input: { commentId: string; authorId: string; body: string; html: string; editedAt: string }): Promise<boolean>;
  /**
   * A reply goes (its thread's count -1); a thread without replies goes; a thread with replies keeps its place without
   * its text (`deleted`). False when it was gone or changed meanwhile.
   */
  remove(comment: StoredComment): Promise<boolean>;
  /**
   * Hidden or shown again. Hiding a learner's thread takes it off the creator's unanswered questions; showing it again
   * puts it back unless the creator has answered it meanwhile.
   */
  setHidden(comment: StoredComment, hidden: boolean): Promise<boolean>;
  /** A thread pinned or not (its place in the lesson's list moves with it), while its activity is as read. */
  setPinned(thread: StoredComment, pinned: boolean): Promise<boolean>;
  /** Counts a learner's report once (false when they reported it already), with the creator's email queued in the same write. */
  report(input: { commentId: string; learnerId: string; mail: QueuedMail | undefined }): Promise<boolean>;
  /** A creator's learners' comments written in [from, to), newest first, at most `limit`. */
  recentForCreator(creatorId: string, from: string, to: string, limit: number): Promise<StoredComment[]>;
  /**
   * The creator's unanswered questions, oldest first, a page at a time: learners' threads with no reply by the
   * creator, not hidden, not deleted (a sparse index the writes above keep, never a filter).
   */
  unansweredForCreator(creatorId: string, page: { cursor?: string | undefined; limit: number }): Promise<{ items: StoredComment[]; nextCursor: string | null }>;
}

/** The due notices and digests (their sparse index), and their sending: each once. */
export interface DiscussionMailRepository {
  dueNotices(now: string, limit: number, cursor?: string): Promise<{ items: ReplyNotice[]; nextCursor: string | null }>;
  dueDigests(now: string, limit: number, cursor?: string): Promise<{ items: CommentDigest[]; nextCursor: string | null }>;
  /** The notice goes (only while it counts the replies read: a reply meanwhile leaves it due) and the email, if any, is queued. */
  settleNotice(notice: ReplyNotice, mail: QueuedMail | undefined): Promise<boolean>;
  settleDigest(digest: CommentDigest, mail: QueuedMail | undefined): Promise<boolean>;
}
