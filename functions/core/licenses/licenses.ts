import type { GrantLicenseBody, ImportMembersResult, LeaderSummary, License, LicenseList, MemberList, ProgressState, Report, ReportRow, Seat, UpdateLicenseBody } from '#contracts/licenses.ts';
import { PAGE_SIZE, type PageRequest } from '#contracts/common.ts';
import { accountOrInvite } from '#core/accounts/create-account.ts';
import { csv, exportCsvPages } from '#core/csv.ts';
import { ownCourse } from '#core/courses/courses.ts';
import { invitationEmail, leaderInvitationEmail } from '#core/enrollments/invitation-email.ts';
import { hasFeature, planLimits, type PlanLevel } from '#contracts/entitlements.ts';
import { creatorPlanOf } from '#core/billing/subscription-state.ts';
import { AppError, ConflictError, NoSeatsLeftError, NotFoundError, PlanRequiredError, ValidationError } from '#core/errors.ts';
import { licenseGivesAccess } from '#core/licenses/access.ts';
import { checkMailOnBehalf, type OnBehalfDeps } from '#core/mail/on-behalf.ts';
import { verifyUrl } from '#core/certificates/credentials.ts';
import type { SliceWork } from '#core/jobs/slices.ts';
import type { BillingRepository, Clock, CourseRepository, Directory, EnrollmentProgress, EnrollmentRepository, ExportFiles, Ids, LicenseRepository, MailSchool, MailSchoolOf, Mailer, StoredLicense, StoredSeat, User, UserRepository } from '#core/ports.ts';

/**
 * Team licences (API.md "Team licences"; decision 0019): a creator grants seats on a course to a group leader's email
 * (the leader's account is made and invited when new); the leader assigns seats to learners by email (new ones are
 * invited), each seat taken by a conditional write so a licence is never over-assigned, and revokes them (access
 * ends, progress is kept, the seat is free again). A leader sees only their own licences, a creator only the licences
 * of their own courses: anything else is 404.
 */

export const LICENSE_NOT_FOUND = 'Licence not found.';
export const SEAT_NOT_FOUND = 'That email has no seat on this licence.';
export const NOT_A_LEADER = 'That email belongs to an account that cannot lead a team. Use another email.';
export const NOT_A_LEARNER = 'That email belongs to an account that cannot take courses. Use another email.';
export const LICENSE_ENDED = 'This licence has ended: its seats no longer give access.';

/** The licence a team order buys: one per order (its id derived from the order's, so a redelivery makes no second). */
export const licenseIdOf = (orderId: string): string => `lic_${orderId}`;

/**
 * A licence ended (its team order refunded or disputed): no more access through it. The learners holding its seats
 * lose the course (their progress is kept); the licence is ended last, so a failure halfway is finished by a retry.
 */
export const endLicense = async (
  deps: { licenses: Pick<LicenseRepository, 'get' | 'seats' | 'end'>; enrollments: Pick<EnrollmentRepository, 'remove'>; clock: Clock },
  licenseId: string,
): Promise<void> => {
  const license = await deps.licenses.get(licenseId);
  if (!license) return;
  for (const seat of await deps.licenses.seats(licenseId)) {
    if (seat.status === 'active') await deps.enrollments.remove(license.courseId, seat.learnerId);
  }
  await deps.licenses.end(licenseId, deps.clock.now().toISOString());
};

/** Due licences read per page of the ending index; seats read per page of a licence. */
export const EXPIRY_PAGE = 100;
export const SEAT_PAGE = 100;
/** A licence with more seats than this is ended in a lane of its own, so it holds up no other (issue 28). */
export const LANE_SEATS = 100;

type ExpiryDeps = { licenses: Pick<LicenseRepository, 'endingBy' | 'get' | 'seatsAfter' | 'end'>; enrollments: Pick<EnrollmentRepository, 'remove'>; clock: Clock };
type ExpiryCounts = { ended: number; seats: number; lanes: number };

/**
 * A licence's seat holders lose the course, from the seat after `after` (an email; none: the first), the time checked
 * before each seat but the first: the email to go on after when time ran out, undefined when every seat is done.
 * Removing an enrolment twice changes nothing ('missing'), so a slice delivered again loses and doubles nothing.
 */
