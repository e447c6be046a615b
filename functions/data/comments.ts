import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { commentRoles } from '#contracts/comments.ts';
import type { CommentDigest, CommentRepository, DiscussionMailRepository, ReplyNotice, StoredComment } from '#core/comments/ports.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { documentClient, dueIndexPage, failedAt, indexPage, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * Lesson discussions (issue 35 point 1; docs/data-model.md "Lesson discussions").
 * Comment:  pk COMMENT#<commentId>  sk COMMENT   id, courseId, lessonId, creatorId, parentId, authorId, authorName,
 *                                                authorRole, body, html, createdAt, editedAt, hidden, reports, reporters
 *                                                (a string set), and a thread's pinned, deleted, lastActivityAt, replyCount
 *   a thread: gsi1pk LESSON#<courseId>#<lessonId>#COMMENTS  gsi1sk <1 pinned|0>#<lastActivityAt>#<commentId>
 *             the lesson's threads in one index partition, read descending: pinned first, then newest activity, a
 *             page at a time from the cursor (never a scan, never a filter); a reply moves its thread's gsi1sk in the
 *             reply's transaction
 *   a reply:  gsi1pk THREAD#<threadId>  gsi1sk <createdAt>#<commentId>   the thread's replies, oldest first (at most
 *             REPLIES_MAX: one Query per thread of the page, side by side)
 *   a learner's (thread or reply): gsi2pk CREATOR#<creatorId>#COMMENTS  gsi2sk <createdAt>#<commentId>   what the
 *             creator's digest lists
 *   a learner's thread still unanswered: gsi3pk CREATOR#<creatorId>#QUESTIONS  gsi3sk <createdAt>#<commentId>
 *             (sparse) the creator's unanswered questions, oldest first: put with the thread, removed by the creator's
 *             first reply (which sets answeredAt, in the reply's transaction), by hiding or deleting it; showing it
 *             again puts it back unless answeredAt is set
 * Minute:   pk USER#<learnerId>  sk COMMENTMIN#<YYYY-MM-DDTHH:MM>   n (ADDed with each comment while n < cap),
 *                                                expiresAt (TTL, a day on)
 * Notice:   pk COMMENT#<threadId>  sk NOTICE     recipientId, courseId, lessonId, creatorId, replies, dueAt: replies the
 *                                                thread's author has not been told of (ADDed by each reply's transaction;
 *                                                the first one sets dueAt), latestReplyId (set by each: the email quotes it)
 *           gsi3pk COMMENTS#NOTICES  gsi3sk <dueAt>#<threadId>   (sparse) what the 'discussion-mail' job reads
 * Digest:   pk CREATOR#<creatorId>  sk COMMENTDIGEST#<day>   comments (ADDed by each learner's comment), dueAt
 *           gsi3pk COMMENTS#DIGESTS  gsi3sk <dueAt>#<creatorId>#<day>   (sparse) the digests due
 * The job settles a notice or digest by deleting it on condition it still counts what it read, in one transaction with
 * its email in the mail queue: each reply and each day is told once.
 */
export const commentKeys = {
  comment: (commentId: string) => ({ pk: `COMMENT#${commentId}`, sk: 'COMMENT' }),
  lessonThreads: (courseId: string, lessonId: string) => `LESSON#${courseId}#${lessonId}#COMMENTS`,
  threadPlace: (thread: Pick<StoredComment, 'courseId' | 'lessonId' | 'id'>, pinned: boolean, lastActivityAt: string) => ({
    gsi1pk: commentKeys.lessonThreads(thread.courseId, thread.lessonId),
    gsi1sk: `${pinned ? 1 : 0}#${lastActivityAt}#${thread.id}`,
  }),
  replyPlace: (threadId: string, createdAt: string, replyId: string) => ({ gsi1pk: `THREAD#${threadId}`, gsi1sk: `${createdAt}#${replyId}` }),
  byCreator: (creatorId: string, createdAt: string, commentId: string) => ({ gsi2pk: `CREATOR#${creatorId}#COMMENTS`, gsi2sk: `${createdAt}#${commentId}` }),
  questions: (creatorId: string) => `CREATOR#${creatorId}#QUESTIONS`,
  question: (thread: Pick<StoredComment, 'creatorId' | 'createdAt' | 'id'>) => ({ gsi3pk: commentKeys.questions(thread.creatorId), gsi3sk: `${thread.createdAt}#${thread.id}` }),
  minute: (learnerId: string, minute: string) => ({ pk: `USER#${learnerId}`, sk: `COMMENTMIN#${minute}` }),
  notice: (threadId: string) => ({ pk: `COMMENT#${threadId}`, sk: 'NOTICE' }),
  digest: (creatorId: string, day: string) => ({ pk: `CREATOR#${creatorId}`, sk: `COMMENTDIGEST#${day}` }),
};
/**
 * A new comment's item as `create` writes it: its place under its lesson (a thread) or its thread (a reply), a
 * learner's comment in their creator's listing, and a learner's thread on the creator's unanswered questions.
 */
