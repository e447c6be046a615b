import { describe, expect, it } from 'vitest';
import { UNSUBSCRIBE_PLACEHOLDER } from '#core/campaigns/email-content.ts';
import { assignSeat } from '#core/licenses/licenses.ts';
import { LEADER_PAGE, REPORT_LANES_AT_ONCE, REPORT_PASSES, sendWeeklyReports, teamWeek, weekOf, weeklyReportEmail, LISTED_MEMBERS } from '#core/licenses/weekly-report.ts';
import type { BulkEntry, SealedSecret } from '#core/ports.ts';
import { platformMailRate } from '#core/jobs/pace.ts';
import { maxConcurrencyOf } from '#lib/constructs/job-queue-names.ts';
import { NOW } from '#test/functions/fakes/clock.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { runSliced } from '#test/functions/fakes/sliced-run.ts';
import { memoryLeaderSettings } from '#test/functions/fakes/leader-settings.ts';
import { grant, leaderOf, licenseWorld } from '#test/functions/fakes/license-world.ts';

const DAY = 86_400_000;

/** A licensing world with a bulk mailer that records each send (or refuses `refuse`), and the weekly job's deps. */
const weeklyWorld = (refuse = new Set<string>()) => {
  const d = licenseWorld();
  const sent: { subject: string; text: string; html: string; entry: BulkEntry }[] = [];
  let sealed: SealedSecret | undefined;
  const leaderSettings = memoryLeaderSettings();
  const deps = {
    ...d,
    leaderSettings,
    campaigns: { unsubscribeKey: async (make: () => Promise<SealedSecret>) => (sealed ??= await make()) },
    cipher: { encrypt: async (plaintext: string) => ({ ciphertext: plaintext, iv: '', tag: '', encryptedDataKey: '' }), decrypt: async (s: SealedSecret) => s.ciphertext },
    mailer: {
      sendBulk: async (message: { subject: string; text: string; html: string; entries: BulkEntry[] }) =>
        message.entries.map((entry) => {
          if (refuse.has(entry.to)) return { to: entry.to, ok: false, error: 'MessageRejected' };
          sent.push({ subject: message.subject, text: message.text, html: message.html, entry });
          return { to: entry.to, ok: true };
        }),
      maxSendRate: async () => 14,
    },
    sleep: async () => undefined,
  };
  return { d, deps, sent, leaderSettings };
};

/** A whole run of the weekly job, its slices (main lane and page lanes) on the memory queue: what it did. */
const weekly = async (deps: Parameters<typeof sendWeeklyReports>[0]) => (await runToEnd('leader-weekly-report', () => sendWeeklyReports(deps))).counts;