const endSeats = async (deps: ExpiryDeps, license: StoredLicense, after: string | undefined, timeUp: () => boolean, counts: ExpiryCounts): Promise<string | undefined> => {
  let from = after;
  let handled = 0;
  for (;;) {
    const page = await deps.licenses.seatsAfter(license.id, { after: from, limit: SEAT_PAGE });
    for (const seat of page.seats) {
      if (handled > 0 && timeUp()) return from ?? '';
      if (seat.status === 'active' && (await deps.enrollments.remove(license.courseId, seat.learnerId)) === 'removed') counts.seats++;
      handled++;
      from = seat.email;
    }
    if (!page.more) return undefined;
    from = page.last ?? from;
  }
};

/** The lane that ends one licence: its seats from `cursor`, then the licence. */
const laneOf = (license: Pick<StoredLicense, 'id'>, cursor?: string) => ({ lane: license.id, ...(cursor !== undefined ? { cursor } : {}), input: { licenseId: license.id } });

/**
 * The daily job (a sliced run, decision 0033): every licence whose end date has passed is ended, its seat holders
 * losing the course (progress kept), the licence marked ended last, once its seats are done (a slice killed halfway
 * is delivered again and finishes it; a second run finds it ended). The main lane pages the ending index after its
 * cursor (the last licence it dealt with); a licence of more than LANE_SEATS seats, or one whose seats the slice had no
 * time to finish, goes on in a lane of its own (named by the licence: a slice delivered again opens the same lane,
 * which the queue drops), so one licence of 400 seats holds up no other.
 */
export const endExpiredLicenses =
  (deps: ExpiryDeps): SliceWork<ExpiryCounts> =>
  async (slice, timeUp) => {
    const now = deps.clock.now().toISOString();
    const counts: ExpiryCounts = { ended: 0, seats: 0, lanes: 0 };
    const licenseId = slice.input?.['licenseId'];
    if (typeof licenseId === 'string') {
      const license = await deps.licenses.get(licenseId);
      if (license?.status !== 'active') return { counts };
      const rest = await endSeats(deps, license, slice.cursor, timeUp, counts);
      if (rest !== undefined) return { cursor: rest, counts };
      if (await deps.licenses.end(license.id, now)) counts.ended++;
      return { counts };
    }
    const lanes: ReturnType<typeof laneOf>[] = [];
    let after = slice.cursor ? (JSON.parse(slice.cursor) as { expiresAt: string; id: string }) : undefined;
    let handled = 0;
    for (;;) {
      const page = await deps.licenses.endingBy(now, EXPIRY_PAGE, after);
      for (const license of page.items) {
        if (handled > 0 && timeUp()) return { cursor: JSON.stringify(after), lanes, counts };
        handled++;
        const rest = license.seatsTotal > LANE_SEATS ? '' : await endSeats(deps, license, undefined, timeUp, counts);
        if (rest === undefined) {
          if (await deps.licenses.end(license.id, now)) counts.ended++;
        } else {
          lanes.push(laneOf(license, rest || undefined));
          counts.lanes++;
        }
        after = { expiresAt: license.expiresAt!, id: license.id };
      }
      if (!page.next) return { lanes, counts };
      after = page.next;
    }
  };

export const seatsOverStarter = (max: number): string =>
  `Team licences of more than ${max} seats are part of the Pro plan (advanced licensing): upgrade to Pro, or give the licence ${max} seats or fewer.`;
export const EXPIRY_IS_PRO = 'End dates on team licences are part of the Pro plan (advanced licensing): upgrade to Pro, or leave the licence without an end date.';

/**
 * What a creator's plan lets a licence be (issue 29 point 5): Starter up to `planLimits.starter.teamLicenseSeats` seats
 * and no end date; Pro (`advancedLicensing`) any size with end dates; no plan, no licence. `seats` is a new size (a
 * grant, or a raise: lowering a licence is always allowed), `expiresAt` a new end date (removing one is always allowed).
 * Refused with 403 PLAN_REQUIRED saying why. Only new terms are checked: a licence made under Pro keeps its seats and end
 * date after a downgrade.
 */
export const checkLicenseTerms = (plan: PlanLevel, terms: { seats?: number | undefined; expiresAt?: string | null | undefined }): void => {
  if (!hasFeature(plan, 'teamLicenses')) throw new PlanRequiredError('starter');
  if (hasFeature(plan, 'advancedLicensing')) return;
  const max = planLimits[plan].teamLicenseSeats;
  if (terms.seats !== undefined && max !== null && terms.seats > max) throw new PlanRequiredError('pro', seatsOverStarter(max));
  if (terms.expiresAt) throw new PlanRequiredError('pro', EXPIRY_IS_PRO);
};