export const newCommentItem = (comment: StoredComment): Record<string, unknown> => {
  const isReply = comment.parentId !== null;
  const learner = comment.authorRole === 'learner';
  return {
    ...commentKeys.comment(comment.id),
    type: 'Comment',
    ...comment,
    ...(isReply ? commentKeys.replyPlace(comment.parentId!, comment.createdAt, comment.id) : commentKeys.threadPlace(comment, false, comment.lastActivityAt)),
    ...(learner ? commentKeys.byCreator(comment.creatorId, comment.createdAt, comment.id) : {}),
    ...(learner && !isReply ? commentKeys.question(comment) : {}),
  };
};

const NOTICES = 'COMMENTS#NOTICES';
const DIGESTS = 'COMMENTS#DIGESTS';

const commentItem = z.object({
  id: z.string(),
  courseId: z.string(),
  lessonId: z.string(),
  creatorId: z.string(),
  parentId: z.string().nullable(),
  authorId: z.string(),
  authorName: z.string(),
  authorRole: z.enum(commentRoles),
  body: z.string(),
  html: z.string(),
  createdAt: z.string(),
  editedAt: z.string().nullable(),
  hidden: z.boolean(),
  reports: z.number().int(),
  pinned: z.boolean(),
  deleted: z.boolean(),
  lastActivityAt: z.string(),
  replyCount: z.number().int(),
}) satisfies z.ZodType<StoredComment>;
const toComment = (item: unknown): StoredComment => commentItem.parse(item);

const noticeItem = z.object({
  threadId: z.string(),
  recipientId: z.string(),
  courseId: z.string(),
  lessonId: z.string(),
  creatorId: z.string(),
  replies: z.number().int(),
  dueAt: z.string(),
  latestReplyId: z.string().optional(),
}) satisfies z.ZodType<ReplyNotice>;
const digestItem = z.object({ creatorId: z.string(), day: z.string(), comments: z.number().int(), dueAt: z.string() }) satisfies z.ZodType<CommentDigest>;

const DAY_S = 86_400;

const getComment = async (commentId: string): Promise<StoredComment | undefined> => {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: commentKeys.comment(commentId), ConsistentRead: true }));
  return Item ? toComment(Item) : undefined;
};

