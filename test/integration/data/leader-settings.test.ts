import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoLeaderSettings } from '#data/leader-settings.ts';
import { useLocalCloudEnv } from '../support.ts';
import { unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const AT = '2026-11-26T10:00:00.000Z';

describe('dynamoLeaderSettings', () => {
  it('saves the profile and the choice, keeping the week claimed; the unsubscribe turns the email off and keeps the rest', async () => {
    const repo = dynamoLeaderSettings();
    const leaderId = unique('leader');
    expect(await repo.get(leaderId)).toBeUndefined();
    expect(await repo.save({ leaderId, name: 'Dana', organization: 'Acme', weeklyReport: true, updatedAt: AT })).toEqual({ leaderId, name: 'Dana', organization: 'Acme', weeklyReport: true, updatedAt: AT });
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-23')).toBe(true);
    const saved = await repo.save({ leaderId, name: 'Dana Lee', organization: 'Acme', weeklyReport: true, updatedAt: AT });
    expect(saved).toMatchObject({ name: 'Dana Lee', lastWeeklyReport: '2026-11-23' });
    await repo.stopWeeklyReport(leaderId, AT);
    expect(await repo.get(leaderId)).toMatchObject({ name: 'Dana Lee', organization: 'Acme', weeklyReport: false });
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-30')).toBe(false);
  });

  it('claims a week once, for a leader who never saved settings too, and gives it back only for that week', async () => {
    const repo = dynamoLeaderSettings();
    const leaderId = unique('leader');
    const claims = await Promise.all(Array.from({ length: 5 }, () => repo.claimWeeklyReport(leaderId, '2026-11-23')));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await repo.get(leaderId)).toMatchObject({ leaderId, name: '', organization: '', weeklyReport: true, lastWeeklyReport: '2026-11-23' });
    await repo.releaseWeeklyReport(leaderId, '2026-11-16');
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-23')).toBe(false);
    await repo.releaseWeeklyReport(leaderId, '2026-11-23');
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-23')).toBe(true);
    expect(await repo.claimWeeklyReport(leaderId, '2026-11-30')).toBe(true);
  });
});