const view = (l: StoredLicense): License => ({
  id: l.id,
  courseId: l.courseId,
  courseTitle: l.courseTitle,
  leaderEmail: l.leaderEmail,
  seatsTotal: l.seatsTotal,
  seatsUsed: l.seatsUsed,
  expiresAt: l.expiresAt,
  status: l.status,
  source: l.source,
  createdAt: l.createdAt,
});

interface AccountDeps extends OnBehalfDeps {
  users: UserRepository;
  directory: Directory;
  mailer: Mailer;
  clock: Clock;
  appOrigin: string;
  /** The course's school (issue 32): a branded creator's leaders and learners are invited by it. */
  mailSchool: MailSchoolOf;
  temporaryPassword: () => string;
}

/** The account behind an email (accountOrInvite), or 409 with `refused` for an account of another role. */
const accountFor = async (deps: AccountDeps, input: Parameters<typeof accountOrInvite>[1] & { refused: string }): Promise<User> => {
  const account = await accountOrInvite(deps, input);
  if (!account) throw new ConflictError(input.refused);
  return account.user;
};

export interface GrantLicenseDeps extends AccountDeps {
  courses: Pick<CourseRepository, 'getCourse'>;
  licenses: Pick<LicenseRepository, 'create'>;
  ids: Ids;
}

/**
 * POST /api/courses/{courseId}/licenses: 1. the creator's own course (404 otherwise); 2. an end date, when given, in
 * the future; 2b. terms the creator's plan allows (checkLicenseTerms: 403 PLAN_REQUIRED); 3. the leader: their account, or a new group leader invited by email (another role is 409); 4. the
 * licence, with no seat used.
 */
export const grantLicense = async (deps: GrantLicenseDeps, input: { creatorId: string; courseId: string; body: GrantLicenseBody }): Promise<License> => {
  const [course, school] = await Promise.all([ownCourse(deps, input.creatorId, input.courseId), deps.mailSchool(input.creatorId)]);
  const now = deps.clock.now();
  if (input.body.expiresAt && Date.parse(input.body.expiresAt) <= now.getTime()) {
    throw new ValidationError('The end date is in the past.', [{ path: ['expiresAt'], message: 'Choose a date in the future.' }]);
  }
  checkLicenseTerms(await creatorPlanOf(deps, input.creatorId), { seats: input.body.seats, expiresAt: input.body.expiresAt });
  const leader = await accountFor(deps, {
    email: input.body.leaderEmail,
    role: 'leader',
    refused: NOT_A_LEADER,
    invitation: (temporaryPassword) =>
      leaderInvitationEmail({ appOrigin: deps.appOrigin, email: input.body.leaderEmail, courseTitle: course.title, seats: input.body.seats, temporaryPassword, school }),
    // A creator's invitation: verified, within a trial's daily cap (core/mail/on-behalf.ts).
    beforeInvite: () => checkMailOnBehalf(deps, input.creatorId, 'trial-capped'),
  });
  const license: StoredLicense = {
    id: deps.ids.newId(),
    courseId: course.id,
    courseTitle: course.title,
    creatorId: course.creatorId,
    leaderId: leader.id,
    leaderEmail: leader.email,
    seatsTotal: input.body.seats,
    seatsUsed: 0,
    expiresAt: input.body.expiresAt ?? null,
    status: 'active',
    source: 'granted',
    orderId: null,
    createdAt: now.toISOString(),
  };
  await deps.licenses.create(license);
  return view(license);
};

/** GET /api/courses/{courseId}/licenses?cursor=&limit=: the licences of the creator's own course, newest first, a page at a time. */
export const courseLicenses = async (
  deps: { courses: Pick<CourseRepository, 'getCourse'>; licenses: Pick<LicenseRepository, 'pageByCourse'> },
  input: { creatorId: string; courseId: string } & Partial<PageRequest>,
): Promise<LicenseList> => {
  await ownCourse(deps, input.creatorId, input.courseId);
  const page = await deps.licenses.pageByCourse(input.courseId, { cursor: input.cursor, limit: input.limit ?? PAGE_SIZE });
  return { items: page.items.map(view), nextCursor: page.nextCursor };
};