export const dynamoComments = (): CommentRepository => ({
  get: getComment,

  async pageByLesson(courseId, lessonId, page) {
    const found = await indexPage({
      index: 'gsi1',
      partition: commentKeys.lessonThreads(courseId, lessonId),
      cursor: page.cursor,
      limit: page.limit,
      cursorKey: { fixed: { sk: 'COMMENT' }, sortPrefix: { name: 'pk', prefix: 'COMMENT#' } },
    });
    const threads = found.items.map(toComment);
    const items = await Promise.all(
      threads.map(async (thread) => ({
        thread,
        replies:
          thread.replyCount > 0
            ? (await queryAll({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `THREAD#${thread.id}` } })).map(toComment)
            : [],
      })),
    );
    return { items, nextCursor: found.nextCursor };
  },

  async create({ comment, thread, maxReplies, quota, digest, notice }) {
    const isReply = comment.parentId !== null;
    const answer = isReply && comment.authorRole === 'creator';
    const items: NonNullable<Parameters<typeof transact>[0]> = [
      {
        Put: {
          TableName: tableName(),
          Item: newCommentItem(comment),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    if (isReply && thread) {
      items.push({
        Update: {
          TableName: tableName(),
          Key: commentKeys.comment(thread.id),
          // The creator's reply answers the question: off their unanswered list for good.
          UpdateExpression: `ADD replyCount :one SET lastActivityAt = :at, gsi1sk = :place${answer ? ', answeredAt = :at REMOVE gsi3pk, gsi3sk' : ''}`,
          ConditionExpression: 'attribute_exists(pk) AND deleted = :no AND pinned = :pinned AND replyCount < :max',
          ExpressionAttributeValues: { ':one': 1, ':at': comment.createdAt, ':place': commentKeys.threadPlace(thread, thread.pinned, comment.createdAt).gsi1sk, ':no': false, ':pinned': thread.pinned, ':max': maxReplies },
        },
      });
    }
    const quotaAt = items.length;
    if (quota) {
      items.push({
        Update: {
          TableName: tableName(),
          Key: commentKeys.minute(comment.authorId, quota.minute),
          UpdateExpression: 'ADD n :one SET #type = :type, expiresAt = :exp',
          ConditionExpression: 'attribute_not_exists(n) OR n < :cap',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':one': 1, ':cap': quota.cap, ':type': 'CommentMinute', ':exp': Math.floor(Date.parse(`${quota.minute}:00.000Z`) / 1000) + DAY_S },
        },
      });
    }
    if (digest) {
      items.push({
        Update: {
          TableName: tableName(),
          Key: commentKeys.digest(digest.creatorId, digest.day),
          UpdateExpression: 'ADD comments :one SET #type = :type, creatorId = :creator, #day = :day, dueAt = :due, gsi3pk = :index, gsi3sk = :sk',
          ExpressionAttributeNames: { '#type': 'type', '#day': 'day' },
          ExpressionAttributeValues: { ':one': 1, ':type': 'CommentDigest', ':creator': digest.creatorId, ':day': digest.day, ':due': digest.dueAt, ':index': DIGESTS, ':sk': `${digest.dueAt}#${digest.creatorId}#${digest.day}` },
        },
      });
    }
    if (notice) {
      items.push({
        Update: {
          TableName: tableName(),
          Key: commentKeys.notice(notice.threadId),
          // A notice already waiting keeps its due time: the replies until then go in one email.
          UpdateExpression:
            'ADD replies :one SET #type = :type, threadId = :thread, recipientId = :to, courseId = :course, lessonId = :lesson, creatorId = :creator, dueAt = if_not_exists(dueAt, :due), gsi3pk = :index, gsi3sk = if_not_exists(gsi3sk, :sk)' +
            (notice.latestReplyId ? ', latestReplyId = :latest' : ''),
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':one': 1,
            ':type': 'CommentNotice',
            ':thread': notice.threadId,
            ':to': notice.recipientId,
            ':course': notice.courseId,
            ':lesson': notice.lessonId,
            ':creator': notice.creatorId,
            ':due': notice.dueAt,
            ':index': NOTICES,
            ':sk': `${notice.dueAt}#${notice.threadId}`,
            ...(notice.latestReplyId ? { ':latest': notice.latestReplyId } : {}),
          },
        },
      });
    }
    const cancelled = await transact(items);
    if (!cancelled) return 'created';
    if (quota && failedAt(cancelled, quotaAt)) return 'rate-limited';
    if (isReply && failedAt(cancelled, 1)) {
      const now = thread ? await getComment(thread.id) : undefined;
      if (!now || now.deleted) return 'thread-gone';
      return now.replyCount >= maxReplies ? 'thread-full' : 'changed';
    }
    return 'changed';
  },

  async edit({ commentId, authorId, body, html, editedAt }) {
    return writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: commentKeys.comment(commentId),
          UpdateExpression: 'SET body = :body, html = :html, editedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND authorId = :me AND deleted = :no',
          ExpressionAttributeValues: { ':body': body, ':html': html, ':at': editedAt, ':me': authorId, ':no': false },
        }),
      ),
    );
  },

  async remove(comment) {
    if (comment.parentId !== null) {
      const cancelled = await transact([
        { Delete: { TableName: tableName(), Key: commentKeys.comment(comment.id), ConditionExpression: 'attribute_exists(pk)' } },
        {
          Update: {
            TableName: tableName(),
            Key: commentKeys.comment(comment.parentId),
            UpdateExpression: 'ADD replyCount :minus',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':minus': -1 },
          },
        },
      ]);
      return !cancelled;
    }
    // A thread without replies goes; one with replies stays in its place, its text gone, so the replies keep theirs.
    const gone = await writeIf(() =>
      documentClient().send(new DeleteCommand({ TableName: tableName(), Key: commentKeys.comment(comment.id), ConditionExpression: 'replyCount = :none', ExpressionAttributeValues: { ':none': 0 } })),
    );
    if (gone) return true;
    return writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: commentKeys.comment(comment.id),
          UpdateExpression: 'SET deleted = :yes, body = :empty, html = :empty REMOVE gsi2pk, gsi2sk, gsi3pk, gsi3sk',
          ConditionExpression: 'attribute_exists(pk) AND replyCount > :none',
          ExpressionAttributeValues: { ':yes': true, ':empty': '', ':none': 0 },
        }),
      ),
    );
  },

  async setHidden(comment, hidden) {
    const key = commentKeys.comment(comment.id);
    const done = await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: hidden ? 'SET #hidden = :h REMOVE gsi3pk, gsi3sk' : 'SET #hidden = :h',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#hidden': 'hidden' },
          ExpressionAttributeValues: { ':h': hidden },
        }),
      ),
    );
    if (done && !hidden && comment.parentId === null && comment.authorRole === 'learner') {
      // Back on the unanswered list, unless the creator answered it (or it was hidden or deleted again) meanwhile.
      const place = commentKeys.question(comment);
      await writeIf(() =>
        documentClient().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: key,
            UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(answeredAt) AND #hidden = :no AND deleted = :no',
            ExpressionAttributeNames: { '#hidden': 'hidden' },
            ExpressionAttributeValues: { ':pk': place.gsi3pk, ':sk': place.gsi3sk, ':no': false },
          }),
        ),
      );
    }
    return done;
  },

  async setPinned(thread, pinned) {
    return writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: commentKeys.comment(thread.id),
          UpdateExpression: 'SET pinned = :p, gsi1sk = :place',
          ConditionExpression: 'attribute_exists(pk) AND lastActivityAt = :at',
          ExpressionAttributeValues: { ':p': pinned, ':place': commentKeys.threadPlace(thread, pinned, thread.lastActivityAt).gsi1sk, ':at': thread.lastActivityAt },
        }),
      ),
    );
  },

  async report({ commentId, learnerId, mail }) {
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: commentKeys.comment(commentId),
          UpdateExpression: 'ADD reports :one, reporters :me',
          ConditionExpression: 'attribute_exists(pk) AND NOT contains(reporters, :learner)',
          ExpressionAttributeValues: { ':one': 1, ':me': new Set([learnerId]), ':learner': learnerId },
        },
      },
      ...(mail ? [mailQueuePut(mail)] : []),
    ]);
    return !cancelled;
  },

  async recentForCreator(creatorId, from, to, limit) {
    const { Items = [] } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}#COMMENTS`, ':from': from, ':to': `${to}` },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return Items.map(toComment);
  },

  async unansweredForCreator(creatorId, page) {
    const found = await indexPage({
      index: 'gsi3',
      partition: commentKeys.questions(creatorId),
      cursor: page.cursor,
      limit: page.limit,
      oldestFirst: true,
      cursorKey: { fixed: { sk: 'COMMENT' }, sortPrefix: { name: 'pk', prefix: 'COMMENT#' } },
    });
    return { items: found.items.map(toComment), nextCursor: found.nextCursor };
  },
});

