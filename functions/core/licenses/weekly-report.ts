import { emailHtml, escapeHtml, PRODUCT_NAME, type EmailMessage } from '#core/accounts/password-reset-email.ts';
import { STOP_MARGIN_MS, unsubscribeHeaders, unsubscribeKey, unsubscribeUrl } from '#core/campaigns/campaigns.ts';
import { noPlaceholdersHtml, noPlaceholdersText, UNSUBSCRIBE_PLACEHOLDER } from '#core/campaigns/email-content.ts';
import { completionRateOf, teamOf } from '#core/licenses/licenses.ts';
import type {
  BulkMailer,
  CampaignRepository,
  Clock,
  EnrollmentRepository,
  LeaderSettingsRepository,
  LicenseRepository,
  SecretCipher,
  UserRepository,
} from '#core/ports.ts';

/**
 * The weekly team email (issue 14): every Monday each group leader who has not turned it off gets, over their
 * licences that give access, the members who completed their course in the last 7 days and those who have stalled
 * (an active seat, not completed, no activity for 7 days), with a link to their reports and a one-click unsubscribe
 * (RFC 8058) that turns off this email only. A leader without members gets nothing. Each leader's week is claimed
 * before the send (a rerun or a second delivery sends nothing twice) and given back if SES refuses it.
 */

export const WEEK_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Members the email names in each list; the report has the rest. */
export const LISTED_MEMBERS = 10;

/** The Monday (UTC, YYYY-MM-DD) of the week `now` falls in: the key a leader's email is claimed under. */
export const weekOf = (now: Date): string => {
  const daysSinceMonday = (now.getUTCDay() + 6) % 7;
  return new Date(now.getTime() - daysSinceMonday * DAY_MS).toISOString().slice(0, 10);
};

interface TeamMember {
  email: string;
  courseTitle: string;
  progress: number;
  lastActivity: string | null;
  completedAt: string | null;
  assignedAt: string;
}

export interface TeamWeek {
  members: number;
  completionRate: number | null;
  completedThisWeek: TeamMember[];
  stalled: TeamMember[];
}