/**
 * PATCH /api/courses/{courseId}/licenses/{licenseId}: the creator changes a licence of their own course: its seats
 * (never below those in use: 409), its end date (in the future, or none), or ends it now (its members lose the
 * course, progress kept). An ended licence cannot change (409). More seats or an end date: terms the creator's plan
 * allows (checkLicenseTerms: 403 PLAN_REQUIRED); fewer seats, no end date, or the end now: whatever the plan.
 */
export const updateLicense = async (
  deps: {
    courses: Pick<CourseRepository, 'getCourse'>;
    licenses: Pick<LicenseRepository, 'get' | 'update' | 'seats' | 'end'>;
    enrollments: Pick<EnrollmentRepository, 'remove'>;
    billing: Pick<BillingRepository, 'getSubscription'>;
    clock: Clock;
  },
  input: { creatorId: string; courseId: string; licenseId: string; body: UpdateLicenseBody },
): Promise<License> => {
  await ownCourse(deps, input.creatorId, input.courseId);
  const license = await deps.licenses.get(input.licenseId);
  if (license?.courseId !== input.courseId) throw new NotFoundError(LICENSE_NOT_FOUND);
  if (license.status !== 'active') throw new ConflictError(LICENSE_ENDED);
  const { seatsTotal, expiresAt, status } = input.body;
  if (expiresAt && Date.parse(expiresAt) <= deps.clock.now().getTime()) {
    throw new ValidationError('The end date is in the past.', [{ path: ['expiresAt'], message: 'Choose a date in the future, or end the licence now.' }]);
  }
  const raised = seatsTotal !== undefined && seatsTotal > license.seatsTotal;
  if (raised || expiresAt) checkLicenseTerms(await creatorPlanOf(deps, input.creatorId), { ...(raised ? { seats: seatsTotal } : {}), expiresAt });
  let saved: StoredLicense = license;
  if (seatsTotal !== undefined || expiresAt !== undefined) {
    const updated = await deps.licenses.update(license.id, { ...(seatsTotal === undefined ? {} : { seatsTotal }), ...(expiresAt === undefined ? {} : { expiresAt }) });
    if (updated === 'too-few') throw new ConflictError(`More seats are in use than ${seatsTotal ?? 0}: free some first.`);
    if (!updated) throw new ConflictError(LICENSE_ENDED);
    saved = updated;
  }
  if (status === 'ended') {
    await endLicense(deps, license.id);
    saved = { ...saved, status: 'ended' };
  }
  return view(saved);
};

/**
 * GET /api/leader/licenses?cursor=&limit=: the leader's own licences, newest first, a page at a time, each with
 * `bulkMembers`: whether its creator's plan includes the import of members (issue 29 point 5), so the screen locks the
 * import before a click fails. One subscription read per distinct creator on the page, side by side.
 */
export const leaderLicenses = async (
  deps: { licenses: Pick<LicenseRepository, 'pageByLeader'>; billing: Pick<BillingRepository, 'getSubscription'> },
  input: { leaderId: string } & Partial<PageRequest>,
): Promise<LicenseList> => {
  const page = await deps.licenses.pageByLeader(input.leaderId, { cursor: input.cursor, limit: input.limit ?? PAGE_SIZE });
  const creators = [...new Set(page.items.map((l) => l.creatorId))];
  const plans = new Map(await Promise.all(creators.map(async (creatorId) => [creatorId, await creatorPlanOf(deps, creatorId)] as const)));
  return {
    items: page.items.map((l) => ({ ...view(l), bulkMembers: hasFeature(plans.get(l.creatorId) ?? 'none', 'bulkMembers') })),
    nextCursor: page.nextCursor,
  };
};

/** The leader's own licence, or 404 (another leader's is indistinguishable from a missing one). */
const ownLicense = async (deps: { licenses: Pick<LicenseRepository, 'get'> }, leaderId: string, licenseId: string): Promise<StoredLicense> => {
  const license = await deps.licenses.get(licenseId);
  if (license?.leaderId !== leaderId) throw new NotFoundError(LICENSE_NOT_FOUND);
  return license;
};

/** The dashboard's team list: this many of the most recently active members. */
export const RECENT_MEMBERS = 6;

/**
 * GET /api/leader/summary: over the leader's licences that give access now, the members (active seats), the seats,
 * the groups with members, how many members completed their course, and the most recently active ones (one batch read
 * per 100 members). Certificates are 0 until they exist.
 */
