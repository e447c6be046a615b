import { describe, expect, it } from 'vitest';
import type { LearnerLesson } from '#contracts/courses.ts';
import type { MySubmissionAnswer, Submission, SubmissionList } from '#contracts/submissions.ts';
import { escapeHtml, plainText } from '#core/accounts/password-reset-email.ts';
import { work as mailSenderWork } from '#functions/jobs/mail-sender.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { xssPayloads } from '#test/support/xss-corpus.ts';
import { mailsTo } from './mail-support.ts';
import { accountWithRole, api, useLocalCloudEnv } from './support.ts';

/**
 * Assignments end to end (issue 35 point 2): the gateway, the table (the course's queue by status in its index), the
 * mail queue written in the grade's transaction and sent by the mail sender to SES local's store, and the lesson's
 * completion through the learner's progress.
 */
const sendMail = async () => {
  useLocalCloudEnv();
  await runToEnd('mail-sender', mailSenderWork);
};

describe('assignments', () => {
  it('a learner hands in, is asked for a revision, hands in again and passes: emailed each time, the lesson complete', async () => {
    const creator = await accountWithRole('creator', 'assign-creator');
    const courseId = ((await api('POST', '/api/courses', { token: creator.token, body: { title: `Essays ${Date.now()}`, description: 'Assignments.' } })).body as { id: string }).id;
    const created = await api('POST', `/api/courses/${courseId}/lessons`, {
      token: creator.token,
      body: { title: 'Essay', kind: 'assignment', assignment: { instructions: 'Write **300 words**. <script>alert(1)</script>', acceptsFiles: false } },
    });
    expect(created.status).toBe(201);
    const lessonId = (created.body as { id: string }).id;
    expect((created.body as { assignment: { html: string } }).assignment.html).toContain('<strong>300 words</strong>');
    expect((created.body as { assignment: { html: string } }).assignment.html).not.toContain('<script');
    expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    const ann = await accountWithRole('learner', 'assign-ann');
    expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: ann.email } })).status).toBe(201);
    const path = `/api/learner/courses/${courseId}/lessons/${lessonId}/submissions`;

    const lesson = (await api('GET', `/api/learner/courses/${courseId}/lessons/${lessonId}`, { token: ann.token })).body as LearnerLesson;
    expect(lesson).toMatchObject({ kind: 'assignment', completed: false, assignment: { acceptsFiles: false } });
    expect(((await api('GET', path, { token: ann.token })).body as MySubmissionAnswer).submission).toBeNull();
    expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${lessonId}/complete`, { token: ann.token, body: {} })).status).toBe(409);

    const first = await api('POST', path, { token: ann.token, body: { text: 'My first draft.' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: 'submitted' });
    expect((await api('POST', path, { token: ann.token, body: { text: 'Again' } })).status).toBe(409);
    expect((await api('POST', path, { token: ann.token, body: {} })).status).toBe(400);

    // Strangers: a learner not enrolled, another creator.
    const stranger = await accountWithRole('learner', 'assign-stranger');
    const otherCreator = await accountWithRole('creator', 'assign-other');
    expect((await api('POST', path, { token: stranger.token, body: { text: 'Let me in' } })).status).toBe(404);
    expect((await api('GET', `/api/courses/${courseId}/submissions`, { token: otherCreator.token })).status).toBe(404);
    const firstId = (first.body as { id: string }).id;
    expect((await api('POST', `/api/submissions/${firstId}/grade`, { token: otherCreator.token, body: { status: 'passed' } })).status).toBe(404);

    const waiting = (await api('GET', `/api/courses/${courseId}/submissions?status=submitted`, { token: creator.token })).body as SubmissionList;
    expect(waiting.items.map((s) => [s.id, s.text, s.learnerEmail, s.lessonTitle])).toEqual([[firstId, 'My first draft.', ann.email, 'Essay']]);

    const revision = await api('POST', `/api/submissions/${firstId}/grade`, { token: creator.token, body: { status: 'needs_revision', feedback: 'Add a conclusion.' } });
    expect(revision.status).toBe(200);
    expect((revision.body as Submission).status).toBe('needs_revision');
    expect(((await api('GET', path, { token: ann.token })).body as MySubmissionAnswer).submission).toMatchObject({ status: 'needs_revision', feedback: 'Add a conclusion.' });
    await sendMail();
    const revisionMails = await mailsTo(ann.email);
    expect(revisionMails.map((m) => m.subject)).toEqual(['Your assignment needs a revision']);

    const second = await api('POST', path, { token: ann.token, body: { text: 'My second draft, with a conclusion.' } });
    expect(second.status).toBe(201);
    const secondId = (second.body as { id: string }).id;
    expect(((await api('GET', `/api/courses/${courseId}/submissions?status=needs_revision`, { token: creator.token })).body as SubmissionList).items).toEqual([]);
    expect((await api('POST', `/api/submissions/${firstId}/grade`, { token: creator.token, body: { status: 'passed' } })).status).toBe(409);

    const passed = await api('POST', `/api/submissions/${secondId}/grade`, { token: creator.token, body: { status: 'passed', feedback: 'Well argued.' } });
    expect(passed.status).toBe(200);
    const after = (await api('GET', `/api/learner/courses/${courseId}/lessons/${lessonId}`, { token: ann.token })).body as LearnerLesson;
    expect(after.completed).toBe(true);
    const outline = (await api('GET', `/api/learner/courses/${courseId}/outline`, { token: ann.token })).body as { progress: number; completedAt: string | null };
    expect(outline.progress).toBe(100);
    expect(outline.completedAt).not.toBeNull();
    await sendMail();
    expect((await mailsTo(ann.email)).map((m) => m.subject).sort()).toEqual(['Your assignment has passed', 'Your assignment needs a revision']);
    expect(((await api('GET', `/api/courses/${courseId}/submissions?status=passed`, { token: creator.token })).body as SubmissionList).items.map((s) => s.id)).toEqual([secondId]);
  });

  it('keeps every payload of the XSS corpus as typed, in the answer and in the feedback, and mails the feedback as text', async () => {
    const creator = await accountWithRole('creator', 'assign-xss-creator');
    const courseId = ((await api('POST', '/api/courses', { token: creator.token, body: { title: `Essays ${Date.now()}`, description: 'Hostile answers.' } })).body as { id: string }).id;
    const lessonId = (
      (await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Essay', kind: 'assignment', assignment: { instructions: 'Write.', acceptsFiles: false } } }))
        .body as { id: string }
    ).id;
    expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    const ann = await accountWithRole('learner', 'assign-xss-ann');
    expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: ann.email } })).status).toBe(201);
    const path = `/api/learner/courses/${courseId}/lessons/${lessonId}/submissions`;
    // The submit route's throttle (20 a second) may answer 429 to a fast machine's burst: waited out, as a client's retry would.
    const call = async (method: string, url: string, init: { token: string; body?: unknown }) => {
      for (;;) {
        const res = await api(method, url, init);
        if (res.status !== 429) return res;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    };

    // The payloads ten to an answer (a round trip each is a minute of requests), each answer also the creator's
    // feedback asking for a revision of it: the next answer takes its place.
    const answers: string[] = [];
    for (let i = 0; i < xssPayloads.length; i += 10) answers.push(xssPayloads.slice(i, i + 10).join('\n'));
    for (const answer of answers) {
      const handedIn = await call('POST', path, { token: ann.token, body: { text: answer } });
      expect(handedIn.status, answer).toBe(201);
      const id = (handedIn.body as { id: string }).id;
      const graded = await call('POST', `/api/submissions/${id}/grade`, { token: creator.token, body: { status: 'needs_revision', feedback: answer } });
      expect(graded.status, answer).toBe(200);
      expect(graded.body as Submission).toMatchObject({ text: answer, feedback: answer });
      const mine = ((await call('GET', path, { token: ann.token })).body as MySubmissionAnswer).submission;
      expect(mine).toMatchObject({ id, text: answer, feedback: answer });
      const queue = (await call('GET', `/api/courses/${courseId}/submissions?status=needs_revision`, { token: creator.token })).body as SubmissionList;
      expect(queue.items.map((s) => [s.id, s.text, s.feedback])).toEqual([[id, answer, answer]]);
    }

    // The emails quote the feedback escaped, as text: none of its elements or addresses survives as markup.
    await sendMail();
    const mails = await mailsTo(ann.email);
    expect(mails).toHaveLength(answers.length);
    // Line by line, as the creator wrote it, without control characters (the email's plain-text rule).
    const quoted = (answer: string) => escapeHtml(answer.split('\n').map(plainText).join('\n'));
    for (const answer of answers) expect(mails.some((m) => m.body.html?.includes(quoted(answer))), answer).toBe(true);
    for (const mail of mails) {
      expect(mail.body.html).not.toMatch(/<(img|svg|iframe|script|input|details|form|button|object|embed|math|style|base|meta|link|frame|template|noscript|textarea|xmp|noembed)\b/i);
      expect(mail.body.html).not.toMatch(/\s(on\w+|href|src|action|formaction)\s*=\s*"?\s*(javascript|data)/i);
    }
  });
});
