import type { Role } from '../contracts/common.ts';

/** The interfaces core needs. Adapters in functions/data and functions/adapters implement them. */

export interface Clock {
  now(): Date;
}

export interface Ids {
  /** A new, unique, roughly time-ordered id. */
  newId(): string;
}

export interface User {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
}

export interface UserRepository {
  getUser(id: string): Promise<User | undefined>;
  getUserIdByEmail(email: string): Promise<string | undefined>;
  /** Writes the profile, reserves the email and moves the platform counters in one transaction. Throws ConflictError when the id or email is taken. */
  createUser(user: User): Promise<void>;
}

/** The identity provider (Cognito). */
export interface Directory {
  /** Creates a sign-in account; with `password` it is permanent, otherwise the provider sends nothing and the caller invites. Returns the user's stable id (sub) and username. */
  createAccount(input: { email: string; password?: string; temporaryPassword?: string }): Promise<{ id: string; username: string }>;
  addToGroup(username: string, role: Role): Promise<void>;
}