export const leaderSummaryOf = async (
  deps: { licenses: Pick<LicenseRepository, 'listByLeader' | 'seats'>; enrollments: Pick<EnrollmentRepository, 'getMany'>; appOrigin: string; clock: Clock },
  leaderId: string,
): Promise<LeaderSummary> => {
  const { active, groups } = await teamOf(deps, leaderId, deps.clock.now());
  const members = groups.flat();
  const completed = members.filter((m) => m.completedAt !== null).length;
  return {
    members: members.length,
    activeLicenses: active.length,
    seatsTotal: active.reduce((sum, l) => sum + l.seatsTotal, 0),
    completionRate: completionRateOf(members),
    completed,
    certificates: members.filter((m) => m.certificate !== null).length,
    groups: groups.filter((group) => group.length > 0).length,
    recent: members
      .sort((a, b) => (b.lastActivity ?? '').localeCompare(a.lastActivity ?? '') || b.progress - a.progress)
      .slice(0, RECENT_MEMBERS)
      .map(({ learnerId: _l, assignedAt: _a, ...row }) => row),
  };
};

/** Whole percent of the members who completed their course; null without members. */
export const completionRateOf = (members: Pick<ReportRow, 'completedAt'>[]): number | null =>
  members.length === 0 ? null : Math.round((members.filter((m) => m.completedAt !== null).length / members.length) * 100);

/** The leader's licences that give access now, and each one's members holding an active seat, with their progress. */
export const teamOf = async (
  deps: { licenses: Pick<LicenseRepository, 'listByLeader' | 'seats'>; enrollments: Pick<EnrollmentRepository, 'getMany'>; appOrigin: string },
  leaderId: string,
  now: Date,
) => {
  const active = (await deps.licenses.listByLeader(leaderId)).filter((l) => licenseGivesAccess(l, now));
  const groups = await Promise.all(active.map(async (license) => (await membersOf(deps, license)).filter((m) => m.status === 'active')));
  return { active, groups };
};

/** A member's progress in the licence's course from their enrolment (none yet: nothing done; no activity before the first lesson). */
const progressOf = (enrollment: EnrollmentProgress | undefined) => ({
  progress: enrollment?.progress ?? 0,
  lastActivity: enrollment && enrollment.lastActivity !== enrollment.enrolledAt ? enrollment.lastActivity : null,
  completedAt: enrollment?.completedAt ?? null,
});

/** A member's certificate as its public page, while it stands (a revoked one is no longer on the enrolment). */
const certificateLink = (appOrigin: string, certificateId: string | undefined): string | null =>
  certificateId ? verifyUrl({ origin: appOrigin }, certificateId) : null;

/** One report row per seat: the seat and its holder's progress in the licence's course (one batch read per 100 enrolments). */
const rowsOf = async (
  deps: { enrollments: Pick<EnrollmentRepository, 'getMany'>; appOrigin: string },
  license: StoredLicense,
  seats: StoredSeat[],
): Promise<(ReportRow & { learnerId: string; assignedAt: string })[]> => {
  const enrollments = new Map((await deps.enrollments.getMany(license.courseId, seats.map((s) => s.learnerId))).map((e) => [e.learnerId, e]));
  return seats.map((seat) => ({
    email: seat.email,
    licenseId: license.id,
    courseId: license.courseId,
    courseTitle: license.courseTitle,
    status: seat.status,
    learnerId: seat.learnerId,
    assignedAt: seat.assignedAt,
    ...progressOf(enrollments.get(seat.learnerId)),
    certificate: certificateLink(deps.appOrigin, enrollments.get(seat.learnerId)?.certificateId),
  }));
};

/** Every seat of a licence (by email) with its holder's progress: what the members list and the summary are made of. */
const membersOf = async (
  deps: { licenses: Pick<LicenseRepository, 'seats'>; enrollments: Pick<EnrollmentRepository, 'getMany'>; appOrigin: string },
  license: StoredLicense,
) => rowsOf(deps, license, (await deps.licenses.seats(license.id)).sort((a, b) => a.email.localeCompare(b.email)));

/** Where a member stands in their course, as the report's progress filter reads it. */
export const progressStateOf = (row: Pick<ReportRow, 'progress' | 'completedAt'>): ProgressState =>
  row.completedAt !== null ? 'completed' : row.progress > 0 ? 'in-progress' : 'not-started';

export const REPORT_CSV_HEADER = 'email,course,licence,status,progress,last_activity,completed_at,certificate';

/** Seats read at once while a filter drops some (a page without filters reads one more than it needs: the next page's). */
const FILTERED_READ = 100;
/** Seats read at once for the whole report (the CSV). */
const EXPORT_READ = 1000;

