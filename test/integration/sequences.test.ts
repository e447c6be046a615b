import { describe, expect, it } from 'vitest';
import type { SequenceStats, SequenceView } from '#contracts/sequences.ts';
import { work as mailSenderWork } from '#functions/jobs/mail-sender.ts';
import { work as sequenceSenderWork } from '#functions/jobs/sequence-sender.ts';
import { dynamoSequenceEntries } from '#data/sequences.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { header, mailsTo } from './mail-support.ts';
import { accountWithRole, api, eventually, outputs, useLocalCloudEnv } from './support.ts';

/**
 * Email sequences end to end (issue 33 part 2): the gateway, the stream reaction that enters learners (the local
 * poller), the 'sequence-sender' job run here with a clock moved days ahead (the due index is read as of that moment:
 * no test waits a day), the mail sender, and SES local's store.
 */
const DAY = 86_400_000;
const aheadBy = (ms: number) => ({ now: () => new Date(Date.now() + ms) });

/**
 * The sequence sender as of `ms` from now, then the mail sender (on the real clock), each to its end. The steps it
 * queues are due now in real time, as they would be had the days passed (the mail sender has no clock to move).
 */
const sendAsOf = async (ms: number) => {
  useLocalCloudEnv();
  const entries = dynamoSequenceEntries();
  const realTime = { ...entries, advance: (entry: Parameters<typeof entries.advance>[0], next: Parameters<typeof entries.advance>[1]) => entries.advance(entry, { ...next, mail: { ...next.mail, queuedAt: new Date().toISOString(), dueAt: new Date().toISOString() } }) };
  await runToEnd('sequence-sender', (remaining) => sequenceSenderWork(remaining, { clock: aheadBy(ms), entries: realTime, startSender: async () => undefined }));
  await runToEnd('mail-sender', mailSenderWork);
};

describe('email sequences', () => {
  it('email a newly enrolled learner at day 0 once, an inactive learner once, and stop for a learner who unsubscribed', async () => {
    const creator = await accountWithRole('creator', 'seq-creator');
    const token = creator.token;
    const course = (await api('POST', '/api/courses', { token, body: { title: `Glazing ${Date.now()}`, description: 'Sequences.' } })).body as { id: string };
    const welcome = await api('POST', '/api/sequences', {
      token,
      body: {
        name: 'Welcome',
        trigger: { kind: 'enrolled', courseId: course.id },
        steps: [
          { delayDays: 0, subject: 'Welcome to {{courseTitle}}', body: 'Hello {{learnerName}}, *welcome*.' },
          { delayDays: 2, subject: 'Day two of {{courseTitle}}', body: 'Still here?' },
        ],
        active: true,
      },
    });
    expect(welcome.status).toBe(201);
    const nudge = await api('POST', '/api/sequences', {
      token,
      body: { name: 'Nudge', trigger: { kind: 'inactive', courseId: course.id, days: 5 }, steps: [{ delayDays: 0, subject: 'We miss you in {{courseTitle}}', body: 'Come back.' }], active: true },
    });
    expect(nudge.status).toBe(201);
    const welcomeId = (welcome.body as SequenceView).id;

    const ann = await accountWithRole('learner', 'seq-ann');
    const bob = await accountWithRole('learner', 'seq-bob');
    for (const learner of [ann, bob]) expect((await api('POST', `/api/courses/${course.id}/enrollments`, { token, body: { email: learner.email } })).status).toBe(201);

    // The stream enters them (the local poller, within seconds); the day-0 step goes once, however often the job runs.
    const welcomeMails = (email: string) => mailsTo(email).then((mails) => mails.filter((m) => m.subject.startsWith('Welcome to Glazing')));
    await eventually(
      async () => {
        await sendAsOf(0);
        return (await welcomeMails(ann.email)).length + (await welcomeMails(bob.email)).length;
      },
      (n) => n >= 2,
      60_000,
    );
    await sendAsOf(0);
    expect(await welcomeMails(ann.email)).toHaveLength(1);
    expect(await welcomeMails(bob.email)).toHaveLength(1);
    const [first] = await welcomeMails(ann.email);
    expect(first!.body.html).toContain('<em>welcome</em>');
    expect(header(first!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const link = /^<(https?:\/\/[^>]+)>$/.exec(header(first!, 'List-Unsubscribe') ?? '')?.[1];
    expect(link).toContain('/api/unsubscribe?token=');

    // Ann unsubscribes from this creator's emails (one click): her day-2 step does not go; Bob's does, once.
    const path = new URL(link!).pathname + new URL(link!).search;
    const oneClick = await fetch(`${outputs().ApiUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(oneClick.status).toBe(200);
    await sendAsOf(2 * DAY + 60_000);
    await sendAsOf(2 * DAY + 120_000);
    const dayTwo = (email: string) => mailsTo(email).then((mails) => mails.filter((m) => m.subject.startsWith('Day two of Glazing')));
    expect(await dayTwo(bob.email)).toHaveLength(1);
    expect(await dayTwo(ann.email)).toHaveLength(0);

    // Five days without activity: Bob is nudged once; Ann, unsubscribed, is not.
    await sendAsOf(5 * DAY + 60_000);
    await sendAsOf(6 * DAY);
    const nudges = (email: string) => mailsTo(email).then((mails) => mails.filter((m) => m.subject.startsWith('We miss you in Glazing')));
    expect(await nudges(bob.email)).toHaveLength(1);
    expect(await nudges(ann.email)).toHaveLength(0);

    const stats = (await api('GET', `/api/sequences/${welcomeId}/stats`, { token })).body as SequenceStats;
    expect(stats).toEqual({ entered: 2, sent: [2, 1], unsubscribed: 1 });
  }, 180_000);
});
