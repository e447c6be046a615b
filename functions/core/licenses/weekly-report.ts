import { emailHtml, escapeHtml, PRODUCT_NAME, type EmailMessage } from '#core/accounts/password-reset-email.ts';
import { unsubscribeHeaders, unsubscribeKey, unsubscribeUrl } from '#core/campaigns/campaigns.ts';
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
  User,
  UserRepository,
} from '#core/ports.ts';
import { pacer, platformMailRate, sendRateOr1 } from '#core/jobs/pace.ts';
import { REPORT_LANES_AT_ONCE } from '#core/licenses/report-lanes.ts';
import type { SliceWork } from '#core/jobs/slices.ts';

/**
 * The weekly team email (issue 14): every Monday each group leader who has not turned it off gets, over their
 * licences that give access, the members who completed their course in the last 7 days and those who have stalled
 * (an active seat, not completed, no activity for 7 days), with a link to their reports and a one-click unsubscribe
 * (RFC 8058) that turns off this email only. A leader without members gets nothing. Each leader's week is held by the
 * run before the send (a second run or delivery sends nothing twice; the same run's slice retried after a kill takes
 * it again, so nothing is lost), recorded as sent after it, and given back if SES refuses it.
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
  leaderSettings: Pick<LeaderSettingsRepository, 'get' | 'claimWeeklyReport' | 'completeWeeklyReport' | 'releaseWeeklyReport'>;
  licenses: Pick<LicenseRepository, 'listByLeader' | 'seats'>;
  enrollments: Pick<EnrollmentRepository, 'getMany'>;
  campaigns: Pick<CampaignRepository, 'unsubscribeKey'>;
  cipher: SecretCipher;
  mailer: BulkMailer;
  clock: Clock;
  sleep: (ms: number) => Promise<void>;
  appOrigin: string;
}

/** Leaders read per page of the role index: each page is one lane of the run. */
export const LEADER_PAGE = 100;
/** Lanes of a run sending at once: each paces its sends at this share of the platform's part of SES's rate. */
export { REPORT_LANES_AT_ONCE };
/** Passes of a lane over its page: a leader whose send SES refused (the week given back) is tried again in the next. */
export const REPORT_PASSES = 3;
/**
 * How long a run holds a leader's week while it sends it: longer than any slice (its function's timeout), so no other
 * run sends it meanwhile; a run that died holding it leaves it to any run after this.
 */
export const REPORT_HOLD_MS = 15 * 60 * 1000;

type ReportCounts = { sent: number; skipped: number; failed: number; lanes: number };

/** The run's main lane: the week it sends, where the role index goes on, the number of the next page. */
interface MainCursor {
  week: string;
  next: string | null;
  page: number;
}

/**
 * The job (a sliced run, decision 0033), fanned out: its main lane pages the role index (leaders only read, nothing
 * sent) and opens a lane per page of LEADER_PAGE leaders, named by the page's number (a slice delivered again opens
 * the same lanes, which the queue drops); the lanes send in parallel. Every leader is reached every week, the oldest
 * as the newest. The week is the run's, fixed by its first slice.
 */
export const sendWeeklyReports =
  (deps: WeeklyReportDeps): SliceWork<ReportCounts> =>
  async (slice, timeUp) => {
    const counts: ReportCounts = { sent: 0, skipped: 0, failed: 0, lanes: 0 };
    const from = slice.input?.['from'];
    const week = slice.input?.['week'];
    if (typeof from === 'string' && typeof week === 'string') return leaderLane(deps, { run: slice.run, from, week, cursor: slice.cursor ? (JSON.parse(slice.cursor) as LaneCursor) : { pass: 1 } }, timeUp, counts);
    const at: MainCursor = slice.cursor ? (JSON.parse(slice.cursor) as MainCursor) : { week: weekOf(deps.clock.now()), next: null, page: 0 };
    const lanes: { lane: string; input: { from: string; week: string } }[] = [];
    for (;;) {
      if (lanes.length > 0 && timeUp()) return { cursor: JSON.stringify(at), lanes, counts };
      const page = await deps.users.listByRole('leader', at.next ?? undefined, LEADER_PAGE);
      if (page.items.length > 0) {
        lanes.push({ lane: `p${at.page}`, input: { from: at.next ?? '', week: at.week } });
        counts.lanes++;
      }
      if (!page.nextCursor) return { lanes, counts };
      at.next = page.nextCursor;
      at.page++;
    }
  };