/** The report's cursor: the licence and the email of the last row handed out. */
const encodeReportCursor = (position: { licenseId: string; email: string }): string => Buffer.from(JSON.stringify([position.licenseId, position.email])).toString('base64url');

const decodeReportCursor = (cursor: string, licenses: StoredLicense[]): { index: number; after: string } => {
  try {
    const [licenseId, email] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const index = licenses.findIndex((l) => l.id === licenseId);
    if (index >= 0 && typeof email === 'string' && email.length > 0) return { index, after: email };
  } catch {
    // falls through to the refusal
  }
  throw new ValidationError('The cursor is not valid: start again from the first page.');
};

export interface ReportInput {
  leaderId: string;
  licenseId?: string | undefined;
  status?: Seat['status'] | undefined;
  progress?: ProgressState | undefined;
  q?: string | undefined;
  cursor?: string | undefined;
  /** Rows in the page; Infinity: every matching row (the CSV). */
  limit: number;
}

/**
 * GET /api/leader/reports: the members of the leader's licences (or of one: another leader's is 404) with their
 * progress, last activity, completion and certificate, newest licence first and members by email, filtered by seat
 * status, progress state and part of an email. A page reads only the seats it hands out (plus one, to know whether
 * another page follows) and their enrolments, so a 5,000-member licence's first page costs what a 10-member one's
 * does; a filter that drops seats reads on in chunks until the page is full.
 */
export const leaderReport = async (
  deps: { licenses: Pick<LicenseRepository, 'listByLeader' | 'get' | 'seatsAfter'>; enrollments: Pick<EnrollmentRepository, 'getMany'>; appOrigin: string },
  input: ReportInput,
): Promise<Report> => {
  const licenses = input.licenseId ? [await ownLicense(deps, input.leaderId, input.licenseId)] : await deps.licenses.listByLeader(input.leaderId);
  let { index, after } = input.cursor ? decodeReportCursor(input.cursor, licenses) : { index: 0, after: undefined as string | undefined };
  const filtered = input.status !== undefined || input.progress !== undefined || Boolean(input.q);
  const items: ReportRow[] = [];
  let lastRow: { licenseId: string; email: string } | undefined;
  while (index < licenses.length) {
    const license = licenses[index]!;
    const wanted = input.limit - items.length + 1;
    const limit = Number.isFinite(input.limit) ? Math.min(filtered ? Math.max(wanted, FILTERED_READ) : wanted, EXPORT_READ) : EXPORT_READ;
    const page = await deps.licenses.seatsAfter(license.id, { after, limit, status: input.status, q: input.q });
    for (const { learnerId: _l, assignedAt: _a, ...row } of await rowsOf(deps, license, page.seats)) {
      if (input.progress && progressStateOf(row) !== input.progress) continue;
      // A row beyond the page: the page is full and another follows, from the last row handed out.
      if (items.length === input.limit) return { items, nextCursor: lastRow ? encodeReportCursor(lastRow) : null };
      items.push(row);
      lastRow = { licenseId: license.id, email: row.email };
    }
    if (page.more) after = page.last;
    else {
      index += 1;
      after = undefined;
    }
  }
  return { items, nextCursor: null };
};

/** The report as CSV (the same rows; dates as ISO, progress as a whole percent). */
const reportRow = (r: ReportRow): string[] => [r.email, r.courseTitle, r.licenseId, r.status, String(r.progress), r.lastActivity ?? '', r.completedAt ?? '', r.certificate ?? ''];

export const reportCsv = (rows: ReportRow[]): string => csv(REPORT_CSV_HEADER, rows.map(reportRow));


/** Rows per page of an export: one page's rows are all the export holds at a time. */
export const EXPORT_PAGE = 1_000;
export const REPORT_FILE_NAME = 'team-report.csv';

/**
 * GET /api/leader/reports?format=csv: every row the filters match, as a CSV built a page at a time (EXPORT_PAGE rows,
 * the report's own cursor) and written to the export store as it goes, answered as a download link: the function
 * holds one page, whatever the team's size (issue 28). A failure halfway gives the file up.
 */
