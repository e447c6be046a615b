import { describe, expect, it } from 'vitest';
import { followReferral } from '#core/affiliates/affiliates.ts';
import type { StoredAffiliate } from '#core/ports.ts';
import { memoryAffiliates } from '#test/functions/fakes/affiliates.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
import { memoryVisitMarks } from '#test/functions/fakes/visits.ts';

const ali: StoredAffiliate = {
  id: 'a1', creatorId: 'u1', code: 'AAAA2222', name: 'Ali', email: 'ali@example.com', commissionPercent: 25, cookieDays: 30, holdDays: 30,
  clicks: 0, sales: 0, pending: 0, approved: 0, paid: 0, clawedBack: 0, createdAt: '2026-11-01T00:00:00.000Z',
};

const world = async () => {
  const affiliates = memoryAffiliates();
  await affiliates.create(ali, { to: ali.email } as never);
  const d = { affiliates, clock: testClock('2026-11-25T10:00:00.000Z'), ids: sequentialIds('click'), appOrigin: APP_ORIGIN, visits: memoryVisitMarks() };
  const clicks = async () => (await affiliates.get('u1', 'a1'))!.clicks;
  return { d, affiliates, clicks };
};

describe("an affiliate link's clicks", () => {
  const visitor = { ip: '203.0.113.7', userAgent: 'Firefox' };

  it('count once per visitor a day: 20 follows by one visitor count 1, another visitor 2; every follow still gets its ref', async () => {
    const { d, affiliates, clicks } = await world();
    const refs = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const { cookie } = await followReferral(d, { code: ali.code, to: '/c/c1', visitor });
      refs.add(cookie!);
    }
    expect(await clicks()).toBe(1);
    expect(affiliates.platform['affiliate_clicks']).toBe(1);
    // Each follow is a real click record behind its own ref (the checkout looks it up).
    expect(refs.size).toBe(20);
    expect(await affiliates.click('click-20')).toMatchObject({ code: ali.code });

    await followReferral(d, { code: ali.code, to: '/c/c1', visitor: { ip: '198.51.100.4', userAgent: 'Firefox' } });
    expect(await clicks()).toBe(2);
  });

  it('count the same visitor again on another day', async () => {
    const { d, clicks } = await world();
    await followReferral(d, { code: ali.code, to: '/c/c1', visitor });
    await followReferral({ ...d, clock: testClock('2026-11-26T10:00:00.000Z') }, { code: ali.code, to: '/c/c1', visitor });
    expect(await clicks()).toBe(2);
  });
});
