import { randomBytes } from 'node:crypto';
import { envelopeCipherWith, localDataKeys } from '#adapters/envelope-cipher.ts';
import type { IntegrationRepository, StoredIntegrations } from '#core/integrations/ports.ts';
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
