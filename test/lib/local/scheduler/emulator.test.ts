import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rateMs, schedulerEvent } from '#lib/local/scheduler/emulator.ts';

describe('the scheduler emulation', () => {
  it('reads EventBridge rate expressions', () => {
    expect(rateMs('rate(1 hour)')).toBe(3_600_000);
    expect(rateMs('rate(5 minutes)')).toBe(300_000);
    expect(rateMs('rate(2 days)')).toBe(172_800_000);
    expect(rateMs('cron(0 0 1 * ? *)')).toBeUndefined();
  });

  it('hands jobs the same event shape as the sample in events/', () => {
    const sample = JSON.parse(readFileSync('events/scheduler-credit-reset.json', 'utf8')) as Record<string, unknown>;
    const event = schedulerEvent({ name: 'credit-reset' }, new Date('2026-12-01T00:00:00.000Z'));
    expect(Object.keys(event).sort()).toEqual(Object.keys(sample).sort());
    expect(event).toMatchObject({ time: '2026-12-01T00:00:00Z', source: 'aws.scheduler', resources: sample.resources });
  });
});
