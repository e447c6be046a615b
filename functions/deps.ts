import { ulid } from 'ulid';
import { cognitoDirectory } from './adapters/cognito-directory.ts';
import type { Clock, Directory, Ids, UserRepository } from './core/ports.ts';
import { dynamoUsers } from './data/users.ts';

/**
 * Composition root: the real adapters, built once per process. Handlers take what they need from here and pass it
 * to one use case. Heavy third-party adapters (Stripe, Bedrock, SES) get their own getter so that a bundle only
 * carries the SDKs its handler uses.
 */
export const clock: Clock = { now: () => new Date() };
export const ids: Ids = { newId: () => ulid() };

let users: UserRepository | undefined;
let directory: Directory | undefined;

export const userRepository = (): UserRepository => (users ??= dynamoUsers());
export const directoryService = (): Directory => (directory ??= cognitoDirectory());

/** Everything the account use cases need. */
export const getDeps = () => ({ clock, ids, users: userRepository(), directory: directoryService() });
