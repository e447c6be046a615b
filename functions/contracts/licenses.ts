import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * Team licences: seats on a course that a group leader assigns to learners (API.md "Team licences"; docs/api.md
 * "Team licences (issue 14)"). A licence is granted by the course's creator (sold outside the platform) or bought
 * on the course's public page.
 */

export const LICENSE_SEATS_MAX = 10_000;
export const licenseStatuses = ['active', 'ended'] as const;

const email = z.email().max(254).transform((value) => value.toLowerCase());

/** POST /api/courses/{courseId}/licenses: a licence sold outside the platform, for a leader's email. */
export const grantLicenseBody = z.strictObject({
  leaderEmail: email,
  seats: z.number().int().min(1).max(LICENSE_SEATS_MAX),
  /** The last moment the licence gives access; absent: no end. */
  expiresAt: isoDate.optional(),
});
export type GrantLicenseBody = z.infer<typeof grantLicenseBody>;

export const license = z.object({
  id: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  leaderEmail: z.string(),
  seatsTotal: z.number().int().min(0),
  seatsUsed: z.number().int().min(0),
  expiresAt: isoDate.nullable(),
  /** `ended` once its end date passed (or the creator ended it): its seats give no access. */
  status: z.enum(licenseStatuses),
  source: z.enum(['granted', 'purchased']),
  createdAt: isoDate,
  /**
   * The leader's list (issue 29): whether the licence's creator's plan includes `bulkMembers` (Pro), which a leader's
   * bulk member import (a CSV file, several emails at once) needs; the one-by-one form works on every licence. Always
   * present on the leader's list (its creator's plan, read when listed); absent on the creator's lists.
   */
  bulkMembers: z.boolean().optional(),
});
export type License = z.infer<typeof license>;
/** GET /api/courses/{courseId}/licenses and GET /api/leader/licenses (?cursor=&limit=): newest first, a page at a time (`nextCursor` null on the last). */
export const licenseList = z.object({ items: z.array(license), nextCursor: z.string().nullable() });
export type LicenseList = z.infer<typeof licenseList>;

