import { beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '#core/errors.ts';
import type { StoredComment } from '#core/comments/ports.ts';
import type { QueuedMail } from '#core/ports.ts';
import { commentKeys, dynamoComments, dynamoDiscussionMail } from '#data/comments.ts';
import { useLocalCloudEnv } from '../support.ts';
import { rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const T = (minute: number) => new Date(Date.UTC(2026, 10, 21, 9, minute)).toISOString();

const comment = (over: Partial<StoredComment> & Pick<StoredComment, 'id' | 'courseId' | 'lessonId' | 'createdAt'>): StoredComment => ({
  creatorId: 'creator-1',
  parentId: null,
  authorId: 'learner-1',
  authorName: 'Alex',
  authorRole: 'learner',
  body: 'Hello',
  html: '<p>Hello</p>',
  editedAt: null,
  hidden: false,
  reports: 0,
  pinned: false,
  deleted: false,
  lastActivityAt: over.createdAt,
  replyCount: 0,
  ...over,
});

// Held far in the future, so the local cloud's mail sender leaves these emails alone.
const email = (id: string): QueuedMail => ({ id, to: 'ann@example.com', subject: 's', text: 't', html: 'h', queuedAt: '2999-01-01T00:00:00.000Z', dueAt: '2999-01-01T00:00:00.000Z', tries: 0 });

describe('dynamoComments', () => {
  it("reads a lesson's threads pinned first, then by newest activity (a reply moves its thread), a page at a time, with their replies", async () => {
    const repo = dynamoComments();
    const courseId = unique('course');
    const lessonId = unique('lesson');
    const ids = [unique('c'), unique('c'), unique('c')];
    for (const [i, id] of ids.entries()) expect(await repo.create({ comment: comment({ id, courseId, lessonId, createdAt: T(i) }), maxReplies: 100 })).toBe('created');
    const first = await repo.get(ids[0]!);
    const reply = comment({ id: unique('r'), courseId, lessonId, createdAt: T(10), parentId: ids[0]!, authorId: 'learner-2' });
    expect(await repo.create({ comment: reply, thread: first, maxReplies: 100 })).toBe('created');
    const page1 = await repo.pageByLesson(courseId, lessonId, { limit: 2 });
    expect(page1.items.map((t) => t.thread.id)).toEqual([ids[0], ids[2]]);
    expect(page1.items[0]!.replies.map((r) => r.id)).toEqual([reply.id]);
    expect(page1.items[0]!.thread).toMatchObject({ replyCount: 1, lastActivityAt: T(10) });
    const page2 = await repo.pageByLesson(courseId, lessonId, { limit: 2, cursor: page1.nextCursor! });
    expect(page2.items.map((t) => t.thread.id)).toEqual([ids[1]]);
    await expect(repo.pageByLesson(courseId, unique('lesson'), { limit: 2, cursor: page1.nextCursor! })).rejects.toBeInstanceOf(ValidationError);

    expect(await repo.setPinned((await repo.get(ids[1]!))!, true)).toBe(true);
    expect((await repo.pageByLesson(courseId, lessonId, { limit: 5 })).items.map((t) => t.thread.id)).toEqual([ids[1], ids[0], ids[2]]);
    // A reply written against the thread as it was before the pin is refused (its place would lose the pin).
    expect(await repo.create({ comment: comment({ id: unique('r'), courseId, lessonId, createdAt: T(11), parentId: ids[1]! }), thread: { ...(await repo.get(ids[1]!))!, pinned: false }, maxReplies: 100 })).toBe('changed');
  });

  it('takes at most the cap of a learner’s minute, also when concurrent; writes nothing past it', async () => {
    const repo = dynamoComments();
    const courseId = unique('course');
    const lessonId = unique('lesson');
    const learner = unique('learner');
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) => repo.create({ comment: comment({ id: unique('c'), courseId, lessonId, authorId: learner, createdAt: T(i) }), maxReplies: 100, quota: { minute: '2026-11-21T09:00', cap: 4 } })),
    );
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(4);
    expect(outcomes.filter((o) => o === 'rate-limited')).toHaveLength(2);
    expect((await repo.pageByLesson(courseId, lessonId, { limit: 20 })).items).toHaveLength(4);
    expect(await rawItem(commentKeys.minute(learner, '2026-11-21T09:00'))).toMatchObject({ n: 4, type: 'CommentMinute' });
  });

  it('refuses a reply past the thread’s cap or under a deleted thread; deletes a thread with replies to a tombstone', async () => {
    const repo = dynamoComments();
    const courseId = unique('course');
    const lessonId = unique('lesson');
    const threadId = unique('c');
    await repo.create({ comment: comment({ id: threadId, courseId, lessonId, createdAt: T(0) }), maxReplies: 1 });
    const reply = comment({ id: unique('r'), courseId, lessonId, createdAt: T(1), parentId: threadId });
    expect(await repo.create({ comment: reply, thread: await repo.get(threadId), maxReplies: 1 })).toBe('created');
    expect(await repo.create({ comment: comment({ id: unique('r'), courseId, lessonId, createdAt: T(2), parentId: threadId }), thread: await repo.get(threadId), maxReplies: 1 })).toBe('thread-full');
    expect(await repo.remove((await repo.get(threadId))!)).toBe(true);
    expect(await repo.get(threadId)).toMatchObject({ deleted: true, body: '', html: '', replyCount: 1 });
    expect(await repo.create({ comment: comment({ id: unique('r'), courseId, lessonId, createdAt: T(3), parentId: threadId }), thread: await repo.get(threadId), maxReplies: 5 })).toBe('thread-gone');
    expect(await repo.remove(reply)).toBe(true);
    expect(await repo.get(reply.id)).toBeUndefined();
    expect((await repo.get(threadId))!.replyCount).toBe(0);
  });

  it('edits only the author’s; counts a learner’s report once, queuing its email once', async () => {
    const repo = dynamoComments();
    const id = unique('c');
    await repo.create({ comment: comment({ id, courseId: unique('course'), lessonId: 'l', createdAt: T(0) }), maxReplies: 5 });
    expect(await repo.edit({ commentId: id, authorId: 'someone-else', body: 'x', html: '<p>x</p>', editedAt: T(1) })).toBe(false);
    expect(await repo.edit({ commentId: id, authorId: 'learner-1', body: 'y', html: '<p>y</p>', editedAt: T(1) })).toBe(true);
    const mailId = unique('mail');
    expect(await repo.report({ commentId: id, learnerId: 'learner-2', mail: email(mailId) })).toBe(true);
    expect(await repo.report({ commentId: id, learnerId: 'learner-2', mail: email(mailId) })).toBe(false);
    expect(await repo.report({ commentId: id, learnerId: 'learner-3', mail: undefined })).toBe(true);
    expect(await repo.get(id)).toMatchObject({ body: 'y', editedAt: T(1), reports: 2 });
  });
});

