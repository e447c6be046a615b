import type { CommentDigest, CommentRepository, DiscussionMailRepository, ReplyNotice } from '#core/comments/ports.ts';
import { digestEmail, lessonLink, replyNoticeEmail } from '#core/comments/emails.ts';
import { DIGEST_LISTED } from '#core/comments/rules.ts';
import { throughPages, type SliceWork } from '#core/jobs/slices.ts';
import { onceByKey } from '#core/once-by-key.ts';
import type { Clock, CourseOutline, CourseRepository, MailSchool, QueuedMail, UserRepository } from '#core/ports.ts';

/**
 * The 'discussion-mail' job (every minute, in slices: decision 0033): the reply notices due (a thread's author told of
 * the replies since their last email, NOTICE_DELAY_MINUTES after the first of them), then the creators' digests due
 * (a day's comments of their learners, the next morning). Each is settled in one transaction, on condition it still
 * counts what was read, with its email put in the mail queue: a reply arriving meanwhile leaves the notice due for
 * the next run (one email with both), and a run that read the same notice finds it gone. Nobody is mailed who
 * refused it: the suppression list (bounces, complaints, the platform's unsubscribe), and for a learner the
 * creator's own list (`school-<creatorId>`, the link in the email's footer and headers).
 */

export const DUE_PAGE = 25;
export const DUE_CONCURRENCY = 4;

export interface DiscussionMailDeps {
  mail: DiscussionMailRepository;
  comments: Pick<CommentRepository, 'get' | 'recentForCreator'>;
  users: Pick<UserRepository, 'getUser'>;
  courses: Pick<CourseRepository, 'getOutline'>;
  /** The addresses among these (lower-case) that unsubscribed from the creator's emails. */
  unsubscribed: (creatorId: string, emails: readonly string[]) => Promise<Set<string>>;
  suppressed: (emails: readonly string[]) => Promise<Set<string>>;
  school: (creatorId: string) => Promise<MailSchool | undefined>;
  unsubscribeLink: (creatorId: string, email: string) => Promise<{ url: string; headers: { name: string; value: string }[] }>;
  /** The creator's one-click link (and its RFC 8058 headers) that turns their daily digest of comments off. */
  digestUnsubscribeLink: (email: string) => Promise<{ url: string; headers: { name: string; value: string }[] }>;
  appOrigin: string;
  clock: Clock;
  startSender: (key: string) => Promise<void>;
  warn: (message: string, fields: Record<string, unknown>) => void;
}

export interface DiscussionMailCounts extends Record<string, number> {
  queued: number;
  /** Settled without an email: the recipient refused mail, or left, or the thread went. */
  dropped: number;
  /** Moved by a reply or another run meanwhile. */
  skipped: number;
  failed: number;
}

type Memo = { outline: (courseId: string) => Promise<CourseOutline | undefined>; school: (creatorId: string) => Promise<MailSchool | undefined> };

const titlesOf = (outline: CourseOutline | undefined, lessonId: string) => ({
  courseTitle: outline?.title ?? 'your course',
  lessonTitle: outline?.lessons.find((l) => l.id === lessonId)?.title ?? 'a lesson',
});

/** The mail queue's id of a notice's email: one per thread and batch of replies. */
export const noticeMailId = (notice: ReplyNotice): string => `comment-notice:${notice.threadId}:${notice.dueAt}`;
export const digestMailId = (digest: CommentDigest): string => `comment-digest:${digest.creatorId}:${digest.day}`;

/** One due notice: its email queued (or none, for who refused mail), and the notice gone, once. */
export const settleNotice = async (deps: DiscussionMailDeps, notice: ReplyNotice, counts: DiscussionMailCounts, memo: Memo): Promise<void> => {
  const [thread, recipient, latest] = await Promise.all([
    deps.comments.get(notice.threadId),
    deps.users.getUser(notice.recipientId),
    notice.latestReplyId ? deps.comments.get(notice.latestReplyId) : undefined,
  ]);
  let mail: QueuedMail | undefined;
  if (thread && !thread.deleted && recipient && !recipient.disabled) {
    const email = recipient.email.toLowerCase();
    const learner = thread.authorRole === 'learner';
    const [suppressed, unsubscribed] = await Promise.all([deps.suppressed([email]), learner ? deps.unsubscribed(notice.creatorId, [email]) : new Set<string>()]);
    if (!suppressed.has(email) && !unsubscribed.has(email)) {
      const [outline, school, link] = await Promise.all([
        memo.outline(notice.courseId),
        learner ? memo.school(notice.creatorId) : undefined,
        learner ? deps.unsubscribeLink(notice.creatorId, recipient.email) : undefined,
      ]);
      const at = deps.clock.now().toISOString();
      const message = replyNoticeEmail({
        to: recipient.email,
        role: thread.authorRole,
        replies: notice.replies,
        ...titlesOf(outline, notice.lessonId),
        // The newest reply, quoted while it is there to read: not once its author deleted it or the creator hid it.
        latest: latest && !latest.deleted && !latest.hidden ? latest : undefined,
        link: lessonLink(deps.appOrigin, thread.authorRole, notice.courseId, notice.lessonId),
        school,
        unsubscribe: link,
      });
      mail = { ...message, id: noticeMailId(notice), queuedAt: at, dueAt: at, tries: 0 };
    }
  }
  if (!(await deps.mail.settleNotice(notice, mail))) counts.skipped++;
  else if (mail) counts.queued++;
  else counts.dropped++;
};

