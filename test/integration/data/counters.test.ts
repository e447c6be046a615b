import { beforeAll, describe, expect, it } from 'vitest';
import { countersUpdate, countNewUser } from '#data/counters.ts';
import { transact } from '#data/table.ts';
import { counters } from '../billing-support.ts';
import { useLocalCloudEnv } from '../support.ts';
import { unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

describe('the platform counters (DynamoDB Local)', () => {
  it('moves every counter by its delta in one write, up and down', async () => {
    const [up, down] = [unique('up').replaceAll('-', '_'), unique('down').replaceAll('-', '_')];
    expect(await transact(countersUpdate({ [up]: 3, [down]: 2 }))).toBeUndefined();
    expect(await transact(countersUpdate({ [up]: -1, [down]: -2 }))).toBeUndefined();
    const after = await counters();
    expect([after[up], after[down]]).toEqual([2, 0]);
  });

  it('writes nothing when nothing moves', () => {
    expect(countersUpdate({})).toEqual([]);
    expect(countersUpdate({ subs_active: 0 })).toEqual([]);
  });

  it('counts a new user in the total and in their role', async () => {
    const before = await counters();
    await transact(countNewUser('admin'));
    const after = await counters();
    expect(after['usersTotal']! - (before['usersTotal'] ?? 0)).toBe(1);
    expect(after['users_admin']! - (before['users_admin'] ?? 0)).toBe(1);
  });
});
