import { describe, expect, it } from 'vitest';
import type { CommentList, CommentView, UnansweredQuestions } from '#contracts/comments.ts';
import { FORBIDDEN_HTML } from '#adapters/html-sanitizer.ts';
import { dynamoDiscussionMail } from '#data/comments.ts';
import { work as discussionMailWork } from '#functions/jobs/discussion-mail.ts';
import { work as mailSenderWork } from '#functions/jobs/mail-sender.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { xssPayloads } from '#test/support/xss-corpus.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { header, mailsTo } from './mail-support.ts';
import { accountWithRole, api, dynamo, outputs, useLocalCloudEnv } from './support.ts';

/**
 * Lesson discussions end to end (issue 35 point 1): the gateway, the table, the 'discussion-mail' job run here with a
 * clock moved past the notice's wait (its due index is read as of that moment), the mail sender and SES local's store.
 */
const aheadBy = (ms: number) => ({ now: () => new Date(Date.now() + ms) });

/** The discussion job as of `ms` from now (its emails due in real time), then the mail sender, each to its end. */
const sendAsOf = async (ms: number) => {
  useLocalCloudEnv();
  const mail = dynamoDiscussionMail();
  const now = () => new Date().toISOString();
  const realTime = {
    ...mail,
    settleNotice: (n: Parameters<typeof mail.settleNotice>[0], m: Parameters<typeof mail.settleNotice>[1]) => mail.settleNotice(n, m && { ...m, queuedAt: now(), dueAt: now() }),
    settleDigest: (d: Parameters<typeof mail.settleDigest>[0], m: Parameters<typeof mail.settleDigest>[1]) => mail.settleDigest(d, m && { ...m, queuedAt: now(), dueAt: now() }),
  };
  await runToEnd('discussion-mail', (remaining) => discussionMailWork(remaining, { clock: aheadBy(ms), mail: realTime, startSender: async () => undefined }));
  await runToEnd('mail-sender', mailSenderWork);
};

