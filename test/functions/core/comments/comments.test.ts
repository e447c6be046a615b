import { describe, expect, it } from 'vitest';
import { sanitizeCommentHtml, FORBIDDEN_HTML } from '#adapters/html-sanitizer.ts';
import { COMMENTS_PER_MINUTE, createCommentBody } from '#contracts/comments.ts';
import { deleteComment, editComment, hideComment, listComments, pinComment, postComment, reportComment, unansweredQuestions, type DiscussionDeps, type ReportDeps } from '#core/comments/comments.ts';
import { REPLY_QUOTE_MAX, replyNoticeEmail } from '#core/comments/emails.ts';
import { runDiscussionMail, type DiscussionMailDeps } from '#core/comments/mail.ts';
import type { CommentDigest, CommentRepository, ReplyNotice, StoredComment } from '#core/comments/ports.ts';
import { escapeHtml, plainText } from '#core/accounts/password-reset-email.ts';
import { renderComment } from '#core/comments/rules.ts';
import { ConflictError, ForbiddenError, NotFoundError, RateLimitedError, ValidationError } from '#core/errors.ts';
import type { CourseOutline, Enrollment, QueuedMail, User } from '#core/ports.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { xssPayloads } from '#test/support/xss-corpus.ts';

/**
 * Lesson discussions (issue 35 point 1) against an in-memory table that keeps the repository's promises: who may
 * take part (404 for anyone else), one level of replies, the author's and the creator's rights, the learner's minute
 * cap, safe rendering, and the reply notice and digest emails (each once, none for who refused mail).
 */
const T0 = '2026-11-21T12:00:00.000Z';
const DAY = 86_400_000;

const outline = (over: Partial<CourseOutline> = {}): CourseOutline =>
  ({
    id: 'course-1',
    creatorId: 'creator-1',
    title: 'Knife skills',
    status: 'published',
    lessons: [
      { id: 'lesson-1', title: 'Grip', kind: 'text', position: 0, createdAt: T0 },
      { id: 'lesson-2', title: 'Later', kind: 'text', position: 1, createdAt: T0, release: { kind: 'afterEnrollment', days: 7 } },
    ],
    ...over,
  }) as CourseOutline;

const enrolment = (learnerId: string): Enrollment => ({ courseId: 'course-1', learnerId, status: 'active', enrolledAt: T0, completedLessonIds: [] }) as unknown as Enrollment;

