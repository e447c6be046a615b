import { afterEach, describe, expect, it } from 'vitest';
import { work as mailSenderWork } from '#functions/jobs/mail-sender.ts';
import { work as issuerWork } from '#functions/jobs/certificate-issuer.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { QUIZ_PASSED_ALREADY } from '#core/enrollments/quiz-attempts.ts';
import { MAIL_HOLD_MS } from '#core/mail/mail-queue.ts';
import { mailsTo } from '../mail-support.ts';
import { accountWithRole, api, useLocalCloudEnv } from '../support.ts';
import { expectCleanFailures, faults, injectedSince, post, recoveryMs, report, sleep, untilSettled } from './support.ts';

/**
 * Issue 16: 10 learners pass a course's final quiz while the database fails calls and SES refuses most sends; the
 * certificate job runs again and again meanwhile (as its schedule runs it), and the database is killed during one of
 * its runs. After recovery: each learner holds exactly one certificate, counted once in the creator's figures, and
 * gets its email exactly once (written with the certificate; due again for the sender job while SES refused it).
 */
afterEach(() => faults.recover());

const LEARNERS = 10;
const TITLE = 'Storm drills';

describe('certificates while the database and SES fail', () => {
  it('issues one certificate per learner and emails each once', async () => {
    const creator = await accountWithRole('creator', 'fault-cert-creator');
    const learners = await Promise.all(Array.from({ length: LEARNERS }, (_, i) => accountWithRole('learner', `fault-cert-learner-${i}`)));
    const courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: TITLE, description: 'Practise before it rains.' } })).body.id as string;
    const quiz = { passPercent: 100, questions: [{ prompt: 'Shelter first?', type: 'single', options: ['Yes', 'No'], correct: [0] }] };
    const lessonId = (await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Drill', kind: 'quiz', quiz } })).body.id as string;
    await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } });
    for (const learner of learners) expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
    useLocalCloudEnv();
    const issue = () => runToEnd('certificate-issuer', issuerWork).catch(() => undefined);

    const before = await faults.state();
    await faults.set('dynamodb', { error: 0.15 });
    await faults.set('ses', { error: 0.7 });
    const passing = Promise.all(
      learners.map(async (learner, i) => {
        await sleep(i * 100);
        return untilSettled(post(`/api/learner/courses/${courseId}/lessons/${lessonId}/attempts`, { answers: [[0]] }, { authorization: `Bearer ${learner.token}` }));
      }),
    );
    await issue();
    const during = issue();
    await sleep(300);
    const returnedAt = await faults.outage('kill', 300);
    await during;
    const settled = await passing;
    for (let run = 0; run < 3; run++) await issue();
    const injected = await injectedSince(before);
    await faults.clear();
    expectCleanFailures(settled, 10_000);
    for (const s of settled) {
      // A retry whose first try passed (its answer lost) finds the quiz passed: the lesson is complete either way.
      const passed = s.status === 200 || (s.status === 409 && (s.body as { error: { message: string } }).error.message === QUIZ_PASSED_ALREADY);
      expect(passed, JSON.stringify(s.body)).toBe(true);
    }

    // Recovered: the job runs until nothing is due (a run can leave a learner to the next when the local cloud's own
    // every-minute run takes the same one at the same moment), then the sender sends what SES refused.
    for (let run = 0; run < 10; run++) {
      const outcome = await issue();
      if (outcome && (outcome.counts['failed'] ?? 0) === 0) break;
    }
    // An email whose send failed and whose return to the queue failed too (the database down) is due again when its
    // hold ends: the sender runs until each learner has theirs, or that time has passed.
    const emailed = async () => Promise.all(learners.map(async (learner) => (await mailsTo(learner.email)).filter((m) => m.subject === 'Your certificate from Course Platform' && (m.body.text ?? '').includes(TITLE)).length));
    const giveUpAt = Date.now() + MAIL_HOLD_MS + 5_000;
    for (;;) {
      await runToEnd('mail-sender', mailSenderWork);
      if ((await emailed()).every((n) => n > 0) || Date.now() > giveUpAt) break;
      await sleep(1_000);
    }
    const held = await Promise.all(
      learners.map(async (learner) => ((await api('GET', '/api/learner/certificates', { token: learner.token })).body.items as { courseId: string }[]).filter((c) => c.courseId === courseId).length),
    );
    const sent = await emailed();
    const counted = (await api('GET', '/api/creator/stats', { token: creator.token })).body.certificates as number;
    report({
      path: `certificates (${LEARNERS} learners) and their emails`,
      injected,
      database: '15% errors, killed and restarted',
      lost: held.filter((n) => n === 0).length + sent.filter((n) => n === 0).length + Math.max(0, LEARNERS - counted),
      doubled: held.reduce((sum, n) => sum + Math.max(0, n - 1), 0) + sent.reduce((sum, n) => sum + Math.max(0, n - 1), 0) + Math.max(0, counted - LEARNERS),
      recoveryMs: recoveryMs(settled, returnedAt),
    });
    expect(held, 'one certificate each').toEqual(learners.map(() => 1));
    expect(counted, "counted once each in the creator's figures").toBe(LEARNERS);
    expect(sent, 'its email once each').toEqual(learners.map(() => 1));
    expect(injected['ses']!.error, 'SES refused sends').toBeGreaterThan(0);
  }, 240_000);
});
