import type { Role } from '#contracts/common.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import { ConflictError } from '#core/errors.ts';
import { getDeps } from '#functions/deps.ts';

/** The seeded accounts: fixed so the README, the banner and the browser tests can name them. */
export const seedAccounts = {
  admin: { email: 'admin@example.com', password: 'AdminPass123', role: 'admin' },
  creator: { email: 'creator@example.com', password: 'CreatorPass123', role: 'creator' },
} as const satisfies Record<string, { email: string; password: string; role: Role }>;

/**
 * Seeds through the same use case an admin uses to create an account (Cognito user with a permanent
 * password, its group, the profile and counters), so seeded data is shaped like real data. Idempotent:
 * an account that exists is left as it is. Needs the handler environment (functionEnv) applied first.
 */
export const seed = async (log: (line: string) => void): Promise<void> => {
  const deps = getDeps();
  for (const account of Object.values(seedAccounts)) {
    try {
      await createAccount(deps, { email: account.email, role: account.role, password: account.password });
      log(`[seed] created ${account.role} ${account.email}`);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  await seedDemoCatalogue(log);
};

/**
 * The demo catalogue (the demo creator's courses, enrolled learners at various progress) arrives with the
 * courses issue: add it here, through the courses and enrollment use cases, keeping it idempotent.
 */
const seedDemoCatalogue = async (_log: (line: string) => void): Promise<void> => {};
