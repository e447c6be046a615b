import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { AUDIT_RETENTION_DAYS, auditEntry } from '#contracts/audit.ts';
import type { AuditLine, AuditLog } from '#core/audit-line.ts';
import { decodeCursor, documentClient, encodeCursor, tableName } from '#data/table.ts';

/**
 * The admin audit log (DATA.md "Audit lines by time (admin), kept a year (TTL)"; docs/data-model.md "Audit log").
 * Line:  pk AUDIT  sk <at>#<id>  gsi1pk AUDIT#<action>  gsi1sk <at>#<id>  at, actor, action, target, details?, expiresAt
 * Every line newest first is one Query of the AUDIT partition (ScanIndexForward false); one action's lines the same of
 * its gsi1 partition. One partition takes every line: admin actions come a few a minute at most, far below what a
 * partition takes (decision 0035 is about items written by every learner's request). The lines are only ever put
 * (`attribute_not_exists`), by the transaction of the action they record (auditPut); nothing updates or deletes them
 * but the TTL (`expiresAt`, AUDIT_RETENTION_DAYS after the action).
 */
export const auditKeys = {
  line: (at: string, id: string) => ({ pk: 'AUDIT', sk: `${at}#${id}` }),
  byAction: (action: string, at: string, id: string) => ({ gsi1pk: `AUDIT#${action}`, gsi1sk: `${at}#${id}` }),
};

const RETENTION_SECONDS = AUDIT_RETENTION_DAYS * 24 * 60 * 60;

/** The transaction item that writes `line`, for the action's own transaction; a line already there fails it (never overwritten). */
export const auditPut = (line: AuditLine) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...auditKeys.line(line.at, line.id),
      ...auditKeys.byAction(line.action, line.at, line.id),
      type: 'AuditLine',
      ...line,
      expiresAt: Math.floor(Date.parse(line.at) / 1000) + RETENTION_SECONDS,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

const toLine = (item: Record<string, unknown>): AuditLine => ({ ...auditEntry.parse(item), id: String(item['id']) });

export const dynamoAuditLog = (): AuditLog => ({
  async page({ action, cursor, limit }) {
    const byAction = action !== undefined;
    const partition = byAction ? auditKeys.byAction(action, '', '').gsi1pk : 'AUDIT';
    // A cursor must be one this listing handed out: the same partition (and, on the index, an audit line's key).
    const start = cursor
      ? byAction
        ? decodeCursor(cursor, { gsi1pk: partition, pk: 'AUDIT' }, { name: 'gsi1sk', prefix: '' })
        : decodeCursor(cursor, { pk: 'AUDIT' }, { name: 'sk', prefix: '' })
      : undefined;
    const { Items = [], LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        ...(byAction ? { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk' } : { KeyConditionExpression: 'pk = :pk' }),
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        Limit: limit,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    return { items: Items.map(toLine), nextCursor: encodeCursor(LastEvaluatedKey) ?? null };
  },
});