export const exportReport = (
  deps: Parameters<typeof leaderReport>[0] & { exports: ExportFiles; ids: Ids },
  input: Omit<ReportInput, 'cursor' | 'limit'>,
): Promise<{ url: string; expiresAt: string; rows: number }> =>
  exportCsvPages(
    deps.exports,
    { key: `leader-reports/${input.leaderId}/${deps.ids.newId()}.csv`, fileName: REPORT_FILE_NAME },
    REPORT_CSV_HEADER,
    (cursor) => leaderReport(deps, { ...input, cursor, limit: EXPORT_PAGE }),
    reportRow,
  );

export interface SeatDeps extends AccountDeps {
  licenses: Pick<LicenseRepository, 'get' | 'assign' | 'seat'>;
  enrollments: Pick<EnrollmentRepository, 'enroll' | 'get'>;
}

/**
 * POST /api/leader/licenses/{licenseId}/seats: 1. the leader's own licence, still giving access (409 otherwise);
 * 2. the learner: their account, or a new learner invited by email (another role is 409); one already in the course
 * by other means takes no seat (409); 3. the seat, taken by a conditional write under `seatsUsed < seatsTotal`
 * (409 NO_SEATS_LEFT; never over-assigned, whatever the concurrency); 4. the enrolment (a learner who had a seat
 * before comes back to their progress). Assigning an email that holds a seat already answers it again.
 */
export const assignSeat = async (
  deps: SeatDeps,
  input: { leaderId: string; licenseId: string; email: string },
  /** The course's school, when the caller read it already (an import of many members reads it once). */
  known?: { school: MailSchool | undefined },
): Promise<Seat> => {
  const license = await ownLicense(deps, input.leaderId, input.licenseId);
  const school = known ? known.school : await deps.mailSchool(license.creatorId);
  const now = deps.clock.now();
  if (!licenseGivesAccess(license, now)) throw new ConflictError(LICENSE_ENDED);
  const held = await deps.licenses.seat(license.id, input.email);
  // A free seat first, before any account is made or any mail sent (the conditional assign below still decides a race).
  const noSeatsLeft = () => new NoSeatsLeftError(`Every seat of this licence is taken (${license.seatsTotal} of ${license.seatsTotal}). Free a seat, or ask for more seats.`);
  if (held?.status !== 'active' && license.seatsUsed >= license.seatsTotal) throw noSeatsLeft();
  const learner = await accountFor(deps, {
    email: input.email,
    role: 'learner',
    refused: NOT_A_LEARNER,
    invitation: (temporaryPassword) => invitationEmail({ appOrigin: deps.appOrigin, email: input.email, courseTitle: license.courseTitle, temporaryPassword, school }),
    // A leader's invitation: from a verified leader (leaders are invited, so verified by their invitation).
    beforeInvite: () => checkMailOnBehalf(deps, input.leaderId, 'verified-only'),
  });
  if (held?.status !== 'active' && (await deps.enrollments.get(license.courseId, learner.id))?.status === 'active') {
    throw new ConflictError(`${learner.email} already has this course.`);
  }
  const outcome = await deps.licenses.assign({ licenseId: license.id, email: learner.email, learnerId: learner.id, status: 'active', assignedAt: now.toISOString() });
  if (outcome === 'full') throw noSeatsLeft();
  if (outcome === 'ended') throw new ConflictError(LICENSE_ENDED);
  // Assigned now, or held already (a retry after a failure here): the enrolment either way, once.
  await deps.enrollments.enroll({
    courseId: license.courseId,
    learnerId: learner.id,
    creatorId: license.creatorId,
    learnerEmail: learner.email,
    learnerJoinedAt: learner.createdAt,
    courseTitle: license.courseTitle,
    enrolledAt: now.toISOString(),
    licenseId: license.id,
  });
  return { email: learner.email, status: 'active' };
};

export const BULK_IS_PRO = "Importing members from a file is part of the course creator's Pro plan: add members one by one instead.";

/**
 * POST /api/leader/licenses/{licenseId}/seats/import: a leader's import of members from a file (issue 29 point 5:
 * `bulkMembers`), only on a licence whose creator is on Pro (the creator's plan, not the leader's: 403 PLAN_REQUIRED
 * "pro" otherwise, nothing assigned; the one-by-one form works on every licence). Each email as a single assignment
 * (assignSeat: seats checked first, never over-assigned, an email holding a seat answered again), one after the other;
 * an email refused (no seats left, another role, already in the course) is answered with its error and the rest go on.
 */
