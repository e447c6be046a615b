import type { LeaderSettingsRepository, StoredLeaderSettings } from '#core/ports.ts';

/**
 * Leaders' settings in memory, with functions/data/leader-settings.ts's rules (the week held by one run at a time, until
 * its hold ends; sent once; only while the email is on).
 */
export const memoryLeaderSettings = () => {
  const stored = new Map<string, StoredLeaderSettings>();
  const holds = new Map<string, { week: string; run: string; until: string }>();
  const orDefault = (leaderId: string, at: string): StoredLeaderSettings =>
    stored.get(leaderId) ?? { leaderId, name: '', organization: '', weeklyReport: true, updatedAt: at };
  const repo: LeaderSettingsRepository = {
    async get(leaderId) {
      const found = stored.get(leaderId);
      return found && structuredClone(found);
    },
    async save(settings) {
      const saved = { ...stored.get(settings.leaderId), ...settings };
      stored.set(settings.leaderId, saved);
      return structuredClone(saved);
    },
    async stopWeeklyReport(leaderId, at) {
      stored.set(leaderId, { ...orDefault(leaderId, at), weeklyReport: false, updatedAt: at });
    },
    async claimWeeklyReport(leaderId, week, { run, now, until }) {
      const current = orDefault(leaderId, `${week}T00:00:00.000Z`);
      const held = holds.get(leaderId);
      if (!current.weeklyReport || current.lastWeeklyReport === week) return false;
      if (held && held.week === week && held.run !== run && held.until >= now) return false;
      stored.set(leaderId, current);
      holds.set(leaderId, { week, run, until });
      return true;
    },
    async completeWeeklyReport(leaderId, week) {
      stored.set(leaderId, { ...orDefault(leaderId, `${week}T00:00:00.000Z`), lastWeeklyReport: week });
      holds.delete(leaderId);
    },
    async releaseWeeklyReport(leaderId, week) {
      if (holds.get(leaderId)?.week === week) holds.delete(leaderId);
    },
  };
  return Object.assign(repo, { stored, holds });
};