/**
 * One lane: its page of leaders, each checked against the time (but the slice's first), each getting this week's
 * email once (claimed before the send; given back when SES refuses it), paced. Cut short by the time, the lane goes
 * on after the last leader it dealt with (from its page's start if that leader left the page meanwhile: the leaders
 * done are skipped at the cost of a read); a pass that had refusals is followed by another, up to REPORT_PASSES.
 */
const leaderLane = async (deps: WeeklyReportDeps, lane: { run: string; from: string; week: string; cursor: LaneCursor }, timeUp: () => boolean, counts: ReportCounts) => {
  const now = deps.clock.now();
  const rate = platformMailRate(await sendRateOr1(() => deps.mailer.maxSendRate())) / REPORT_LANES_AT_ONCE;
  const pace = pacer(rate, { now: () => Date.now(), sleep: deps.sleep });
  const key: { value?: Uint8Array } = {};
  const { items } = await deps.users.listByRole('leader', lane.from || undefined, LEADER_PAGE);
  const start = lane.cursor.after === undefined ? 0 : items.findIndex((leader) => leader.id === lane.cursor.after) + 1;
  let handled = 0;
  for (const leader of items.slice(start)) {
    if (handled > 0 && timeUp()) {
      const cursor: LaneCursor = { pass: lane.cursor.pass, after: items[start + handled - 1]!.id, ...(counts.failed > 0 || lane.cursor.failed ? { failed: true } : {}) };
      return { cursor: JSON.stringify(cursor), counts };
    }
    counts[await reportTo(deps, leader, lane, now, key, pace)] += 1;
    handled++;
  }
  const failed = counts.failed > 0 || lane.cursor.failed === true;
  if (failed && lane.cursor.pass < REPORT_PASSES) return { cursor: JSON.stringify({ pass: lane.cursor.pass + 1 }), counts };
  return { counts };
};

/** Where a lane stands: its pass over the page, the last leader dealt with, whether a send of this pass failed. */
interface LaneCursor {
  pass: number;
  after?: string;
  failed?: boolean;
}

/** One leader's email this week: skipped (off, no members, disabled, or already claimed), sent, or failed (given back). */
const reportTo = async (
  deps: WeeklyReportDeps,
  leader: User,
  { run, week }: { run: string; week: string },
  now: Date,
  key: { value?: Uint8Array },
  pace: () => Promise<void>,
): Promise<'sent' | 'skipped' | 'failed'> => {
  const settings = await deps.leaderSettings.get(leader.id);
  if (leader.disabled || settings?.weeklyReport === false || settings?.lastWeeklyReport === week) return 'skipped';
  const members = (await teamOf(deps, leader.id, now)).groups.flat();
  const hold = { run, now: deps.clock.now().toISOString(), until: new Date(deps.clock.now().getTime() + REPORT_HOLD_MS).toISOString() };
  if (members.length === 0 || !(await deps.leaderSettings.claimWeeklyReport(leader.id, week, hold))) return 'skipped';
  key.value ??= await unsubscribeKey(deps);
  const url = unsubscribeUrl(deps.appOrigin, key.value, leader.email, 'weekly-report');
  const message = weeklyReportEmail({ appOrigin: deps.appOrigin, name: settings?.name ?? '', organization: settings?.organization ?? '', week: teamWeek(members, now) });
  await pace();
  const [result] = await deps.mailer.sendBulk({ ...message, entries: [{ to: leader.email, headers: unsubscribeHeaders(url), data: { unsubscribeUrl: url } }] }).catch(() => [undefined]);
  if (result?.ok) {
    // Not recorded (the table failing after the send): the hold keeps other runs off until it ends; this run's retried
    // slice would send it again (at least once, as every email: decision 0023).
    await deps.leaderSettings.completeWeeklyReport(leader.id, week);
    return 'sent';
  }
  await deps.leaderSettings.releaseWeeklyReport(leader.id, week);
  return 'failed';
};
