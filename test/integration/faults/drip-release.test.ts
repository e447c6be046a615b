import { afterEach, describe, expect, it } from 'vitest';
import type { DripDueDeps } from '#core/enrollments/drip-notices.ts';
import { LESSON_READY_SUBJECT } from '#core/enrollments/lesson-ready-email.ts';
import { MAIL_HOLD_MS } from '#core/mail/mail-queue.ts';
import { dynamoDripPlans } from '#data/drip-notices.ts';
import { work as dripWork } from '#functions/jobs/drip-due.ts';
import { work as mailSenderWork } from '#functions/jobs/mail-sender.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { mailsTo } from '../mail-support.ts';
import { accountWithRole, api, useLocalCloudEnv } from '../support.ts';
import { faults, injectedSince, report, sleep } from './support.ts';

/**
 * Drip release (issue 33 part 1, decision 0057) while the database fails: a lesson opens for a few learners and the
 * 'drip-due' job runs again and again through DynamoDB errors and a kill. Each learner's "A new lesson is ready" is
 * queued in the very transaction that marks their plan noticed, so once the database is back each gets it exactly once,
 * however many runs failed halfway or ran again. The job's runs here see this file's course only (the local cloud's own
 * every-minute run may take some first: the count holds all the same).
 */
afterEach(() => faults.recover());

const LEARNERS = 6;

describe('the drip-due job while the database fails', () => {
  it('emails each learner the lesson-ready notice exactly once', async () => {
    const creator = await accountWithRole('creator', 'fault-drip');
    const learners = await Promise.all(Array.from({ length: LEARNERS }, (_, i) => accountWithRole('learner', `fault-drip-${i}`)));
    const courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Dripped under faults' } })).body.id as string;
    await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Open now', kind: 'text', body: '<p>Hi</p>' } });
    const opensAt = new Date(Date.now() + 10_000).toISOString();
    const made = await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Soon', kind: 'text', body: '<p>Later</p>', release: { kind: 'date', at: opensAt } } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    for (const learner of learners) expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
    useLocalCloudEnv();

    const plans = dynamoDripPlans();
    const ours: Partial<DripDueDeps> = {
      plans: {
        ...plans,
        async due(now, limit, after) {
          const page = await plans.due(now, limit, after);
          return { ...page, items: page.items.filter((p) => p.courseId === courseId) };
        },
      },
    };
    const sweep = () => runToEnd('drip-due', (remainingMs) => dripWork(remainingMs, ours)).catch(() => undefined);
    await sleep(Math.max(0, Date.parse(opensAt) - Date.now()) + 500);

    const before = await faults.state();
    await faults.set('dynamodb', { error: 0.3, slow: 0.05 });
    await sweep();
    const during = sweep();
    await sleep(200);
    await faults.outage('kill', 300);
    await during;
    for (let run = 0; run < 3; run++) await sweep();
    const injected = await injectedSince(before);
    await faults.clear();

    // Recovered: the job until nothing of ours is due (nothing failed), then the sender until each email went.
    for (let run = 0; run < 10; run++) {
      const outcome = await sweep();
      if (outcome && (outcome.counts['failed'] ?? 0) === 0) break;
    }
    const emailed = () => Promise.all(learners.map(async (learner) => (await mailsTo(learner.email)).filter((m) => m.subject === LESSON_READY_SUBJECT).length));
    const giveUpAt = Date.now() + MAIL_HOLD_MS + 5_000;
    for (;;) {
      await runToEnd('mail-sender', mailSenderWork);
      if ((await emailed()).every((n) => n > 0) || Date.now() > giveUpAt) break;
      await sleep(1_000);
    }
    // And again: nothing is due any more, nothing goes twice.
    await sweep();
    await runToEnd('mail-sender', mailSenderWork);
    await sleep(2_000);
    const sent = await emailed();
    report({
      path: `drip release (${LEARNERS} learners' lesson-ready emails)`,
      injected,
      database: '30% errors, 5% slow, killed and restarted',
      lost: sent.filter((n) => n === 0).length,
      doubled: sent.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
      recoveryMs: null,
    });
    expect(sent, 'the lesson-ready email once each').toEqual(learners.map(() => 1));
    expect(injected['dynamodb']!.error, 'the database failed calls').toBeGreaterThan(0);
  }, 240_000);
});
