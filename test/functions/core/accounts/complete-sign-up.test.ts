import { describe, expect, it } from 'vitest';
import { completeSignUp } from '#core/accounts/complete-sign-up.ts';
import { testClock } from '#test/functions/fakes/clock.ts';
import { memoryMetrics } from '#test/functions/fakes/metrics.ts';
import { memoryDirectory, memoryUsers } from '#test/functions/fakes/users.ts';

const deps = () => ({ users: memoryUsers(), directory: memoryDirectory(), clock: testClock(), metrics: memoryMetrics() });
const confirmed = { source: 'PostConfirmation_ConfirmSignUp', userId: 'u1', username: 'u1-name', email: 'a@example.com' };

describe('completing a sign-up', () => {
  it('writes a creator profile, counts the new user and puts them in the creator group', async () => {
    const d = deps();
    expect(await completeSignUp(d, confirmed)).toEqual({ created: true });
    expect(await d.users.getUser('u1')).toEqual({ id: 'u1', email: 'a@example.com', role: 'creator', createdAt: '2026-11-21T12:00:00.000Z' });
    expect(d.users.counters).toEqual({ usersTotal: 1, users_creator: 1 });
    expect(d.directory.accounts.get('u1-name')?.groups).toEqual(['creator']);
    expect(d.metrics.recorded).toEqual([{ metric: 'SignUp', value: 1 }]);
  });

  it('changes nothing when the trigger comes from a confirmed password reset', async () => {
    const d = deps();
    expect(await completeSignUp(d, { ...confirmed, source: 'PostConfirmation_ConfirmForgotPassword' })).toEqual({ created: false });
    expect(d.users.all()).toEqual([]);
    expect(d.directory.accounts.size).toBe(0);
    expect(d.metrics.recorded).toEqual([]);
  });

  it('keeps one profile and counts one sign-up when the trigger is delivered twice, re-applying the group', async () => {
    const d = deps();
    await completeSignUp(d, confirmed);
    expect(await completeSignUp(d, confirmed)).toEqual({ created: false });
    expect(d.users.all()).toHaveLength(1);
    expect(d.users.counters['usersTotal']).toBe(1);
    expect(d.directory.accounts.get('u1-name')?.groups).toEqual(['creator']);
    expect(d.directory.calls('addToGroup')).toBe(2);
    expect(d.metrics.total('SignUp')).toBe(1);
  });

  it('fails (so Cognito retries the trigger) when the profile store fails, putting nobody in a group', async () => {
    const d = deps();
    d.users.before('createUser', () => {
      throw new Error('ProvisionedThroughputExceeded');
    });
    await expect(completeSignUp(d, confirmed)).rejects.toThrow('ProvisionedThroughputExceeded');
    expect(d.directory.accounts.size).toBe(0);
    expect(d.metrics.recorded).toEqual([]);
  });
});
