import { randomBytes } from 'node:crypto';
import { envelopeCipherWith, localDataKeys } from '#adapters/envelope-cipher.ts';
import { IntegrationNotConnectedError, ProviderUnavailableError } from '#core/errors.ts';
import type { ConnectionChecks, IntegrationRepository, ProviderCredentials, StoredIntegrations } from '#core/integrations/ports.ts';
import type { SecretCipher } from '#core/ports.ts';

/** Integrations in memory, keyed by creator, as functions/data/integrations.ts stores them (one item each). */
export const memoryIntegrations = () => {
  const items = new Map<string, StoredIntegrations>();
  const repo: IntegrationRepository & { items: Map<string, StoredIntegrations> } = {
    items,
    async get(creatorId) {
      const stored = items.get(creatorId);
      return stored && structuredClone(stored);
    },
    async put(creatorId, integrations) {
      items.set(creatorId, structuredClone(integrations));
    },
    async saveCheck(creatorId, service, check) {
      const stored = items.get(creatorId);
      if (stored) stored[service].check = structuredClone(check);
    },
  };
  return repo;
};

/** The real envelope cipher over a throwaway local key, counting the secrets it seals. */
export const countingCipher = () => {
  const inner = envelopeCipherWith(localDataKeys(randomBytes(32)));
  const cipher: SecretCipher & { sealed: number } = {
    sealed: 0,
    async encrypt(plaintext, context) {
      cipher.sealed += 1;
      return inner.encrypt(plaintext, context);
    },
    decrypt: (sealed, context) => inner.decrypt(sealed, context),
  };
  return cipher;
};

/**
 * The live-session providers as a fake: each provider's `check` does what `outcomes` says (ok, refuse with a reason,
 * be unavailable, or hang), and every check is recorded with the credentials it was given.
 */
export const fakeMeetingProviders = (outcomes: Partial<Record<ProviderCredentials['provider'], 'ok' | 'hang' | { refuse: string } | { down: string }>> = {}) => {
  const checks: { creatorId: string; credentials: ProviderCredentials }[] = [];
  const providers: ConnectionChecks & { checks: typeof checks; outcomes: typeof outcomes } = {
    checks,
    outcomes,
    async check(creatorId, credentials) {
      checks.push({ creatorId, credentials });
      const outcome = providers.outcomes[credentials.provider] ?? 'ok';
      if (outcome === 'ok') return;
      if (outcome === 'hang') return new Promise<void>(() => undefined);
      if ('refuse' in outcome) throw new IntegrationNotConnectedError(credentials.provider, outcome.refuse);
      throw new ProviderUnavailableError(credentials.provider, outcome.down);
    },
  };
  return providers;
};