export const dynamoDiscussionMail = (): DiscussionMailRepository => ({
  async dueNotices(now, limit, cursor) {
    const page = await dueIndexPage(NOTICES, now, limit, cursor ? { cursor, pkPrefix: 'COMMENT#' } : undefined);
    return { items: page.items.map((item) => noticeItem.parse(item)), nextCursor: page.nextCursor };
  },

  async dueDigests(now, limit, cursor) {
    const page = await dueIndexPage(DIGESTS, now, limit, cursor ? { cursor, pkPrefix: 'CREATOR#' } : undefined);
    return { items: page.items.map((item) => digestItem.parse(item)), nextCursor: page.nextCursor };
  },

  async settleNotice(notice, mail) {
    const cancelled = await transact([
      { Delete: { TableName: tableName(), Key: commentKeys.notice(notice.threadId), ConditionExpression: 'replies = :read', ExpressionAttributeValues: { ':read': notice.replies } } },
      ...(mail ? [mailQueuePut(mail)] : []),
    ]);
    return !cancelled;
  },

  async settleDigest(digest, mail) {
    const cancelled = await transact([
      { Delete: { TableName: tableName(), Key: commentKeys.digest(digest.creatorId, digest.day), ConditionExpression: 'comments = :read', ExpressionAttributeValues: { ':read': digest.comments } } },
      ...(mail ? [mailQueuePut(mail)] : []),
    ]);
    return !cancelled;
  },
});
