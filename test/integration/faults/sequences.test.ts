import { afterEach, describe, expect, it } from 'vitest';
import type { SequenceStats } from '#contracts/sequences.ts';
import type { SequenceSenderDeps } from '#core/sequences/sender.ts';
import { MAIL_HOLD_MS } from '#core/mail/mail-queue.ts';
import { dynamoSequenceEntries } from '#data/sequences.ts';
import { work as mailSenderWork } from '#functions/jobs/mail-sender.ts';
import { work as sequenceSenderWork } from '#functions/jobs/sequence-sender.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { mailsTo } from '../mail-support.ts';
import { accountWithRole, api, eventually, useLocalCloudEnv } from '../support.ts';
import { faults, injectedSince, report, sleep } from './support.ts';

/**
 * Email sequences (issue 33 part 2) while the database fails: a two-step sequence enters a few learners and the
 * 'sequence-sender' job runs again and again through DynamoDB errors and a kill, first on the day the learners enrolled,
 * then two days on (its clock moved; the steps it queues are due now in real time, so the mail sender need not wait a
 * day). A step's email is queued in the very transaction that moves the entry on, conditional on the entry as read,
 * so once the database is back each learner has each step exactly once, however many runs failed halfway or ran
 * again. The job's runs here see this file's sequence only (the local cloud's own every-minute run may send its day-0
 * step first: the count holds all the same).
 */
afterEach(() => faults.recover());

const LEARNERS = 6;
const DAY = 86_400_000;

describe('the sequence sender while the database fails', () => {
  it('emails each learner each step exactly once', async () => {
    const creator = await accountWithRole('creator', 'fault-seq');
    const learners = await Promise.all(Array.from({ length: LEARNERS }, (_, i) => accountWithRole('learner', `fault-seq-${i}`)));
    const token = creator.token;
    const courseId = (await api('POST', '/api/courses', { token, body: { title: `Sequenced under faults ${Date.now()}` } })).body.id as string;
    const made = await api('POST', '/api/sequences', {
      token,
      body: {
        name: 'Welcome under faults',
        trigger: { kind: 'enrolled', courseId },
        steps: [
          { delayDays: 0, subject: 'Faulty welcome to {{courseTitle}}', body: 'Hello.' },
          { delayDays: 2, subject: 'Faulty day two of {{courseTitle}}', body: 'Still here?' },
        ],
        active: true,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const sequenceId = made.body.id as string;
    for (const learner of learners) expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token, body: { email: learner.email } })).status).toBe(201);
    useLocalCloudEnv();
    const entries = dynamoSequenceEntries();
    // The stream enters them (the local poller, within seconds), before any fault: each has an entry due within 3 days.
    const ours = async () => {
      let count = 0;
      let cursor: string | undefined;
      do {
        const page = await entries.due(new Date(Date.now() + 3 * DAY).toISOString(), 100, cursor);
        count += page.items.filter((e) => e.sequenceId === sequenceId).length;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return count;
    };
    await eventually(ours, (n) => n >= LEARNERS, 60_000);

    const asOf = (ms: number): Partial<SequenceSenderDeps> => ({
      clock: { now: () => new Date(Date.now() + ms) },
      startSender: async () => undefined,
      entries: {
        ...entries,
        async due(now, limit, after) {
          const page = await entries.due(now, limit, after);
          return { ...page, items: page.items.filter((e) => e.sequenceId === sequenceId) };
        },
        // Due now in real time, as it would be had the days passed (the mail sender has no clock to move).
        advance: (entry, next) => entries.advance(entry, { ...next, mail: { ...next.mail, queuedAt: new Date().toISOString(), dueAt: new Date().toISOString() } }),
      },
    });
    const sweep = (ms: number) => runToEnd('sequence-sender', (remaining) => sequenceSenderWork(remaining, asOf(ms))).catch(() => undefined);
    const sent = (prefix: string) => Promise.all(learners.map(async (l) => (await mailsTo(l.email)).filter((m) => m.subject.startsWith(prefix)).length));
    const deliver = async (prefix: string) => {
      const giveUpAt = Date.now() + MAIL_HOLD_MS + 5_000;
      for (;;) {
        await runToEnd('mail-sender', mailSenderWork);
        if ((await sent(prefix)).every((n) => n > 0) || Date.now() > giveUpAt) break;
        await sleep(1_000);
      }
    };

    const before = await faults.state();
    for (const ms of [0, 2 * DAY + 60_000]) {
      await faults.set('dynamodb', { error: 0.3, slow: 0.05 });
      await sweep(ms);
      const during = sweep(ms);
      await sleep(200);
      await faults.outage('kill', 300);
      await during;
      for (let run = 0; run < 3; run++) await sweep(ms);
      await faults.clear();
      // Recovered: the job until nothing of ours fails, then the sender until each email went.
      for (let run = 0; run < 10; run++) {
        const outcome = await sweep(ms);
        if (outcome && (outcome.counts['failed'] ?? 0) === 0) break;
      }
    }
    const injected = await injectedSince(before);
    await deliver('Faulty welcome to');
    await deliver('Faulty day two of');
    // And again: nothing is due any more, nothing goes twice.
    await sweep(2 * DAY + 120_000);
    await runToEnd('mail-sender', mailSenderWork);
    await sleep(2_000);
    const welcomes = await sent('Faulty welcome to');
    const dayTwos = await sent('Faulty day two of');
    report({
      path: `email sequences (${LEARNERS} learners × 2 steps)`,
      injected,
      database: '30% errors, 5% slow, killed and restarted (twice)',
      lost: [...welcomes, ...dayTwos].filter((n) => n === 0).length,
      doubled: [...welcomes, ...dayTwos].reduce((sum, n) => sum + Math.max(0, n - 1), 0),
      recoveryMs: null,
    });
    expect(welcomes, 'the day-0 step once each').toEqual(learners.map(() => 1));
    expect(dayTwos, 'the day-2 step once each').toEqual(learners.map(() => 1));
    expect(((await api('GET', `/api/sequences/${sequenceId}/stats`, { token })).body as SequenceStats).sent, 'the stats count each send once').toEqual([LEARNERS, LEARNERS]);
    expect(injected['dynamodb']!.error, 'the database failed calls').toBeGreaterThan(0);
  }, 300_000);
});
