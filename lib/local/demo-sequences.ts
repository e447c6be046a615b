import { apiCaller, signInAs } from './demo-flows.ts';
import type { Outputs } from './outputs.ts';

/**
 * The demo creator's email sequences (issue 33 part 2): a welcome sequence for every new learner and an inactivity one
 * that brings back a learner who stopped for a week, made the way a creator makes them (`POST /api/sequences`). A
 * creator who has sequences already keeps them as they are (a restart adds none).
 */
export const demoSequences = [
  {
    name: 'Welcome',
    trigger: { kind: 'enrolled', courseId: null },
    steps: [
      { delayDays: 0, subject: 'Welcome to {{courseTitle}}', body: 'Hello {{learnerName}},\n\nWelcome to **{{courseTitle}}**! Start with the first lesson: it takes ten minutes.\n\nSee you inside.' },
      { delayDays: 3, subject: 'How is {{courseTitle}} going?', body: 'Hello {{learnerName}},\n\nA few days in: short, regular sessions work best. Reply to this email if anything is unclear.' },
    ],
    active: true,
  },
  {
    name: 'We miss you',
    trigger: { kind: 'inactive', courseId: null, days: 7 },
    steps: [{ delayDays: 0, subject: 'Pick up {{courseTitle}} where you left off', body: 'Hello {{learnerName}},\n\nYour place in **{{courseTitle}}** is saved. One lesson today keeps the momentum.' }],
    active: true,
  },
] as const;

export const seedDemoSequences = async ({ outputs, email, password, log }: { outputs: Outputs; email: string; password: string; log: (line: string) => void }): Promise<void> => {
  try {
    const call = apiCaller(outputs);
    const token = await signInAs(outputs, email, password);
    const existing = await call<{ items: unknown[] }>('GET', '/api/sequences', { token });
    if (existing.items.length > 0) return;
    for (const body of demoSequences) await call('POST', '/api/sequences', { token, body });
    log(`[seed] ${email} has a welcome sequence and an inactivity one`);
  } catch (error) {
    log(`[seed] WARNING: the demo sequences were not made: ${(error as Error)?.message ?? String(error)}`);
  }
};
