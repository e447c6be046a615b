import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoSendQuota, sendQuotaKeys } from '#data/send-quota.ts';
import { useLocalCloudEnv } from '../support.ts';
import { rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

describe("a trial creator's daily sends (DynamoDB Local)", () => {
  it('20 concurrent takes on a cap of 5: exactly 5 succeed, the day counts 5, and it expires two days after the day', async () => {
    const quota = dynamoSendQuota();
    const userId = unique('sender');
    const results = await Promise.all(Array.from({ length: 20 }, () => quota.take(userId, '2026-11-27', 5)));
    expect(results.filter(Boolean)).toHaveLength(5);
    expect(await rawItem(sendQuotaKeys.day(userId, '2026-11-27'))).toMatchObject({ type: 'SendQuota', sent: 5, expiresAt: Date.parse('2026-11-29T00:00:00.000Z') / 1000 });
    // Another day, or another creator, starts from nothing.
    expect(await quota.take(userId, '2026-11-28', 5)).toBe(true);
    expect(await quota.take(unique('other'), '2026-11-27', 5)).toBe(true);
  });
});