/** The table as far as comments go: comments, the minute counters, notices, digests, the mail queue. */
const world = () => {
  const clock = testClock(T0);
  const comments = new Map<string, StoredComment>();
  const reporters = new Map<string, Set<string>>();
  const minutes = new Map<string, number>();
  const notices = new Map<string, ReplyNotice>();
  const digests = new Map<string, CommentDigest>();
  const queued: QueuedMail[] = [];
  const enrolments = new Map<string, Enrollment>([['learner-a', enrolment('learner-a')], ['learner-b', enrolment('learner-b')]]);
  let course = outline();
  const repo: CommentRepository = {
    get: async (id) => (comments.has(id) ? { ...comments.get(id)! } : undefined),
    pageByLesson: async (courseId, lessonId, page) => {
      const threads = [...comments.values()]
        .filter((c) => c.courseId === courseId && c.lessonId === lessonId && c.parentId === null)
        .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.lastActivityAt.localeCompare(a.lastActivityAt) || b.id.localeCompare(a.id));
      const start = page.cursor ? Number(page.cursor) : 0;
      const slice = threads.slice(start, start + page.limit);
      return {
        items: slice.map((thread) => ({ thread, replies: [...comments.values()].filter((c) => c.parentId === thread.id).sort((a, b) => a.createdAt.localeCompare(b.createdAt)) })),
        nextCursor: start + page.limit < threads.length ? String(start + page.limit) : null,
      };
    },
    create: async ({ comment, thread, maxReplies, quota, digest, notice }) => {
      if (quota) {
        const key = `${comment.authorId}|${quota.minute}`;
        if ((minutes.get(key) ?? 0) >= quota.cap) return 'rate-limited';
        minutes.set(key, (minutes.get(key) ?? 0) + 1);
      }
      if (thread) {
        const now = comments.get(thread.id);
        if (!now || now.deleted) return 'thread-gone';
        if (now.replyCount >= maxReplies) return 'thread-full';
        comments.set(thread.id, { ...now, replyCount: now.replyCount + 1, lastActivityAt: comment.createdAt });
      }
      comments.set(comment.id, comment);
      if (digest) {
        const key = `${digest.creatorId}|${digest.day}`;
        digests.set(key, { ...digest, comments: (digests.get(key)?.comments ?? 0) + 1 });
      }
      if (notice) {
        const waiting = notices.get(notice.threadId);
        notices.set(notice.threadId, { ...notice, dueAt: waiting?.dueAt ?? notice.dueAt, replies: (waiting?.replies ?? 0) + 1 });
      }
      return 'created';
    },
    edit: async ({ commentId, authorId, body, html, editedAt }) => {
      const c = comments.get(commentId);
      if (!c || c.authorId !== authorId || c.deleted) return false;
      comments.set(commentId, { ...c, body, html, editedAt });
      return true;
    },
    remove: async (comment) => {
      const c = comments.get(comment.id);
      if (!c) return false;
      if (c.parentId !== null) {
        comments.delete(c.id);
        const thread = comments.get(c.parentId)!;
        comments.set(thread.id, { ...thread, replyCount: thread.replyCount - 1 });
      } else if (c.replyCount === 0) comments.delete(c.id);
      else comments.set(c.id, { ...c, deleted: true, body: '', html: '' });
      return true;
    },
    setHidden: async ({ id }, hidden) => (comments.has(id) ? (comments.set(id, { ...comments.get(id)!, hidden }), true) : false),
    setPinned: async (thread, pinned) => (comments.has(thread.id) ? (comments.set(thread.id, { ...comments.get(thread.id)!, pinned }), true) : false),
    report: async ({ commentId, learnerId, mail }) => {
      const who = reporters.get(commentId) ?? new Set<string>();
      if (who.has(learnerId)) return false;
      who.add(learnerId);
      reporters.set(commentId, who);
      comments.set(commentId, { ...comments.get(commentId)!, reports: who.size });
      if (mail) queued.push(mail);
      return true;
    },
    // What the sparse index holds, worked out from the state: a learner's thread, shown, not deleted, no reply by the creator.
    unansweredForCreator: async (creatorId, page) => {
      const answered = (thread: StoredComment) => [...comments.values()].some((c) => c.parentId === thread.id && c.authorRole === 'creator');
      const open = [...comments.values()]
        .filter((c) => c.creatorId === creatorId && c.parentId === null && c.authorRole === 'learner' && !c.hidden && !c.deleted && !answered(c))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
      const start = page.cursor ? Number(page.cursor) : 0;
      return { items: open.slice(start, start + page.limit), nextCursor: start + page.limit < open.length ? String(start + page.limit) : null };
    },
    recentForCreator: async (creatorId, from, to, limit) =>
      [...comments.values()].filter((c) => c.creatorId === creatorId && c.authorRole === 'learner' && c.createdAt >= from && c.createdAt <= to).sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit),
  };
  const users = new Map<string, User>(
    ['creator-1', 'learner-a', 'learner-b'].map((id) => [id, { id, email: `${id}@example.com`, role: id.startsWith('creator') ? 'creator' : 'learner', createdAt: T0 } as User]),
  );
  const suppressed = new Set<string>();
  const unsubscribed = new Set<string>();
  const deps: ReportDeps = {
    comments: repo,
    courses: { getOutline: async (id) => (id === course.id ? course : undefined) },
    enrollments: { get: async (courseId, learnerId) => (courseId === 'course-1' ? enrolments.get(learnerId) : undefined) },
    licenses: { get: async () => undefined },
    authorName: async (role, userId) => (role === 'creator' ? 'Chef Ann' : userId === 'learner-a' ? 'Alex' : 'Learner'),
    sanitize: sanitizeCommentHtml,
    ids: sequentialIds('c'),
    clock,
    users: { getUser: async (id) => users.get(id) },
    suppressed: async (emails) => new Set(emails.filter((e) => suppressed.has(e))),
    appOrigin: 'https://app.example',
  };
  const mailDeps: DiscussionMailDeps = {
    mail: {
      dueNotices: async (now) => ({ items: [...notices.values()].filter((n) => n.dueAt <= now), nextCursor: null }),
      dueDigests: async (now) => ({ items: [...digests.values()].filter((d) => d.dueAt <= now), nextCursor: null }),
      settleNotice: async (notice, mail) => {
        if (notices.get(notice.threadId)?.replies !== notice.replies) return false;
        notices.delete(notice.threadId);
        if (mail) queued.push(mail);
        return true;
      },
      settleDigest: async (digest, mail) => {
        const key = `${digest.creatorId}|${digest.day}`;
        if (digests.get(key)?.comments !== digest.comments) return false;
        digests.delete(key);
        if (mail) queued.push(mail);
        return true;
      },
    },
    comments: repo,
    users: deps.users,
    courses: deps.courses,
    unsubscribed: async (_creatorId, emails) => new Set(emails.filter((e) => unsubscribed.has(e))),
    suppressed: deps.suppressed,
    school: async () => undefined,
    unsubscribeLink: async (creatorId, email) => ({ url: `https://app.example/api/unsubscribe?token=${creatorId}.${email}`, headers: [{ name: 'List-Unsubscribe', value: '<https://app.example/u>' }] }),
    digestUnsubscribeLink: async (email) => ({
      url: `https://app.example/api/unsubscribe?token=digest.${email}`,
      headers: [
        { name: 'List-Unsubscribe', value: `<https://app.example/api/unsubscribe?token=digest.${email}>` },
        { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
      ],
    }),
    appOrigin: 'https://app.example',
    clock,
    startSender: async () => undefined,
    warn: () => undefined,
  };
  const runMail = () => runDiscussionMail(mailDeps)({ job: 'discussion-mail', run: 'r', lane: 'main', seq: 0 }, () => false);
  return {
    clock,
    deps: deps as DiscussionDeps & ReportDeps,
    comments,
    queued,
    notices,
    digests,
    suppressed,
    unsubscribed,
    users,
    enrolments,
    setCourse: (c: CourseOutline) => (course = c),
    runMail,
    post: (userId: string, body: string, parentId?: string, lessonId = 'lesson-1') => postComment(deps, { userId, courseId: 'course-1', lessonId, body, parentId }),
    list: (userId: string, cursor?: string) => listComments(deps, { userId, courseId: 'course-1', lessonId: 'lesson-1', cursor }),
  };
};

