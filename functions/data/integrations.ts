import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import type { IntegrationRepository, StoredIntegrations } from '#core/integrations/ports.ts';
import { documentClient, tableName } from '#data/table.ts';

/**
 * creator_integrations (access pattern 14: integrations by creator, one GetItem).
 * Integrations: pk CREATOR#<id>  sk INTEGRATIONS  zoom {enabled, apiKey, accountId, apiSecret}, teams {enabled, clientId,
 *               clientSecret}, googleCalendar {enabled, calendarId}, updatedAt
 * A secret is stored only as its sealed blob {ciphertext, iv, tag, encryptedDataKey} (adapters/envelope-cipher.ts), or
 * null: never in plain text.
 */
export const integrationKeys = {
  integrations: (creatorId: string) => ({ pk: `CREATOR#${creatorId}`, sk: 'INTEGRATIONS' }),
};

const base64 = z.base64();
const sealed = z.object({ ciphertext: base64, iv: base64, tag: base64, encryptedDataKey: base64 }).nullable();

const item = z.object({
  zoom: z.object({ enabled: z.boolean(), apiKey: z.string(), accountId: z.string(), apiSecret: sealed }),
  teams: z.object({ enabled: z.boolean(), clientId: z.string(), clientSecret: sealed }),
  googleCalendar: z.object({ enabled: z.boolean(), calendarId: z.string() }),
  updatedAt: isoDate,
});

export const dynamoIntegrations = (): IntegrationRepository => ({
  async get(creatorId) {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: integrationKeys.integrations(creatorId), ConsistentRead: true }),
    );
    return Item ? (item.parse(Item) satisfies StoredIntegrations) : undefined;
  },

  async put(creatorId, integrations) {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...integrationKeys.integrations(creatorId), type: 'Integrations', ...integrations },
      }),
    );
  },
});
