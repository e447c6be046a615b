import { describe, expect, it } from 'vitest';
import { getMe } from '#core/accounts/get-me.ts';
import { NotFoundError } from '#core/errors.ts';
import { memoryUsers } from '#test/functions/fakes/users.ts';

describe('reading my profile', () => {
  it('returns the stored profile', async () => {
    const users = memoryUsers([{ id: 'u1', email: 'a@example.com', role: 'admin', createdAt: '2026-01-01T00:00:00.000Z' }]);
    expect(await getMe({ users }, { userId: 'u1' })).toEqual({ id: 'u1', email: 'a@example.com', role: 'admin', createdAt: '2026-01-01T00:00:00.000Z' });
  });

  it('is NOT_FOUND when the profile is missing', async () => {
    await expect(getMe({ users: memoryUsers() }, { userId: 'nobody' })).rejects.toThrow(NotFoundError);
  });
});