/** PATCH /api/courses/{courseId}/licenses/{licenseId}: more (or fewer, not below those in use) seats, a new end date, or the end now. */
export const updateLicenseBody = z
  .strictObject({
    seatsTotal: z.number().int().min(1).max(LICENSE_SEATS_MAX).optional(),
    expiresAt: isoDate.nullable().optional(),
    status: z.literal('ended').optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Send at least one of seatsTotal, expiresAt, status.');
export type UpdateLicenseBody = z.infer<typeof updateLicenseBody>;

/** One member of one of the leader's licences, with their progress in its course. */
export const reportRow = z.object({
  email: z.string(),
  licenseId: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  status: z.enum(['active', 'revoked']),
  progress: z.number().int().min(0).max(100),
  lastActivity: isoDate.nullable(),
  completedAt: isoDate.nullable(),
  /** The member's certificate (its public page) while it stands; null before completion or once revoked. */
  certificate: z.string().nullable(),
});
export type ReportRow = z.infer<typeof reportRow>;

/** GET /api/leader/summary: the leader dashboard's figures, over the leader's active licences. */
export const leaderSummary = z.object({
  /** Learners holding a seat of an active licence. */
  members: z.number().int().min(0),
  activeLicenses: z.number().int().min(0),
  seatsTotal: z.number().int().min(0),
  /** Whole percent of those members who completed their course; null without members. */
  completionRate: z.number().int().min(0).max(100).nullable(),
  completed: z.number().int().min(0),
  /** Certificates those members hold (revoked ones do not count). */
  certificates: z.number().int().min(0),
  /** Licences that give access and have at least one member. */
  groups: z.number().int().min(0),
  /** Those members most recently active (at most 6), for the dashboard's team list. */
  recent: z.array(reportRow).max(6),
});
export type LeaderSummary = z.infer<typeof leaderSummary>;

/** A member's place in their course, as the report filters it: nothing done yet, started, or completed. */
export const progressStates = ['not-started', 'in-progress', 'completed'] as const;
export type ProgressState = (typeof progressStates)[number];

/** Rows in one page of the report unless `limit` says otherwise. */
export const REPORT_PAGE_SIZE = 25;
export const REPORT_PAGE_MAX = 200;

/**
 * GET /api/leader/reports: `format` json (default, one page: `cursor` from the previous page) or csv (every row that
 * matches, as a link to the file: reportExport); optionally one licence, seats of one status, one progress state, and part of an email (`q`).
 */
export const reportQuery = z.strictObject({
  format: z.enum(['json', 'csv']).default('json'),
  /**
   * csv only: 'file' (the default) answers a redirect to the file itself, so a client that follows redirects gets the
   * CSV; 'link' answers `{url, expiresAt, rows}` (the web app's download button).
   */
  delivery: z.enum(['file', 'link']).default('file'),
  licenseId: z.string().min(1).max(100).optional(),
  status: z.enum(['active', 'revoked']).optional(),
  progress: z.enum(progressStates).optional(),
  q: z.string().trim().max(254).optional(),
  cursor: z.string().min(1).max(1000).optional(),
  limit: z.coerce.number().int().min(1).max(REPORT_PAGE_MAX).default(REPORT_PAGE_SIZE),
});
export type ReportQuery = z.input<typeof reportQuery>;

export const report = z.object({ items: z.array(reportRow), nextCursor: z.string().nullable() });

/**
 * GET /api/leader/reports?format=csv&delivery=link: the CSV of every matching row, written to storage a page at a time
 * and answered as a link (issue 28): `url` downloads it as team-report.csv until `expiresAt`; `rows` is how many it holds.
 */
export const reportExport = z.object({ url: z.url(), expiresAt: z.string(), rows: z.number().int().min(0) });
export type ReportExport = z.infer<typeof reportExport>;
export type Report = z.infer<typeof report>;

/** GET /api/leader/settings: the leader's profile and their choice of the weekly team email. */
export const leaderSettings = z.object({
  email: z.string(),
  /** How the leader signs (the weekly email's greeting); empty until set. */
  name: z.string(),
  /** The team or company the leader runs; empty until set. */
  organization: z.string(),
  /** The weekly team progress email (Monday mornings): on unless the leader turned it off or unsubscribed. */
  weeklyReport: z.boolean(),
  updatedAt: isoDate.nullable(),
});
export type LeaderSettings = z.infer<typeof leaderSettings>;

/** PUT /api/leader/settings. */
export const leaderSettingsBody = z.strictObject({
  name: z.string().trim().max(100),
  organization: z.string().trim().max(120),
  weeklyReport: z.boolean(),
});
export type LeaderSettingsBody = z.infer<typeof leaderSettingsBody>;

/** POST /api/leader/licenses/{licenseId}/seats. */
export const assignSeatBody = z.strictObject({ email });
export type AssignSeatBody = z.infer<typeof assignSeatBody>;

/** A leader's import of members from a file (issue 29: `bulkMembers`, licences of Pro creators), a chunk at a time. */
export const IMPORT_MEMBERS_MAX = 25;
export const importMembersBody = z.strictObject({ emails: z.array(email).min(1).max(IMPORT_MEMBERS_MAX) });
export type ImportMembersBody = z.infer<typeof importMembersBody>;
/** Each email's outcome, in the order sent: its seat, or why it has none (the error a single assignment answers). */
export const importMembersResult = z.object({
  results: z.array(z.union([z.object({ email: z.string(), status: z.literal('active') }), z.object({ email: z.string(), error: z.object({ code: z.string(), message: z.string() }) })])),
});
export type ImportMembersResult = z.infer<typeof importMembersResult>;

export const seat = z.object({
  email: z.string(),
  status: z.enum(['active', 'revoked']),
});
export type Seat = z.infer<typeof seat>;

/** A member of a licence as the leader sees them: the seat and the learner's progress in the course. */
export const member = seat.extend({
  learnerId: z.string(),
  assignedAt: isoDate,
  progress: z.number().int().min(0).max(100),
  lastActivity: isoDate.nullable(),
  completedAt: isoDate.nullable(),
});
export type Member = z.infer<typeof member>;
export const memberList = z.object({ items: z.array(member), nextCursor: z.string().nullable() });
export type MemberList = z.infer<typeof memberList>;
