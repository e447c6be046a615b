import type { Role } from '#contracts/common.ts';
import type { AuditLine } from '#core/audit-line.ts';
import { ConflictError } from '#core/errors.ts';
import type { Directory, User, UserRepository } from '#core/ports.ts';
import { copy, withHooks } from './hooks.ts';

/**
 * Profiles with the rules of functions/data/users.ts: an id and an email (case-insensitive) are taken once, and the
 * platform counters move with each new profile; an admin's audit line is kept (in `audit`) only with a write that happened.
 */
export const memoryUsers = (initial: User[] = []) => {
  const byId = new Map<string, User>();
  const byEmail = new Map<string, string>();
  const counters: Record<string, number> = {};
  const audit: AuditLine[] = [];
  const add = (user: User) => {
    byId.set(user.id, copy(user));
    byEmail.set(user.email.toLowerCase(), user.id);
    for (const name of ['usersTotal', `users_${user.role}`]) counters[name] = (counters[name] ?? 0) + 1;
  };
  for (const user of initial) add(user);
  const repo = withHooks<UserRepository>({
    async getUser(id) {
      const user = byId.get(id);
      return user && copy(user);
    },
    async getUsers(ids) {
      return [...new Set(ids)].flatMap((id) => (byId.has(id) ? [copy(byId.get(id)!)] : []));
    },
    async getUserIdByEmail(email) {
      return byEmail.get(email.toLowerCase());
    },
    async createUser(user, options) {
      if (byId.has(user.id) || byEmail.has(user.email.toLowerCase())) throw new ConflictError(`An account with ${user.email} already exists.`);
      add(user);
      if (options?.audit) audit.push(copy(options.audit));
    },
    async listByRole(role, cursor, limit) {
      const all = [...byId.values()].filter((u) => u.role === role).sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
      const from = cursor ? Number(cursor) : 0;
      return { items: all.slice(from, from + limit).map(copy), nextCursor: from + limit < all.length ? String(from + limit) : null };
    },
    async changeRole(id, from, to, line) {
      const user = byId.get(id);
      if (!user || user.role !== from || from === to) return;
      user.role = to;
      if (line) audit.push(copy(line));
      counters[`users_${from}`] = (counters[`users_${from}`] ?? 0) - 1;
      counters[`users_${to}`] = (counters[`users_${to}`] ?? 0) + 1;
    },
    async setDisabled(id, disabled, line) {
      const user = byId.get(id);
      if (!user || (user.disabled === true) === disabled) return;
      user.disabled = disabled;
      if (line) audit.push(copy(line));
      counters['users_disabled'] = (counters['users_disabled'] ?? 0) + (disabled ? 1 : -1);
    },
  });
  return Object.assign(repo, { all: () => [...byId.values()].map(copy), counters, audit });
};

interface DirectoryAccount {
  id: string;
  password?: string;
  temporaryPassword?: string;
  groups: Role[];
  /** false once disabled; `signedOut` counts the global sign-outs. */
  enabled?: boolean;
  signedOut?: number;
}

/**
 * The identity provider: one sign-in per email (a second is a ConflictError, as the Cognito adapter answers, unless
 * the first still waits for its first sign-in and the second brings a temporary password: it is taken over with it),
 * groups by username, turned off and on by id.
 */
export const memoryDirectory = () => {
  const accounts = new Map<string, DirectoryAccount>();
  /** Ids whose email is not verified (a self sign-up that has not verified yet); every other account is verified. */
  const unverified = new Set<string>();
  let next = 1;
  const directory = withHooks<Directory>({
    async createAccount({ email, password, temporaryPassword }) {
      const existing = accounts.get(email);
      if (existing?.temporaryPassword && temporaryPassword) {
        existing.temporaryPassword = temporaryPassword;
        return { id: existing.id, username: email };
      }
      if (existing) throw new ConflictError(`An account with ${email} already exists.`);
      const id = `sub-${next++}`;
      accounts.set(email, { id, groups: [], ...(password ? { password } : {}), ...(temporaryPassword ? { temporaryPassword } : {}) });
      return { id, username: email };
    },
    async addToGroup(username, role) {
      const account = accounts.get(username) ?? { id: username, groups: [] };
      if (!account.groups.includes(role)) account.groups.push(role);
      accounts.set(username, account);
    },
    async changeGroup(userId, from, to) {
      const account = [...accounts.values()].find((a) => a.id === userId);
      if (!account) throw new Error(`no account ${userId}`);
      account.groups = [...account.groups.filter((g) => g !== from && g !== to), to];
      account.signedOut = (account.signedOut ?? 0) + 1;
    },
    async emailVerified(userId) {
      return !unverified.has(userId);
    },
    async setSignInEnabled(userId, enabled) {
      const account = [...accounts.values()].find((a) => a.id === userId);
      if (!account) throw new Error(`no account ${userId}`);
      account.enabled = enabled;
      if (!enabled) account.signedOut = (account.signedOut ?? 0) + 1;
    },
  });
  return Object.assign(directory, { accounts, unverified });
};
