import type { LeaderSettingsRepository, StoredLeaderSettings } from '#core/ports.ts';

/** Leaders' settings in memory, with functions/data/leader-settings.ts's rules (the week claimed once, only while the email is on). */
export const memoryLeaderSettings = () => {
  const stored = new Map<string, StoredLeaderSettings>();
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
    async claimWeeklyReport(leaderId, week) {
      const current = orDefault(leaderId, `${week}T00:00:00.000Z`);
      if (!current.weeklyReport || current.lastWeeklyReport === week) return false;
      stored.set(leaderId, { ...current, lastWeeklyReport: week });
      return true;
    },
    async releaseWeeklyReport(leaderId, week) {
      const current = stored.get(leaderId);
      if (current?.lastWeeklyReport === week) stored.set(leaderId, { ...current, lastWeeklyReport: undefined });
    },
  };
  return Object.assign(repo, { stored });
};