export const importMembers = async (deps: SeatDeps, input: { leaderId: string; licenseId: string; emails: string[] }): Promise<ImportMembersResult> => {
  const license = await ownLicense(deps, input.leaderId, input.licenseId);
  if (!hasFeature(await creatorPlanOf(deps, license.creatorId), 'bulkMembers')) throw new PlanRequiredError('pro', BULK_IS_PRO);
  const results: ImportMembersResult['results'] = [];
  const school = await deps.mailSchool(license.creatorId);
  for (const email of [...new Set(input.emails)]) {
    try {
      const seat = await assignSeat(deps, { leaderId: input.leaderId, licenseId: license.id, email }, { school });
      results.push({ email: seat.email, status: 'active' });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ email, error: { code: error.code, message: error.message } });
    }
  }
  return { results };
};

/** DELETE /api/leader/licenses/{licenseId}/seats/{email}: the seat freed, the learner's access to the course ended (progress kept). */
export const revokeSeat = async (
  deps: { licenses: Pick<LicenseRepository, 'get' | 'seat' | 'revoke'>; enrollments: Pick<EnrollmentRepository, 'remove'>; clock: Clock },
  input: { leaderId: string; licenseId: string; email: string },
): Promise<void> => {
  const license = await ownLicense(deps, input.leaderId, input.licenseId);
  const seat = await deps.licenses.seat(license.id, input.email);
  if (seat?.status !== 'active') throw new NotFoundError(SEAT_NOT_FOUND);
  // Access first: if freeing the seat then fails, the next try finds it still held and finishes.
  await deps.enrollments.remove(license.courseId, seat.learnerId);
  if (!(await deps.licenses.revoke(license.id, seat.email, deps.clock.now().toISOString()))) throw new NotFoundError(SEAT_NOT_FOUND);
};

/** The members list's order: active seats first, then revoked ones, each by email (key order). */
const MEMBER_ORDER = ['active', 'revoked'] as const satisfies readonly Seat['status'][];

/** The members list's cursor: the status and email of the last member handed out. */
const encodeMembersCursor = (position: { status: Seat['status']; email: string }): string => Buffer.from(JSON.stringify([position.status, position.email])).toString('base64url');

const decodeMembersCursor = (cursor: string): { phase: number; after: string } => {
  try {
    const [status, email] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const phase = MEMBER_ORDER.findIndex((s) => s === status);
    if (phase >= 0 && typeof email === 'string' && email.length > 0) return { phase, after: email };
  } catch {
    // falls through to the refusal
  }
  throw new ValidationError('The cursor is not valid: start again from the first page.');
};

/**
 * GET /api/leader/licenses/{licenseId}/seats?cursor=&limit=: the licence's members (active seats first, each status by
 * email) with their progress, a page at a time (issue 28: a licence may hold 10,000 seats). A page reads the seats of
 * one status from where the cursor stopped (one more than it hands out, to know whether another page follows; reads
 * grow while the status filter drops seats) and the enrolments of those it hands out only.
 */
export const licenseMembers = async (
  deps: { licenses: Pick<LicenseRepository, 'get' | 'seatsAfter'>; enrollments: Pick<EnrollmentRepository, 'getMany'>; appOrigin: string },
  input: { leaderId: string; licenseId: string } & Partial<PageRequest>,
): Promise<MemberList> => {
  const license = await ownLicense(deps, input.leaderId, input.licenseId);
  const limit = input.limit ?? PAGE_SIZE;
  let { phase, after } = input.cursor ? decodeMembersCursor(input.cursor) : { phase: 0, after: undefined as string | undefined };
  const seats: StoredSeat[] = [];
  let more = false;
  let read = limit + 1;
  while (phase < MEMBER_ORDER.length && !more) {
    const page = await deps.licenses.seatsAfter(license.id, { after, limit: read, status: MEMBER_ORDER[phase] });
    for (const seat of page.seats) {
      // A seat beyond the page: the page is full and another follows, from the last seat handed out.
      if (seats.length === limit) {
        more = true;
        break;
      }
      seats.push(seat);
    }
    if (page.more) after = page.last;
    else {
      phase += 1;
      after = undefined;
    }
    read = Math.min(read * 4, EXPORT_READ);
  }
  const items = (await rowsOf(deps, license, seats)).map(({ email, status, learnerId, assignedAt, progress, lastActivity, completedAt }) => ({
    email,
    status,
    learnerId,
    assignedAt,
    progress,
    lastActivity,
    completedAt,
  }));
  const last = seats.at(-1);
  return { items, nextCursor: more && last ? encodeMembersCursor(last) : null };
};