describe('the weekly team email', () => {
  it("is keyed by the week's Monday (UTC)", () => {
    expect(weekOf(new Date('2026-11-23T07:00:00Z'))).toBe('2026-11-23'); // a Monday
    expect(weekOf(new Date('2026-11-29T23:59:59Z'))).toBe('2026-11-23'); // its Sunday
    expect(weekOf(new Date('2026-11-30T00:00:00Z'))).toBe('2026-11-30');
  });

  it('names the completions of the last 7 days and the members stalled for 7 days, and nobody else', () => {
    const now = new Date('2026-11-30T07:00:00Z');
    const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
    const member = (email: string, over: Partial<Parameters<typeof teamWeek>[0][number]>) => ({ email, courseTitle: 'Safety', progress: 0, lastActivity: null, completedAt: null, assignedAt: ago(30), ...over });
    const week = teamWeek(
      [
        member('done-now@x.com', { progress: 100, lastActivity: ago(1), completedAt: ago(1) }),
        member('done-long-ago@x.com', { progress: 100, lastActivity: ago(20), completedAt: ago(20) }),
        member('active@x.com', { progress: 40, lastActivity: ago(2) }),
        member('stalled@x.com', { progress: 40, lastActivity: ago(9) }),
        member('never-started@x.com', {}),
        member('just-added@x.com', { assignedAt: ago(3) }),
      ],
      now,
    );
    expect(week.members).toBe(6);
    expect(week.completionRate).toBe(33);
    expect(week.completedThisWeek.map((m) => m.email)).toEqual(['done-now@x.com']);
    // Longest without activity first.
    expect(week.stalled.map((m) => m.email)).toEqual(['never-started@x.com', 'stalled@x.com']);
  });

  it('reads well in text and HTML: the figures, at most 10 names per list, the reports link and the unsubscribe placeholder', () => {
    const now = new Date(NOW);
    const stalled = Array.from({ length: LISTED_MEMBERS + 3 }, (_, i) => ({ email: `m${i}@x.com`, courseTitle: 'Safety <b>', progress: 10, lastActivity: '2026-11-01T00:00:00.000Z', completedAt: null, assignedAt: '2026-10-01T00:00:00.000Z' }));
    const email = weeklyReportEmail({ appOrigin: 'https://app.example.com/', name: 'Dana {{x}}', organization: 'Acme', week: teamWeek(stalled, now) });
    expect(email.subject).toBe("Acme's team this week: 0 completions, 13 stalled");
    expect(email.text).toContain('Hello Dana {\u200b{x}\u200b},');
    expect(email.text).toContain("Acme's team has 13 members on active licences, 0% of them have completed their course.");
    expect(email.text).toContain('- m0@x.com: Safety <b>, 10% (last active 1 Nov 2026)');
    expect(email.text).toContain('and 3 more');
    expect(email.text).toContain('No one completed a course this week.');
    expect(email.text).toContain('https://app.example.com/dashboard/leader/reports');
    expect(email.text).toContain(`Stop it: ${UNSUBSCRIBE_PLACEHOLDER}`);
    expect(email.html).toContain('Safety &lt;b&gt;');
    expect(email.html).toContain(`href="${UNSUBSCRIBE_PLACEHOLDER}"`);
    expect(email.html.match(/<li>/g)).toHaveLength(LISTED_MEMBERS + 1);
  });

  it("goes once a week to each leader with members whose email is on, with a one-click unsubscribe; a refused send is given back and sent by the next run", async () => {
    const { d, deps, sent, leaderSettings } = weeklyWorld(new Set(['lead3@example.com']));
    for (const leaderEmail of ['lead@example.com', 'lead2@example.com', 'lead3@example.com', 'empty@example.com']) {
      const license = await grant(d, { leaderEmail, seats: 3 });
      if (leaderEmail !== 'empty@example.com') await assignSeat(d, { leaderId: await leaderOf(d, leaderEmail), licenseId: license.id, email: `member-of-${leaderEmail}` });
    }
    await leaderSettings.save({ leaderId: await leaderOf(d, 'lead2@example.com'), name: '', organization: '', weeklyReport: false, updatedAt: NOW });
    const first = await weekly(deps);
    // lead3's refused send is given back and tried again in the lane's next passes (each refused too).
    expect(first).toEqual({ sent: 1, skipped: 2 + 3 * (REPORT_PASSES - 1), failed: REPORT_PASSES, lanes: 1 });
    expect(sent.map((s) => s.entry.to)).toEqual(['lead@example.com']);
    const [{ entry }] = sent as [(typeof sent)[number]];
    const url = entry.data['unsubscribeUrl']!;
    expect(url).toMatch(/^https:\/\/app\.example\/api\/unsubscribe\?token=.+\.weekly-report$/);
    expect(entry.headers).toEqual([
      { name: 'List-Unsubscribe', value: `<${url}>` },
      { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
    ]);
    // Run again the same week: nothing twice; the refused one is tried again.
    expect(await weekly(deps)).toMatchObject({ sent: 0, failed: REPORT_PASSES });
    // Next week, each leader with members and the email on gets the week's email again.
    d.clock.advance(7 * DAY);
    expect((await weekly(deps))['sent']).toBe(1);
    expect(sent).toHaveLength(2);
  });

  it('stops before its slice runs out of time, and the next slice goes on with the rest', async () => {
    const { d, deps, sent } = weeklyWorld();
    for (const leaderEmail of ['a@example.com', 'b@example.com', 'c@example.com']) {
      const license = await grant(d, { leaderEmail });
      await assignSeat(d, { leaderId: await leaderOf(d, leaderEmail), licenseId: license.id, email: `m-${leaderEmail}` });
    }
    const run = await runSliced('leader-weekly-report', () => sendWeeklyReports(deps), { itemsPerSlice: 1 });
    expect(run.counts['sent']).toBe(3);
    expect(run.slices).toBeGreaterThan(3);
    expect(new Set(sent.map((s) => s.entry.to)).size).toBe(3);
  });
});

describe('the weekly team email at size (issue 28)', () => {
  /** `n` leaders, each with one member on an active licence. */
  const leaders = async (n: number, refuse?: Set<string>) => {
    const w = weeklyWorld(refuse);
    for (let i = 0; i < n; i++) {
      const leaderEmail = `lead${String(i).padStart(3, '0')}@example.com`;
      const license = await grant(w.d, { leaderEmail });
      await assignSeat(w.d, { leaderId: await leaderOf(w.d, leaderEmail), licenseId: license.id, email: `m-${leaderEmail}` });
    }
    return w;
  };

  it('reaches every one of 300 leaders once, the oldest as the newest, a lane per page sending in parallel, a killed lane slice included', async () => {
    const { deps, sent } = await leaders(300);
    const run = await runSliced('leader-weekly-report', () => sendWeeklyReports(deps), { itemsPerSlice: 40, kill: { seq: 1, afterChecks: 20, lanes: (lane) => lane === 'main.p1' } });
    expect(run.kills).toBe(1);
    expect([...run.lanes].sort()).toEqual(['main', 'main.p0', 'main.p1', 'main.p2']);
    expect(Math.ceil(300 / LEADER_PAGE)).toBe(3);
    const to = sent.map((s) => s.entry.to);
    expect(to).toHaveLength(300);
    expect(new Set(to).size).toBe(300);
  });

  it("paces each lane so that the lanes its queue runs at once ask SES for the platform's share of its rate, no more", async () => {
    const { deps } = await leaders(4);
    const waits: number[] = [];
    await weekly({ ...deps, sleep: async (ms: number) => void waits.push(ms) });
    // SES at 14 a second (weeklyWorld): the platform's share, split between the lanes the queue's event source runs at once.
    const lanes = maxConcurrencyOf('leader-weekly-report');
    expect(lanes, 'the pace divides by the same number the queue runs at once').toBe(REPORT_LANES_AT_ONCE);
    const lanePerSecond = platformMailRate(14) / lanes;
    expect(waits).toHaveLength(3);
    // One lane's 4 sends: the first at once, then one each 1/lanePerSecond (less the few ms the sends themselves took).
    waits.forEach((wait, i) => expect(wait).toBeGreaterThan(((i + 1) * 1000) / lanePerSecond - 100));
    waits.forEach((wait, i) => expect(wait).toBeLessThanOrEqual(((i + 1) * 1000) / lanePerSecond + 1));
    expect(lanePerSecond * lanes).toBeCloseTo(platformMailRate(14));
  });

  it('loses no leader when a slice dies between holding a week and sending it: its retry takes the hold again and sends', async () => {
    const { d, deps, sent, leaderSettings } = await leaders(5);
    const claim = leaderSettings.claimWeeklyReport;
    const unlucky = await leaderOf(d, 'lead002@example.com');
    let died = false;
    deps.leaderSettings = Object.assign(leaderSettings, {
      claimWeeklyReport: async (...args: Parameters<typeof claim>) => {
        const taken = await claim(...args);
        if (args[0] === unlucky && !died) {
          died = true;
          throw new Error('the function timed out after the write');
        }
        return taken;
      },
    });
    await runSliced('leader-weekly-report', () => sendWeeklyReports(deps), { redeliver: 1 });
    expect(died).toBe(true);
    expect(sent.map((s) => s.entry.to).sort()).toEqual(['lead000@example.com', 'lead001@example.com', 'lead002@example.com', 'lead003@example.com', 'lead004@example.com']);
    // Sent, recorded: a second run this week sends nothing.
    await weekly(deps);
    expect(sent).toHaveLength(5);
  });

  it('tries a refused leader again within the run, and never sends twice to one who got it', async () => {
    const refuse = new Set(['lead001@example.com']);
    const { deps, sent } = await leaders(5, refuse);
    let refusals = 0;
    const sendBulk = deps.mailer.sendBulk;
    deps.mailer.sendBulk = async (message) => {
      if (refuse.has(message.entries[0]!.to) && ++refusals === 2) refuse.clear();
      return sendBulk(message);
    };
    const run = await runSliced('leader-weekly-report', () => sendWeeklyReports(deps));
    expect(run.counts).toMatchObject({ sent: 5, failed: 1 });
    expect(sent.map((s) => s.entry.to).sort()).toEqual(['lead000@example.com', 'lead001@example.com', 'lead002@example.com', 'lead003@example.com', 'lead004@example.com']);
  });
});