/** The week's figures from the members of the leader's active licences. */
export const teamWeek = (members: TeamMember[], now: Date): TeamWeek => {
  const weekAgo = new Date(now.getTime() - WEEK_DAYS * DAY_MS).toISOString();
  return {
    members: members.length,
    completionRate: completionRateOf(members),
    completedThisWeek: members.filter((m) => m.completedAt !== null && m.completedAt > weekAgo).sort((a, b) => b.completedAt!.localeCompare(a.completedAt!)),
    stalled: members
      .filter((m) => m.completedAt === null && (m.lastActivity ?? m.assignedAt) <= weekAgo)
      .sort((a, b) => (a.lastActivity ?? a.assignedAt).localeCompare(b.lastActivity ?? b.assignedAt)),
  };
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const stalledSince = (m: TeamMember) => (m.lastActivity ? `last active ${day(m.lastActivity)}` : `not started since ${day(m.assignedAt)}`);

/**
 * The email: the headline figures, the two lists (at most LISTED_MEMBERS each, "and N more"), the link to the reports,
 * and the unsubscribe link as SES's per-destination placeholder. Names and titles are kept from reading as
 * placeholders and escaped in the HTML.
 */
export const weeklyReportEmail = (input: { appOrigin: string; name: string; organization: string; week: TeamWeek }): EmailMessage => {
  const { week } = input;
  const reports = `${input.appOrigin.replace(/\/+$/, '')}/dashboard/leader/reports`;
  const team = input.organization ? `${input.organization}'s team` : 'Your team';
  const subject = noPlaceholdersText(`${team} this week: ${plural(week.completedThisWeek.length, 'completion')}, ${week.stalled.length} stalled`);
  const greeting = input.name ? `Hello ${input.name},` : 'Hello,';
  const rate = week.completionRate === null ? '' : `, ${week.completionRate}% of them have completed their course`;
  const list = (members: TeamMember[], line: (m: TeamMember) => string) => [
    ...members.slice(0, LISTED_MEMBERS).map(line),
    ...(members.length > LISTED_MEMBERS ? [`and ${members.length - LISTED_MEMBERS} more`] : []),
  ];
  const completed = list(week.completedThisWeek, (m) => `${m.email}: ${m.courseTitle} (${day(m.completedAt!)})`);
  const stalled = list(week.stalled, (m) => `${m.email}: ${m.courseTitle}, ${m.progress}% (${stalledSince(m)})`);
  const sections: [string, string[], string][] = [
    ['Completed this week', completed, 'No one completed a course this week.'],
    [`Stalled (no activity for ${WEEK_DAYS} days)`, stalled, 'No one has stalled: everyone with a course to finish was active this week.'],
  ];
  const text = [
    greeting,
    '',
    `${team} has ${plural(week.members, 'member')} on active licences${rate}.`,
    ...sections.flatMap(([title, lines, none]) => ['', `${title}:`, ...(lines.length > 0 ? lines.map((l) => `- ${l}`) : [none])]),
    '',
    `See every member's progress: ${reports}`,
    '',
    '--',
    `You receive this weekly email because you lead a team on ${PRODUCT_NAME}.`,
    `Stop it: ${UNSUBSCRIBE_PLACEHOLDER}`,
  ].join('\n');
  const html = emailHtml(`<h1 style="margin:0 0 16px;font-size:20px">${noPlaceholdersHtml(escapeHtml(team))} this week</h1>
<p style="margin:0 0 16px;line-height:1.5">${noPlaceholdersHtml(escapeHtml(greeting))}</p>
<p style="margin:0 0 16px;line-height:1.5">${noPlaceholdersHtml(escapeHtml(`${team} has ${plural(week.members, 'member')} on active licences${rate}.`))}</p>
${sections
  .map(
    ([title, lines, none]) =>
      `<h2 style="margin:24px 0 8px;font-size:16px">${escapeHtml(title)}</h2>\n` +
      (lines.length > 0
        ? `<ul style="margin:0;padding-left:20px;line-height:1.6">${lines.map((l) => `<li>${noPlaceholdersHtml(escapeHtml(l))}</li>`).join('')}</ul>`
        : `<p style="margin:0;color:#52525b">${escapeHtml(none)}</p>`),
  )
  .join('\n')}
<p style="margin:24px 0 0"><a href="${escapeHtml(reports)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">Open team reports</a></p>
<p style="margin:32px 0 0;font-size:13px;color:#71717a">You receive this weekly email because you lead a team on ${PRODUCT_NAME}. <a href="${UNSUBSCRIBE_PLACEHOLDER}" style="color:#71717a">Stop the weekly report</a></p>`, 560);
  return { subject, text: noPlaceholdersTextExcept(text), html };
};

/** The text part with member names kept from reading as placeholders, the unsubscribe placeholder alone left as one. */
const noPlaceholdersTextExcept = (text: string): string =>
  text
    .split(UNSUBSCRIBE_PLACEHOLDER)
    .map((part) => noPlaceholdersText(part))
    .join(UNSUBSCRIBE_PLACEHOLDER);

export interface WeeklyReportDeps {
  users: Pick<UserRepository, 'listByRole'>;
  leaderSettings: Pick<LeaderSettingsRepository, 'get' | 'claimWeeklyReport' | 'releaseWeeklyReport'>;
  licenses: Pick<LicenseRepository, 'listByLeader' | 'seats'>;
  enrollments: Pick<EnrollmentRepository, 'getMany'>;
  campaigns: Pick<CampaignRepository, 'unsubscribeKey'>;
  cipher: SecretCipher;
  mailer: BulkMailer;
  clock: Clock;
  sleep: (ms: number) => Promise<void>;
  appOrigin: string;
  /** Milliseconds left in this run (Lambda's getRemainingTimeInMillis). */
  remainingMs: () => number;
}

/** Leaders read per page of the role index. */
const LEADER_PAGE = 100;

/**
 * The job: every leader (by role, a page at a time) with members on an active licence and the email on gets this
 * week's email once, paced under SES's send rate. Stops early when the run is nearly out of time: the next run
 * (or a re-drive) finds the sent weeks claimed and goes on with the rest.
 */
export const sendWeeklyReports = async (deps: WeeklyReportDeps): Promise<{ sent: number; skipped: number; failed: number; finished: boolean }> => {
  const now = deps.clock.now();
  const week = weekOf(now);
  const outcome = { sent: 0, skipped: 0, failed: 0, finished: false };
  let key: Uint8Array | undefined;
  let pause = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.users.listByRole('leader', cursor, LEADER_PAGE);
    for (const leader of page.items) {
      if (deps.remainingMs() < STOP_MARGIN_MS) return outcome;
      const settings = await deps.leaderSettings.get(leader.id);
      if (leader.disabled || settings?.weeklyReport === false || settings?.lastWeeklyReport === week) {
        outcome.skipped++;
        continue;
      }
      const members = (await teamOf(deps, leader.id, now)).groups.flat();
      if (members.length === 0 || !(await deps.leaderSettings.claimWeeklyReport(leader.id, week))) {
        outcome.skipped++;
        continue;
      }
      key ??= await unsubscribeKey(deps);
      pause ||= 1000 / Math.max(1, await deps.mailer.maxSendRate());
      const url = unsubscribeUrl(deps.appOrigin, key, leader.email, 'weekly-report');
      const message = weeklyReportEmail({ appOrigin: deps.appOrigin, name: settings?.name ?? '', organization: settings?.organization ?? '', week: teamWeek(members, now) });
      const [result] = await deps.mailer.sendBulk({ ...message, entries: [{ to: leader.email, headers: unsubscribeHeaders(url), data: { unsubscribeUrl: url } }] }).catch(() => [undefined]);
      if (result?.ok) outcome.sent++;
      else {
        await deps.leaderSettings.releaseWeeklyReport(leader.id, week);
        outcome.failed++;
      }
      await deps.sleep(pause);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  outcome.finished = true;
  return outcome;
};
