import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoLeaderSettings } from '#data/leader-settings.ts';
import { useLocalCloudEnv } from '../support.ts';
import { unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const AT = '2026-11-26T10:00:00.000Z';
const LATER = '2026-11-26T10:15:00.000Z';
const held = (run: string, now = AT) => ({ run, now, until: LATER });

describe('dynamoLeaderSettings', () => {
  it('saves the profile and the choice, keeping the week sent; the unsubscribe turns the email off and keeps the rest', async () => {
    const repo = dynamoLeaderSettings();
    const leaderId = unique('leader');
    expect(await repo.get(leaderId)).toBeUndefined();
    expect(await repo.save({ leaderId, name: 'Dana', organization: 'Acme', weeklyReport: true, updatedAt: AT })).toEqual({ leaderId, name: 'Dana', organization: 'Acme', weeklyReport: true, updatedAt: AT });
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-23', held('run-1'))).toBe(true);
    await repo.completeWeeklyReport(leaderId, '2026-11-23');
    const saved = await repo.save({ leaderId, name: 'Dana Lee', organization: 'Acme', weeklyReport: true, updatedAt: AT });
    expect(saved).toMatchObject({ name: 'Dana Lee', lastWeeklyReport: '2026-11-23' });
    await repo.stopWeeklyReport(leaderId, AT);
    expect(await repo.get(leaderId)).toMatchObject({ name: 'Dana Lee', organization: 'Acme', weeklyReport: false });
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-30', held('run-2'))).toBe(false);
  });

  it('holds a week for one run at a time (for a leader who never saved settings too), again for that run, gives it back only for that week, never again once sent', async () => {
    const repo = dynamoLeaderSettings();
    const leaderId = unique('leader');
    const claims = await Promise.all(Array.from({ length: 5 }, (_, i) => repo.claimWeeklyReport(leaderId, '2026-11-23', held(`run-${i}`))));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const holder = `run-${claims.indexOf(true)}`;
    const other = holder === 'run-0' ? 'run-1' : 'run-0';
    expect(await repo.get(leaderId)).toMatchObject({ leaderId, name: '', organization: '', weeklyReport: true });
    // The holder's slice retried after a kill takes it again; another run only once the hold has ended.
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-23', held(holder))).toBe(true);
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-23', held(other))).toBe(false);
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-23', held(other, '2026-11-26T10:16:00.000Z'))).toBe(true);
    await repo.releaseWeeklyReport(leaderId, '2026-11-16');
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-23', held(holder))).toBe(false);
    await repo.releaseWeeklyReport(leaderId, '2026-11-23');
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-23', held(holder))).toBe(true);
    await repo.completeWeeklyReport(leaderId, '2026-11-23');
    expect(await repo.get(leaderId)).toMatchObject({ lastWeeklyReport: '2026-11-23' });
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-23', held(holder))).toBe(false);
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-30', held(holder))).toBe(true);
  });
});
