import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { BrandingRepository, StoredBranding } from '#core/ports.ts';
import { documentClient, tableName } from '#data/table.ts';

/**
 * branding (issue 32 point 1; access pattern: a creator's branding, read by their public pages, their learners' player
 * and the mail to their learners).
 * Branding:  pk USER#<creatorId>  sk BRANDING  creatorId, schoolName, primaryColor, logo {id, contentType}|null, updatedAt
 * In the creator's user partition, beside their public profile, not in CREATOR#<id> (the sales and counters): a page
 * view reads it, nothing hot writes it.
 */
export const brandingKey = (creatorId: string) => ({ pk: `USER#${creatorId}`, sk: 'BRANDING' });

const brandingItem = z.object({
  creatorId: z.string(),
  schoolName: z.string(),
  primaryColor: z.string(),
  logo: z.object({ id: z.string(), contentType: z.string() }).nullable(),
  updatedAt: z.string(),
});

export const dynamoBranding = (): BrandingRepository => ({
  async get(creatorId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: brandingKey(creatorId) }));
    return Item ? (brandingItem.parse(Item) as StoredBranding) : undefined;
  },
  async save(branding) {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...brandingKey(branding.creatorId), type: 'Branding', ...branding } }));
  },
});
