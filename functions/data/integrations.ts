import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isoDate } from '#contracts/common.ts';
import type { IntegrationRepository, StoredIntegrations } from '#core/integrations/ports.ts';
import { documentClient, tableName } from '#data/table.ts';

/**
 * creator_integrations (access pattern 14: integrations by creator, one GetItem).
 * Integrations: pk CREATOR#<id>  sk INTEGRATIONS  zoom {enabled, apiKey, accountId, apiSecret, check?}, teams {enabled,
 *               tenantId, clientId, clientSecret, organizerEmail, check?}, googleCalendar {enabled, calendarId,
 *               refreshToken, check?}, updatedAt
 *               check {ok, error?, checkedAt}: the last real call to the provider (issue 30): written with the
 *               settings by a save, alone (SET <service>.check, item must exist) by a test.
 * A secret is stored only as its sealed blob {ciphertext, iv, tag, encryptedDataKey} (adapters/envelope-cipher.ts), or
 * null: never in plain text.
 */
export const integrationKeys = {
  integrations: (creatorId: string) => ({ pk: `CREATOR#${creatorId}`, sk: 'INTEGRATIONS' }),
};

const base64 = z.base64();
const sealed = z.object({ ciphertext: base64, iv: base64, tag: base64, encryptedDataKey: base64 }).nullable();

const check = z.object({ ok: z.boolean(), error: z.string().optional(), checkedAt: isoDate }).optional();

/** Items written before issue 30 lack the Teams tenant and organiser, Google's refresh token and the checks. */
const item = z.object({
  zoom: z.object({ enabled: z.boolean(), apiKey: z.string(), accountId: z.string(), apiSecret: sealed, check }),
  teams: z.object({
    enabled: z.boolean(),
    tenantId: z.string().default(''),
    clientId: z.string(),
    clientSecret: sealed,
    organizerEmail: z.string().default(''),
    check,
  }),
  googleCalendar: z.object({ enabled: z.boolean(), calendarId: z.string(), refreshToken: sealed.default(null), check }),
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

  async saveCheck(creatorId, service, check) {
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: integrationKeys.integrations(creatorId),
          UpdateExpression: 'SET #service.#check = :check',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#service': service, '#check': 'check' },
          ExpressionAttributeValues: { ':check': check },
        }),
      );
    } catch (error) {
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return;
      throw error;
    }
  },
});