const world = async () => {
  const creator = await accountWithRole('creator', 'talk-creator');
  const courseId = ((await api('POST', '/api/courses', { token: creator.token, body: { title: `Pottery ${Date.now()}`, description: 'Discussions.' } })).body as { id: string }).id;
  const lessonId = ((await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Wedging', kind: 'text', body: '<p>Knead.</p>' } })).body as { id: string }).id;
  expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
  const ann = await accountWithRole('learner', 'talk-ann');
  const bob = await accountWithRole('learner', 'talk-bob');
  for (const learner of [ann, bob]) expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
  const path = `/api/courses/${courseId}/lessons/${lessonId}/comments`;
  return { creator, ann, bob, courseId, lessonId, path };
};

describe('lesson discussions', () => {
  it('two learners and the creator hold a thread; a stranger gets 404; the question’s author is emailed once for the replies', async () => {
    const { creator, ann, bob, path, courseId, lessonId } = await world();
    const question = await api('POST', path, { token: ann.token, body: { body: 'How wet should the clay be?' } });
    expect(question.status).toBe(201);
    const questionId = (question.body as CommentView).id;
    expect((await api('POST', path, { token: bob.token, body: { body: 'Same question!', parentId: questionId } })).status).toBe(201);
    const answer = await api('POST', path, { token: creator.token, body: { body: 'Like **leather**, see [the guide](https://example.com/guide).', parentId: questionId } });
    expect(answer.status).toBe(201);

    const seen = (await api('GET', path, { token: bob.token })).body as CommentList;
    expect(seen.items).toHaveLength(1);
    const [thread] = seen.items;
    expect(thread).toMatchObject({ body: 'How wet should the clay be?', author: { role: 'learner' }, mine: false });
    expect(thread!.replies.map((r) => [r.author.role, r.mine])).toEqual([['learner', true], ['creator', false]]);
    expect(thread!.replies[1]!.html).toBe('<p>Like <strong>leather</strong>, see <a href="https://example.com/guide" rel="nofollow ugc noopener">the guide</a>.</p>');
    expect(JSON.stringify(seen)).not.toContain(ann.email);
    expect(JSON.stringify(seen)).not.toContain(creator.email);

    // Neither enrolled nor the creator: the lesson's discussion and its comments do not exist for them.
    const stranger = await accountWithRole('learner', 'talk-stranger');
    const otherCreator = await accountWithRole('creator', 'talk-other');
    for (const token of [stranger.token, otherCreator.token]) {
      expect((await api('GET', path, { token })).status).toBe(404);
      expect((await api('POST', path, { token, body: { body: 'Let me in' } })).status).toBe(404);
      expect((await api('DELETE', `/api/comments/${questionId}`, { token })).status).toBe(404);
    }
    expect((await api('POST', `/api/comments/${questionId}/hide`, { token: otherCreator.token })).status).toBe(404);

    // The author edits their own; another learner may not; the creator pins.
    expect((await api('PATCH', `/api/comments/${questionId}`, { token: bob.token, body: { body: 'Mine' } })).status).toBe(403);
    expect((await api('PATCH', `/api/comments/${questionId}`, { token: ann.token, body: { body: 'How wet should the clay be, exactly?' } })).status).toBe(200);
    expect((await api('POST', `/api/comments/${questionId}/pin`, { token: creator.token })).status).toBe(200);

    // Two replies within minutes: Ann gets one email about both (Bob's own reply is not his to be told of).
    await sendAsOf(0);
    expect(await mailsTo(ann.email)).toEqual([]);
    await sendAsOf(6 * 60_000);
    await sendAsOf(6 * 60_000);
    const mails = await mailsTo(ann.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Your comment has 2 new replies');
    // It quotes the newest reply (the creator's, as typed: Markdown is not rendered in an email) and links to the lesson.
    expect(mails[0]!.body.text).toMatch(/The latest, from .+ \(the course’s creator\):\n“Like \*\*leather\*\*, see \[the guide\]\(https:\/\/example\.com\/guide\)\.”/);
    expect(mails[0]!.body.html).toContain('Like **leather**, see [the guide](https://example.com/guide).</blockquote>');
    expect(mails[0]!.body.text).toContain(`/dashboard/learner/courses/${courseId}?lesson=${lessonId}`);
    expect(await mailsTo(bob.email)).toEqual([]);
  });

  it('renders every payload of the XSS corpus as text', async () => {
    const { ann, creator, path } = await world();
    for (const payload of xssPayloads.slice(0, 9)) expect((await api('POST', path, { token: ann.token, body: { body: payload } })).status).toBe(201);
    // The rest from the creator (a learner's minute holds 10 comments). The creator has no minute of their own, but the
    // route's throttle (20 a second) answers 429 to a fast machine's burst: waited out, as a client's retry would.
    const post = async (payload: string) => {
      for (;;) {
        const res = await api('POST', path, { token: creator.token, body: { body: payload } });
        if (res.status !== 429) return res.status;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    };
    for (const payload of xssPayloads.slice(9)) expect(await post(payload)).toBe(201);
    const items: CommentList['items'] = [];
    let cursor: string | null = null;
    do {
      const page = (await api('GET', `${path}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { token: ann.token })).body as CommentList;
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(items).toHaveLength(xssPayloads.length);
    for (const item of items) {
      expect(item.html, item.body).not.toMatch(FORBIDDEN_HTML);
      expect(item.html, item.body).not.toMatch(/<(img|svg|iframe|script|input|details|body|div|style|form|object|embed|math|video|audio)\b/i);
      expect(xssPayloads.map((p) => p.trim())).toContain(item.body);
    }
  });

  it('the creator’s unanswered questions: each learner’s thread until the creator replies in it, not while hidden, never another creator’s', async () => {
    const { creator, ann, bob, path } = await world();
    const ask = async (token: string, body: string, parentId?: string) => ((await api('POST', path, { token, body: { body, ...(parentId ? { parentId } : {}) } })).body as CommentView).id;
    const questions = async (token = creator.token) => {
      const answer = await api('GET', '/api/creator/questions', { token });
      expect(answer.status).toBe(200);
      return (answer.body as UnansweredQuestions).items.map((q) => q.body);
    };
    const first = await ask(ann.token, 'Which clay for beginners?');
    const second = await ask(bob.token, 'How long to dry?');
    await ask(creator.token, 'Welcome to the course!');
    await ask(bob.token, 'Me too', first);
    expect(await questions()).toEqual(['Which clay for beginners?', 'How long to dry?']);
    const [listed] = ((await api('GET', '/api/creator/questions', { token: creator.token })).body as UnansweredQuestions).items;
    expect(listed).toMatchObject({ lessonTitle: 'Wedging', author: { role: 'learner' }, replyCount: 1 });
    expect(JSON.stringify(listed)).not.toContain(ann.email);

    await ask(creator.token, 'Stoneware.', first);
    expect(await questions()).toEqual(['How long to dry?']);
    expect((await api('POST', `/api/comments/${second}/hide`, { token: creator.token, body: {} })).status).toBe(200);
    expect(await questions()).toEqual([]);
    expect((await api('POST', `/api/comments/${second}/hide`, { token: creator.token, body: { hidden: false } })).status).toBe(200);
    expect(await questions()).toEqual(['How long to dry?']);
    // Shown again after being answered: stays off the list.
    await ask(creator.token, 'A week.', second);
    await api('POST', `/api/comments/${second}/hide`, { token: creator.token, body: {} });
    await api('POST', `/api/comments/${second}/hide`, { token: creator.token, body: { hidden: false } });
    expect(await questions()).toEqual([]);

    const other = await accountWithRole('creator', 'talk-other');
    await ask(ann.token, 'Kiln temperature?');
    expect(await questions(other.token)).toEqual([]);
    expect((await api('GET', '/api/creator/questions', { token: ann.token })).status).toBe(403);
  });

  it('caps a learner at 10 comments a minute (429 RATE_LIMITED)', async () => {
    const { bob, path } = await world();
    const answers: { status: number; body: { error?: { code: string } } }[] = [];
    for (let i = 0; i < 11; i++) answers.push(await api('POST', path, { token: bob.token, body: { body: `Comment ${i}` } }));
    // A minute may turn between two of them: at most 10 in one minute, and the 11th refused unless it did.
    expect(answers.filter((a) => a.status === 201).length).toBeGreaterThanOrEqual(10);
    if (answers[10]!.status !== 201) expect(answers[10]).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED' } } });
  });

  it('the creator’s daily digest carries a one-click unsubscribe that turns off the digest alone', async () => {
    const { creator, ann, path } = await world();
    expect((await api('POST', path, { token: ann.token, body: { body: 'Is the kiln hot yet?' } })).status).toBe(201);
    await sendAsOf(32 * 60 * 60_000);
    const digest = (await mailsTo(creator.email)).find((m) => m.subject.includes('new comment'));
    expect(digest?.subject).toMatch(/^1 new comment from your learners on /);
    expect(header(digest!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const link = /^<(https?:\/\/[^>]+)>$/.exec(header(digest!, 'List-Unsubscribe') ?? '')?.[1];
    expect(digest!.body.text).toContain(`Stop this daily digest: ${link!}`);

    const at = new URL(link!);
    expect(await (await fetch(`${outputs().ApiUrl}${at.pathname}${at.search}`)).text()).toContain('Stop the daily digest of new comments?');
    const oneClick = await fetch(`${outputs().ApiUrl}${at.pathname}${at.search}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(await oneClick.json()).toEqual({ unsubscribed: true });
    const profile = (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: { pk: `USER#${creator.id}`, sk: 'PROFILE' }, ConsistentRead: true }))).Item;
    expect(profile).toMatchObject({ commentDigest: false });
    // Only the digest: the address is not on the suppression list.
    const suppressed = (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: { pk: `SUPPRESS#${creator.email.toLowerCase()}`, sk: 'SUPPRESSION' }, ConsistentRead: true }))).Item;
    expect(suppressed).toBeUndefined();

    // The same choice on the creator's profile: read as off, turned on again, and only a yes or no is taken.
    const choice = '/api/creator/discussion-emails';
    expect((await api('GET', choice, { token: creator.token })).body).toEqual({ commentDigest: false });
    expect(await api('PUT', choice, { token: creator.token, body: { commentDigest: true } })).toMatchObject({ status: 200, body: { commentDigest: true } });
    expect((await api('GET', choice, { token: creator.token })).body).toEqual({ commentDigest: true });
    expect(await api('PUT', choice, { token: creator.token, body: { commentDigest: 'no' } })).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
    expect(await api('GET', choice, { token: ann.token })).toMatchObject({ status: 403 });
  });
});