describe('who takes part', () => {
  it('an enrolled learner and the course’s creator read and write; a stranger, another creator, an unknown or unpublished course get 404', async () => {
    const w = world();
    const first = await w.post('learner-a', 'How sharp should it be?');
    expect(first).toMatchObject({ author: { displayName: 'Alex', role: 'learner' }, mine: true, parentId: null });
    await w.post('creator-1', 'Sharp enough to slice paper.', first.id);
    expect((await w.list('learner-b')).items).toHaveLength(1);
    await expect(w.list('stranger')).rejects.toBeInstanceOf(NotFoundError);
    await expect(w.post('other-creator', 'hi')).rejects.toBeInstanceOf(NotFoundError);
    await expect(listComments(w.deps, { userId: 'learner-a', courseId: 'course-1', lessonId: 'nope' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteComment(w.deps, { userId: 'stranger', commentId: first.id })).rejects.toBeInstanceOf(NotFoundError);
    w.setCourse(outline({ status: 'draft' }));
    await expect(w.list('learner-a')).rejects.toBeInstanceOf(NotFoundError);
    expect((await w.list('creator-1')).items).toHaveLength(1);
  });

  it('a lesson not yet open to the learner (drip) is 404 until its day; its creator sees it at once', async () => {
    const w = world();
    await expect(w.post('learner-a', 'early', undefined, 'lesson-2')).rejects.toBeInstanceOf(NotFoundError);
    await w.post('creator-1', 'Welcome', undefined, 'lesson-2');
    w.clock.advance(7 * DAY);
    await expect(w.post('learner-a', 'now', undefined, 'lesson-2')).resolves.toMatchObject({ body: 'now' });
  });

  it('a removed learner is 404', async () => {
    const w = world();
    w.enrolments.set('learner-a', { ...enrolment('learner-a'), status: 'removed' });
    await expect(w.list('learner-a')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('threads and replies', () => {
  it('a reply to a reply joins the thread (one level); the thread moves to the top by its latest activity, pinned ones above', async () => {
    const w = world();
    const older = await w.post('learner-a', 'First question');
    w.clock.advance(60_000);
    const newer = await w.post('learner-b', 'Second question');
    expect((await w.list('learner-a')).items.map((t) => t.id)).toEqual([newer.id, older.id]);
    w.clock.advance(60_000);
    const reply = await w.post('creator-1', 'Answer', older.id);
    const replyToReply = await w.post('learner-b', 'Thanks', reply.id);
    expect(replyToReply.parentId).toBe(older.id);
    const page = await w.list('learner-a');
    expect(page.items.map((t) => t.id)).toEqual([older.id, newer.id]);
    expect(page.items[0]!.replies.map((r) => r.body)).toEqual(['Answer', 'Thanks']);
    await pinComment(w.deps, { userId: 'creator-1', commentId: newer.id, pinned: true });
    expect((await w.list('learner-a')).items.map((t) => t.id)).toEqual([newer.id, older.id]);
    await expect(pinComment(w.deps, { userId: 'creator-1', commentId: reply.id, pinned: true })).rejects.toBeInstanceOf(ValidationError);
    await expect(pinComment(w.deps, { userId: 'learner-a', commentId: older.id, pinned: true })).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('pages by the cursor: 25 threads come as 20 and 5', async () => {
    const w = world();
    for (let i = 0; i < 25; i++) {
      await w.post('creator-1', `Thread ${i}`);
      w.clock.advance(1000);
    }
    const first = await w.list('learner-a');
    expect(first.items).toHaveLength(20);
    const second = await w.list('learner-a', first.nextCursor!);
    expect(second.items).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
  });

  it('the body is 1..5000 characters after trimming', () => {
    expect(createCommentBody.safeParse({ body: '   ' }).success).toBe(false);
    expect(createCommentBody.safeParse({ body: 'x'.repeat(5001) }).success).toBe(false);
    expect(createCommentBody.safeParse({ body: 'x'.repeat(5000) }).success).toBe(true);
  });
});

describe('rights', () => {
  it('the author edits and deletes their own; another learner may not; the creator deletes anyone’s and hides (learners then see no text)', async () => {
    const w = world();
    const mine = await w.post('learner-a', 'Typo here');
    await expect(editComment(w.deps, { userId: 'learner-a', commentId: mine.id, body: 'Fixed' })).resolves.toMatchObject({ body: 'Fixed', editedAt: T0 });
    await expect(editComment(w.deps, { userId: 'learner-b', commentId: mine.id, body: 'Mine now' })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(editComment(w.deps, { userId: 'creator-1', commentId: mine.id, body: 'Mine now' })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deleteComment(w.deps, { userId: 'learner-b', commentId: mine.id })).rejects.toBeInstanceOf(ForbiddenError);
    await hideComment(w.deps, { userId: 'creator-1', commentId: mine.id, hidden: true });
    expect((await w.list('learner-b')).items[0]).toMatchObject({ hidden: true, body: '', html: '' });
    expect((await w.list('creator-1')).items[0]).toMatchObject({ hidden: true, body: 'Fixed' });
    await expect(hideComment(w.deps, { userId: 'learner-b', commentId: mine.id, hidden: true })).rejects.toBeInstanceOf(ForbiddenError);
    await deleteComment(w.deps, { userId: 'creator-1', commentId: mine.id });
    expect((await w.list('learner-a')).items).toEqual([]);
  });

  it('a thread deleted with replies keeps its place without its text; nobody replies to it any more', async () => {
    const w = world();
    const thread = await w.post('learner-a', 'Question');
    await w.post('learner-b', 'Me too', thread.id);
    await deleteComment(w.deps, { userId: 'learner-a', commentId: thread.id });
    const [shown] = (await w.list('learner-b')).items;
    expect(shown).toMatchObject({ deleted: true, body: '', replies: [{ body: 'Me too' }] });
    await expect(w.post('learner-b', 'Hello?', thread.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it('a learner reports someone else’s comment once; the creator is emailed once and sees the count', async () => {
    const w = world();
    const c = await w.post('learner-a', 'Spam spam');
    await reportComment(w.deps, { userId: 'learner-b', commentId: c.id });
    await reportComment(w.deps, { userId: 'learner-b', commentId: c.id });
    expect(w.queued.filter((m) => m.to === 'creator-1@example.com')).toHaveLength(1);
    expect((await w.list('creator-1')).items[0]!.reports).toBe(1);
    expect((await w.list('learner-b')).items[0]!.reports).toBe(0);
    await expect(reportComment(w.deps, { userId: 'learner-a', commentId: c.id })).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe('unanswered questions', () => {
  it('lists learners’ threads the creator has not answered, longest waiting first, with the course and lesson; a creator’s reply, hiding or deleting takes one off', async () => {
    const w = world();
    const first = await w.post('learner-a', 'How sharp should it be?');
    w.clock.advance(60_000);
    const second = await w.post('learner-b', 'Which stone?');
    w.clock.advance(60_000);
    await w.post('creator-1', 'Welcome, everyone');
    const third = await w.post('learner-a', 'Left-handed knives?');
    await w.post('learner-b', 'Same question', first.id);
    const questions = () => unansweredQuestions(w.deps, { userId: 'creator-1' });
    expect((await questions()).items).toEqual([
      expect.objectContaining({ id: first.id, courseTitle: 'Knife skills', lessonTitle: 'Grip', author: { displayName: 'Alex', role: 'learner' }, body: 'How sharp should it be?', replyCount: 1 }),
      expect.objectContaining({ id: second.id }),
      expect.objectContaining({ id: third.id }),
    ]);
    await w.post('creator-1', 'Sharp enough to slice paper.', first.id);
    await hideComment(w.deps, { userId: 'creator-1', commentId: second.id, hidden: true });
    expect((await questions()).items.map((q) => q.id)).toEqual([third.id]);
    await hideComment(w.deps, { userId: 'creator-1', commentId: second.id, hidden: false });
    await deleteComment(w.deps, { userId: 'learner-a', commentId: third.id });
    expect((await questions()).items.map((q) => q.id)).toEqual([second.id]);
    // Another creator's list holds none of them.
    expect((await unansweredQuestions(w.deps, { userId: 'creator-2' })).items).toEqual([]);
  });
});

describe('the learner’s minute', () => {
  it(`takes ${COMMENTS_PER_MINUTE} comments a minute from a learner, then 429 until the next minute; the creator is not capped`, async () => {
    const w = world();
    for (let i = 0; i < COMMENTS_PER_MINUTE; i++) await w.post('learner-a', `n${i}`);
    const refused = await w.post('learner-a', 'one more').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    await expect(w.post('learner-b', 'another learner')).resolves.toBeDefined();
    for (let i = 0; i < COMMENTS_PER_MINUTE + 2; i++) await w.post('creator-1', `c${i}`);
    w.clock.advance(60_000);
    await expect(w.post('learner-a', 'later')).resolves.toBeDefined();
  });
});

describe('rendering', () => {
  it('every payload of the XSS corpus is rendered as text, never as markup', () => {
    for (const payload of xssPayloads) {
      const html = renderComment(payload, sanitizeCommentHtml);
      expect(html, payload).not.toMatch(FORBIDDEN_HTML);
      expect(html, payload).not.toMatch(/<(img|svg|iframe|script|input|details|body|div|style|form|a\s+href="javascript)/i);
    }
  });

  it('Markdown links are kept with rel="nofollow ugc noopener"; a javascript: link stays text', () => {
    expect(renderComment('See [the docs](https://example.com/a) and **this**', sanitizeCommentHtml)).toBe(
      '<p>See <a href="https://example.com/a" rel="nofollow ugc noopener">the docs</a> and <strong>this</strong></p>',
    );
    expect(renderComment('[x](javascript:alert(1))', sanitizeCommentHtml)).not.toContain('<a');
  });
});

describe('emails', () => {
  it('three replies within minutes are one email to the thread’s author; their own reply tells nobody', async () => {
    const w = world();
    const thread = await w.post('learner-a', 'Question');
    await w.post('learner-a', 'Also this', thread.id);
    await w.post('creator-1', 'Answer', thread.id);
    w.clock.advance(60_000);
    await w.post('learner-b', 'Same here', thread.id);
    w.clock.advance(60_000);
    await w.post('creator-1', 'More', thread.id);
    await w.runMail();
    expect(w.queued).toHaveLength(0);
    w.clock.advance(5 * 60_000);
    await w.runMail();
    await w.runMail();
    const toAuthor = w.queued.filter((m) => m.to === 'learner-a@example.com');
    expect(toAuthor).toHaveLength(1);
    expect(toAuthor[0]!.subject).toBe('Your comment has 3 new replies');
    expect(toAuthor[0]!.text).toContain('Grip (Knife skills)');
    expect(toAuthor[0]!.headers?.[0]?.name).toBe('List-Unsubscribe');
    expect(w.notices.size).toBe(0);
  });

  it('quotes the newest reply with who wrote it, cut at 500 characters, and links to the lesson', async () => {
    const w = world();
    const thread = await w.post('learner-a', 'Question');
    await w.post('learner-b', 'Same here', thread.id);
    const long = `Hold the knife like a handshake. ${'Keep the tip down. '.repeat(40)}`;
    await w.post('creator-1', long, thread.id);
    w.clock.advance(10 * 60_000);
    await w.runMail();
    const [mail] = w.queued;
    const quoted = `${long.trim().slice(0, REPLY_QUOTE_MAX - 1)}…`;
    expect(mail!.text).toContain(`The latest, from Chef Ann (the course’s creator):\n“${quoted}”`);
    expect(mail!.text).toContain('Read the thread: https://app.example/dashboard/learner/courses/course-1?lesson=lesson-1');
    expect(mail!.text).not.toContain('Same here');
    expect(mail!.html).toContain(`<blockquote style="margin:0 0 16px;padding-left:12px;border-left:3px solid #e4e4e7;color:#3f3f46">${quoted}</blockquote>`);
    expect(mail!.html).toContain('href="https://app.example/dashboard/learner/courses/course-1?lesson=lesson-1"');

    // One reply from a learner: their display name, the whole of a short reply.
    const next = await w.post('learner-b', 'Another question');
    await w.post('learner-a', '  Try a   pinch grip.\n\nIt helped me.  ', next.id);
    w.clock.advance(10 * 60_000);
    await w.runMail();
    expect(w.queued[1]!.text).toContain('Alex replied:\n“Try a pinch grip. It helped me.”');
  });

  it('quotes no reply that was hidden or deleted before the email went', async () => {
    const w = world();
    const thread = await w.post('learner-a', 'Question');
    const rude = await w.post('learner-b', 'Something rude', thread.id);
    await hideComment(w.deps, { userId: 'creator-1', commentId: rude.id, hidden: true });
    w.clock.advance(10 * 60_000);
    await w.runMail();
    expect(w.queued).toHaveLength(1);
    expect(w.queued[0]!.subject).toBe('Your comment has a new reply');
    expect(w.queued[0]!.text).not.toContain('rude');
    expect(w.queued[0]!.html).not.toContain('rude');
  });

  it('escapes every payload of the XSS corpus in the quoted reply and its author’s name', () => {
    for (const payload of xssPayloads) {
      const mail = replyNoticeEmail({
        to: 'a@example.com',
        role: 'learner',
        replies: 1,
        courseTitle: 'Knife skills',
        lessonTitle: 'Grip',
        latest: { authorName: payload, authorRole: 'learner', body: payload },
        link: 'https://app.example/dashboard/learner/courses/c?lesson=l',
        school: undefined,
      });
      expect(mail.html, payload).not.toMatch(/<(script|img|svg|iframe|input|details|form|button|object|embed|math|style|base|meta|link|frame|template|noscript|textarea|xmp|noembed)\b/i);
      expect(mail.html, payload).not.toMatch(/\s(on\w+|href|src|action|formaction)\s*=\s*"?\s*(javascript|data)/i);
      expect(mail.html, payload).toContain(escapeHtml(plainText(payload).slice(0, 60)));
    }
  });

  it('a learner who unsubscribed from the creator’s emails, or a suppressed address, gets no notice', async () => {
    const w = world();
    const a = await w.post('learner-a', 'Question A');
    const b = await w.post('learner-b', 'Question B');
    await w.post('creator-1', 'Answer', a.id);
    await w.post('creator-1', 'Answer', b.id);
    w.unsubscribed.add('learner-a@example.com');
    w.suppressed.add('learner-b@example.com');
    w.clock.advance(10 * 60_000);
    await w.runMail();
    expect(w.queued).toEqual([]);
    expect(w.notices.size).toBe(0);
  });

  it('the creator gets one digest of the day’s learner comments the next morning; none when they refused mail', async () => {
    const w = world();
    await w.post('learner-a', 'One');
    await w.post('learner-b', '<script>alert(1)</script> Two');
    await w.post('creator-1', 'Mine is not in the digest');
    await w.runMail();
    expect(w.queued).toEqual([]);
    w.clock.set('2026-11-22T08:00:00.000Z');
    await w.runMail();
    await w.runMail();
    expect(w.queued).toHaveLength(1);
    expect(w.queued[0]).toMatchObject({ to: 'creator-1@example.com', subject: '2 new comments from your learners on 2026-11-21' });
    expect(w.queued[0]!.html).not.toContain('<script');
    await w.post('learner-a', 'Next day');
    w.suppressed.add('creator-1@example.com');
    w.clock.set('2026-11-23T09:00:00.000Z');
    await w.runMail();
    expect(w.queued).toHaveLength(1);
    expect(w.digests.size).toBe(0);
  });

  it('the digest carries its own one-click unsubscribe (link and RFC 8058 headers); a creator who turned it off gets none, other mail unaffected', async () => {
    const w = world();
    await w.post('learner-a', 'One');
    w.clock.set('2026-11-22T08:00:00.000Z');
    await w.runMail();
    const digest = w.queued[0]!;
    const link = 'https://app.example/api/unsubscribe?token=digest.creator-1@example.com';
    expect(digest.text).toContain(`Stop this daily digest: ${link}`);
    expect(digest.html).toContain(`href="${link}"`);
    expect(digest.headers).toEqual([
      { name: 'List-Unsubscribe', value: `<${link}>` },
      { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
    ]);

    w.users.set('creator-1', { ...w.users.get('creator-1')!, commentDigest: false });
    const question = await w.post('learner-a', 'Next day');
    w.clock.set('2026-11-23T09:00:00.000Z');
    await w.runMail();
    expect(w.queued).toHaveLength(1);
    // Settled all the same: nothing waits to pile up into a later digest.
    expect(w.digests.size).toBe(0);
    // The creator's reply still reaches the learner: only the digest stopped.
    await w.post('creator-1', 'Answer', question.id);
    w.clock.set('2026-11-23T10:00:00.000Z');
    await w.runMail();
    expect(w.queued.map((m) => m.to)).toEqual(['creator-1@example.com', 'learner-a@example.com']);
  });
});
