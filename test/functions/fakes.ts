import type { Role } from '#contracts/common.ts';
import { ConflictError } from '#core/errors.ts';
import type { Clock, Directory, User, UserRepository } from '#core/ports.ts';

/** In-memory fakes of core's ports, for unit tests of core only. */
export const fixedClock = (iso = '2026-11-21T12:00:00.000Z'): Clock => ({ now: () => new Date(iso) });

export const memoryUsers = (initial: User[] = []) => {
  const byId = new Map(initial.map((u) => [u.id, u]));
  const repo: UserRepository & { all(): User[] } = {
    async getUser(id) {
      return byId.get(id);
    },
    async getUserIdByEmail(email) {
      return [...byId.values()].find((u) => u.email === email.toLowerCase())?.id;
    },
    async createUser(user) {
      if (byId.has(user.id) || [...byId.values()].some((u) => u.email === user.email)) {
        throw new ConflictError(`An account with ${user.email} already exists.`);
      }
      byId.set(user.id, user);
    },
    all: () => [...byId.values()],
  };
  return repo;
};

export const memoryDirectory = () => {
  const accounts = new Map<string, { id: string; password?: string; temporaryPassword?: string; groups: Role[] }>();
  let next = 1;
  const directory: Directory & { accounts: typeof accounts } = {
    accounts,
    async createAccount({ email, password, temporaryPassword }) {
      if (accounts.has(email)) throw new ConflictError(`An account with ${email} already exists.`);
      const id = `sub-${next++}`;
      accounts.set(email, {
        id,
        groups: [],
        ...(password ? { password } : {}),
        ...(temporaryPassword ? { temporaryPassword } : {}),
      });
      return { id, username: email };
    },
    async addToGroup(username, role) {
      const account = accounts.get(username) ?? { id: username, groups: [] };
      if (!account.groups.includes(role)) account.groups.push(role);
      accounts.set(username, account);
    },
  };
  return directory;
};