describe('dynamoDiscussionMail', () => {
  it('keeps a notice’s first due time for later replies, and settles it once, only as read', async () => {
    const repo = dynamoComments();
    const mail = dynamoDiscussionMail();
    const courseId = unique('course');
    const threadId = unique('c');
    await repo.create({ comment: comment({ id: threadId, courseId, lessonId: 'l', createdAt: T(0) }), maxReplies: 5 });
    const due = '2001-01-01T00:00:00.000Z';
    const replyIds: string[] = [];
    for (const [i, at] of [due, '2001-01-01T00:04:00.000Z'].entries()) {
      const r = comment({ id: unique('r'), courseId, lessonId: 'l', createdAt: T(i + 1), parentId: threadId, authorId: 'learner-2' });
      replyIds.push(r.id);
      const notice = { threadId, recipientId: 'learner-1', courseId, lessonId: 'l', creatorId: 'creator-1', dueAt: at, latestReplyId: r.id };
      expect(await repo.create({ comment: r, thread: await repo.get(threadId), maxReplies: 5, notice })).toBe('created');
    }
    const mine = async () => {
      let cursor: string | undefined;
      for (;;) {
        const page = await mail.dueNotices('2001-01-01T00:10:00.000Z', 100, cursor);
        const found = page.items.find((n) => n.threadId === threadId);
        if (found || !page.nextCursor) return found;
        cursor = page.nextCursor;
      }
    };
    const notice = await mine();
    // The newest reply is the one its email quotes.
    expect(notice).toMatchObject({ replies: 2, dueAt: due, recipientId: 'learner-1', latestReplyId: replyIds[1] });
    expect(await mail.settleNotice({ ...notice!, replies: 1 }, email(unique('mail')))).toBe(false);
    expect(await mail.settleNotice(notice!, email(unique('mail')))).toBe(true);
    expect(await mail.settleNotice(notice!, email(unique('mail')))).toBe(false);
    expect(await mine()).toBeUndefined();
  });

  it("counts a creator's day for the digest and lists that day's learner comments", async () => {
    const repo = dynamoComments();
    const mail = dynamoDiscussionMail();
    const creatorId = unique('creator');
    const day = '2001-02-03';
    for (let i = 0; i < 3; i++) {
      await repo.create({
        comment: comment({ id: unique('c'), courseId: unique('course'), lessonId: 'l', creatorId, createdAt: `${day}T10:0${i}:00.000Z` }),
        maxReplies: 5,
        digest: { creatorId, day, dueAt: '2001-02-04T08:00:00.000Z' },
      });
    }
    expect(await rawItem(commentKeys.digest(creatorId, day))).toMatchObject({ comments: 3 });
    expect(await repo.recentForCreator(creatorId, `${day}T00:00:00.000Z`, `${day}T23:59:59.999Z~`, 2)).toHaveLength(2);
    const digest = { creatorId, day, comments: 3, dueAt: '2001-02-04T08:00:00.000Z' };
    expect(await mail.settleDigest(digest, undefined)).toBe(true);
    expect(await rawItem(commentKeys.digest(creatorId, day))).toBeUndefined();
  });
});