/**
 * One due digest: the day's newest comments listed (all counted), queued once, with the link that stops the digest
 * alone; none for a creator who refused all mail or turned the digest off (settled all the same: nothing piles up).
 */
export const settleDigest = async (deps: DiscussionMailDeps, digest: CommentDigest, counts: DiscussionMailCounts, memo: Memo): Promise<void> => {
  const creator = await deps.users.getUser(digest.creatorId);
  let mail: QueuedMail | undefined;
  const email = creator?.email.toLowerCase();
  if (creator && email && !creator.disabled && creator.commentDigest !== false && !(await deps.suppressed([email])).has(email)) {
    const recent = await deps.comments.recentForCreator(digest.creatorId, `${digest.day}T00:00:00.000Z`, `${digest.day}T23:59:59.999Z~`, DIGEST_LISTED);
    const listed = await Promise.all(
      recent.map(async (c) => ({
        authorName: c.authorName,
        body: c.body,
        ...titlesOf(await memo.outline(c.courseId), c.lessonId),
        link: lessonLink(deps.appOrigin, 'creator', c.courseId, c.lessonId),
      })),
    );
    if (listed.length > 0) {
      const at = deps.clock.now().toISOString();
      const unsubscribe = await deps.digestUnsubscribeLink(creator.email);
      mail = { ...digestEmail({ to: creator.email, day: digest.day, total: Math.max(digest.comments, listed.length), listed, unsubscribe }), id: digestMailId(digest), queuedAt: at, dueAt: at, tries: 0 };
    }
  }
  if (!(await deps.mail.settleDigest(digest, mail))) counts.skipped++;
  else if (mail) counts.queued++;
  else counts.dropped++;
};

/** The slice's cursor: which listing it is in (`n:` the notices, `d:` the digests) and where. */
const NOTICES = 'n:';
const DIGESTS = 'd:';

export const runDiscussionMail =
  (deps: DiscussionMailDeps): SliceWork<DiscussionMailCounts> =>
  async (slice, timeUp) => {
    const now = deps.clock.now().toISOString();
    const counts: DiscussionMailCounts = { queued: 0, dropped: 0, skipped: 0, failed: 0 };
    const memo: Memo = { outline: onceByKey((courseId) => deps.courses.getOutline(courseId)), school: onceByKey((creatorId) => deps.school(creatorId)) };
    const guarded =
      <T>(what: string, settle: (item: T) => Promise<void>) =>
      async (item: T) => {
        try {
          await settle(item);
        } catch (error) {
          counts.failed++;
          deps.warn(`a due ${what} failed`, { item, error: error instanceof Error ? error.message : String(error) });
        }
      };
    let cursor: string | undefined;
    const at = slice.cursor ?? NOTICES;
    if (at.startsWith(NOTICES)) {
      const notices = await throughPages({
        cursor: at.slice(NOTICES.length),
        timeUp,
        concurrency: DUE_CONCURRENCY,
        page: (after) => deps.mail.dueNotices(now, DUE_PAGE, after),
        handle: guarded('reply notice', (notice: ReplyNotice) => settleNotice(deps, notice, counts, memo)),
      });
      cursor = notices.cursor !== undefined ? `${NOTICES}${notices.cursor}` : timeUp() ? DIGESTS : undefined;
    }
    if (cursor === undefined) {
      const digests = await throughPages({
        cursor: at.startsWith(DIGESTS) ? at.slice(DIGESTS.length) : undefined,
        timeUp,
        concurrency: DUE_CONCURRENCY,
        page: (after) => deps.mail.dueDigests(now, DUE_PAGE, after),
        handle: guarded('digest', (digest: CommentDigest) => settleDigest(deps, digest, counts, memo)),
      });
      cursor = digests.cursor !== undefined ? `${DIGESTS}${digests.cursor}` : undefined;
    }
    if (counts.queued > 0) {
      await deps.startSender(`discussions:${slice.run}:${slice.lane}:${slice.seq}`).catch((error: unknown) =>
        deps.warn('the mail sender was not started: the queued emails go with its next run', { error: error instanceof Error ? error.message : String(error) }),
      );
    }
    return { cursor, counts };
  };
