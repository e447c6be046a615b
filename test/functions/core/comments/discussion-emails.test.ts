import { describe, expect, it } from 'vitest';
import { getDiscussionEmails, saveDiscussionEmails } from '#core/comments/discussion-emails.ts';
import { NotFoundError } from '#core/errors.ts';
import type { User } from '#core/ports.ts';

const creator: User = { id: 'c1', email: 'cat@example.com', role: 'creator', createdAt: '2026-01-01T00:00:00.000Z' };

const deps = (user: User | undefined) => {
  const saved: boolean[] = [];
  return {
    saved,
    deps: {
      users: { getUser: async (id: string) => (user && id === user.id ? user : undefined) },
      setCommentDigest: async (_id: string, on: boolean) => {
        if (!user) return false;
        saved.push(on);
        return true;
      },
    },
  };
};

describe("the creator's discussion emails", () => {
  it('reads the digest as on until the creator turns it off', async () => {
    expect(await getDiscussionEmails(deps(creator).deps, 'c1')).toEqual({ commentDigest: true });
    expect(await getDiscussionEmails(deps({ ...creator, commentDigest: false }).deps, 'c1')).toEqual({ commentDigest: false });
    expect(await getDiscussionEmails(deps({ ...creator, commentDigest: true }).deps, 'c1')).toEqual({ commentDigest: true });
  });

  it('saves the choice as sent, and 404 without a profile', async () => {
    const { deps: d, saved } = deps(creator);
    expect(await saveDiscussionEmails(d, 'c1', { commentDigest: false })).toEqual({ commentDigest: false });
    expect(saved).toEqual([false]);
    await expect(saveDiscussionEmails(deps(undefined).deps, 'c1', { commentDigest: true })).rejects.toBeInstanceOf(NotFoundError);
    await expect(getDiscussionEmails(deps(undefined).deps, 'c1')).rejects.toBeInstanceOf(NotFoundError);
  });
});
