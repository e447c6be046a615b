import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { LeaderSettingsRepository, StoredLeaderSettings } from '#core/ports.ts';
import { documentClient, tableName, writeIf } from '#data/table.ts';

/**
 * A group leader's settings (issue 14; docs/data-model.md "Team licences"), one item beside their profile:
 * pk USER#<leaderId>  sk LEADER_SETTINGS   name, organization, weeklyReport, updatedAt, lastWeeklyReport (a Monday: the
 *                                          week last sent), heldWeek, heldBy, heldUntil (a run's hold on the week's
 *                                          email while it sends it)
 * No index: the weekly job walks the leaders by role (users' gsi1 ROLE#leader) and holds each one's week here.
 */
export const leaderSettingsKey = (leaderId: string) => ({ pk: `USER#${leaderId}`, sk: 'LEADER_SETTINGS' });

const settingsItem = z.object({
  leaderId: z.string(),
  name: z.string().default(''),
  organization: z.string().default(''),
  weeklyReport: z.boolean().default(true),
  updatedAt: z.string(),
  lastWeeklyReport: z.string().optional(),
});

const update = (leaderId: string, input: { set: string; condition?: string; values: Record<string, unknown> }) =>
  documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: leaderSettingsKey(leaderId),
      UpdateExpression: input.set,
      ...(input.condition ? { ConditionExpression: input.condition } : {}),
      ...(input.set.includes('#') ? { ExpressionAttributeNames: { '#type': 'type', '#name': 'name' } } : {}),
      ExpressionAttributeValues: input.values,
      ReturnValues: 'ALL_NEW',
    }),
  );

export const dynamoLeaderSettings = (): LeaderSettingsRepository => ({
  async get(leaderId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: leaderSettingsKey(leaderId) }));
    return Item ? settingsItem.parse(Item) : undefined;
  },

  async save({ leaderId, name, organization, weeklyReport, updatedAt }) {
    const { Attributes } = await update(leaderId, {
      set: 'SET #type = :type, leaderId = :id, #name = :name, organization = :org, weeklyReport = :weekly, updatedAt = :at',
      values: { ':type': 'LeaderSettings', ':id': leaderId, ':name': name, ':org': organization, ':weekly': weeklyReport, ':at': updatedAt },
    });
    return settingsItem.parse(Attributes) as StoredLeaderSettings;
  },

  async stopWeeklyReport(leaderId, at) {
    await update(leaderId, {
      set: 'SET weeklyReport = :off, updatedAt = :at, leaderId = :id',
      values: { ':off': false, ':at': at, ':id': leaderId },
    });
  },

  claimWeeklyReport: (leaderId, week, hold) =>
    writeIf(() =>
      update(leaderId, {
        set: 'SET heldWeek = :week, heldBy = :run, heldUntil = :until, leaderId = :id, updatedAt = if_not_exists(updatedAt, :monday)',
        condition:
          '(attribute_not_exists(lastWeeklyReport) OR lastWeeklyReport <> :week) AND (attribute_not_exists(weeklyReport) OR weeklyReport = :on) AND ' +
          '(attribute_not_exists(heldWeek) OR heldWeek <> :week OR heldBy = :run OR heldUntil < :now)',
        values: { ':week': week, ':run': hold.run, ':until': hold.until, ':now': hold.now, ':id': leaderId, ':on': true, ':monday': `${week}T00:00:00.000Z` },
      }),
    ),

  async completeWeeklyReport(leaderId, week) {
    await update(leaderId, { set: 'SET lastWeeklyReport = :week REMOVE heldWeek, heldBy, heldUntil', values: { ':week': week } });
  },

  async releaseWeeklyReport(leaderId, week) {
    await writeIf(() => update(leaderId, { set: 'REMOVE heldWeek, heldBy, heldUntil', condition: 'heldWeek = :week', values: { ':week': week } }));
  },
});
