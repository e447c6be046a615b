import * as z from 'zod';
import { isoDate } from './common.ts';

/** POST /api/me/exports (202): the export being prepared, new or the one already pending (one at a time per user). */
export const personalExportStarted = z.object({ exportId: z.string() });
export type PersonalExportStarted = z.infer<typeof personalExportStarted>;

/**
 * GET /api/me/exports/{exportId}: `pending` while the job gathers it; `ready` with a download link and when the link
 * stops working (24 hours after it was made); `expired` after that (request a new one).
 */
export const personalExportStatus = z.object({
  status: z.enum(['pending', 'ready', 'expired']),
  url: z.string().optional(),
  expiresAt: isoDate.optional(),
});
export type PersonalExportStatus = z.infer<typeof personalExportStatus>;

/** How long the emailed link (and the page's) works: 24 hours from when the ZIP was written. */
export const PERSONAL_EXPORT_LINK_HOURS = 24;
