import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { domainStatuses } from '#contracts/domains.ts';
import type { DomainRepository, StoredDomain } from '#core/domains/ports.ts';
import { documentClient, dueIndexPage, queryAll, tableName, writeIf } from '#data/table.ts';

/**
 * Custom domains (issue 32 point 2, decision 0055).
 * Claim: pk DOMAIN#<hostname>  sk DOMAIN   creatorId, hostname, status, token, createdAt, updatedAt, statusAt,
 *                                          checkedAt, activatedAt, problem, failureReason, flaggedAt, flagReason,
 *                                          nextCheckAt, removingAt: one item per hostname, written with attribute_not_exists (or
 *                                          over a stale unverified claim), so one creator holds a hostname; the
 *                                          storefront's lookup is this one read
 *        gsi1pk CREATOR#<creatorId>#DOMAINS  gsi1sk <hostname>       the creator's list (one Query)
 *        gsi3pk DOMAINS#DUE  gsi3sk <nextCheckAt>#<hostname>         while a check is due at all (sparse: a failed
 *                                                                    claim leaves it): the 'domains-check' job reads `<= now`
 * A removed claim whose tenant the edge has not deleted yet stays with `removingAt` set (due: the job retries), and
 * cannot be claimed over until it is gone.
 */
export const domainKeys = {
  claim: (hostname: string) => ({ pk: `DOMAIN#${hostname}`, sk: 'DOMAIN' }),
  creator: (d: Pick<StoredDomain, 'creatorId' | 'hostname'>) => ({ gsi1pk: `CREATOR#${d.creatorId}#DOMAINS`, gsi1sk: d.hostname }),
  due: (d: Pick<StoredDomain, 'nextCheckAt' | 'hostname'>) => (d.nextCheckAt === null ? {} : { gsi3pk: DUE, gsi3sk: `${d.nextCheckAt}#${d.hostname}` }),
};
const DUE = 'DOMAINS#DUE';

const domainItem = z.object({
  hostname: z.string(),
  creatorId: z.string(),
  status: z.enum(domainStatuses),
  token: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  statusAt: z.string(),
  checkedAt: z.string().nullable(),
  activatedAt: z.string().nullable(),
  problem: z.string().nullable(),
  failureReason: z.string().nullable(),
  flaggedAt: z.string().nullable(),
  flagReason: z.string().nullable(),
  nextCheckAt: z.string().nullable(),
  // Items written before removals could wait on the edge have none.
  removingAt: z.string().nullable().default(null),
});
const toDomain = (item: unknown): StoredDomain => domainItem.parse(item);

const itemOf = (d: StoredDomain) => ({ ...domainKeys.claim(d.hostname), ...domainKeys.creator(d), ...domainKeys.due(d), type: 'CustomDomain', ...d });

export const dynamoDomains = (): DomainRepository => ({
  async claim(domain, staleBefore) {
    const claimed = await writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: itemOf(domain),
          // Free, or an unverified claim (anyone's) that has stood still since before `staleBefore` and is not waiting
          // for the edge to delete its tenant.
          ConditionExpression:
            'attribute_not_exists(pk) OR (#status IN (:pending, :failed) AND statusAt < :stale AND (attribute_not_exists(removingAt) OR attribute_type(removingAt, :null)))',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':pending': 'pending_verification', ':failed': 'failed', ':stale': staleBefore, ':null': 'NULL' },
        }),
      ),
    );
    if (claimed) return { outcome: 'claimed' };
    const holder = await this.get(domain.hostname);
    return { outcome: 'taken', creatorId: holder?.creatorId ?? '', removing: (holder?.removingAt ?? null) !== null };
  },

  async get(hostname) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: domainKeys.claim(hostname), ConsistentRead: true }));
    return Item ? toDomain(Item) : undefined;
  },

  async list(creatorId) {
    const items = await queryAll({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}#DOMAINS` } });
    return items.map(toDomain);
  },

  async save(domain, before) {
    const saved = await writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: itemOf(domain),
          ConditionExpression: 'creatorId = :creator AND updatedAt = :updated',
          ExpressionAttributeValues: { ':creator': before.creatorId, ':updated': before.updatedAt },
        }),
      ),
    );
    return saved ? 'saved' : 'changed';
  },

  async remove(creatorId, hostname) {
    return writeIf(() =>
      documentClient().send(
        new DeleteCommand({ TableName: tableName(), Key: domainKeys.claim(hostname), ConditionExpression: 'creatorId = :creator', ExpressionAttributeValues: { ':creator': creatorId } }),
      ),
    );
  },

  async due(now, limit, after) {
    const page = await dueIndexPage(DUE, now, limit, after ? { cursor: after, pkPrefix: 'DOMAIN#' } : undefined);
    return { items: page.items.map(toDomain), nextCursor: page.nextCursor };
  },
});
