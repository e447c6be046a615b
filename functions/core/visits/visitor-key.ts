import { createHash } from 'node:crypto';
import type { VisitMarks } from '#core/ports.ts';

/** Who asked, as the edge saw them (functions/middleware/http-route.ts `viewer`). */
export interface VisitorSeen {
  ip: string;
  userAgent: string;
}

/**
 * The mark of one visitor's visit to one thing on one UTC day: SHA-256 of the day, the thing (`course-view:<id>`,
 * `affiliate-click:<code>`), the address and the user agent, base64url. The same visitor the same day makes the same
 * mark; another address, browser or day another one. The address itself is never stored, and the mark differs per
 * thing, so marks cannot be joined into one visitor's trail.
 */
export const visitMark = (thing: string, visitor: VisitorSeen, now: Date): string =>
  createHash('sha256')
    .update(`${now.toISOString().slice(0, 10)}\n${thing}\n${visitor.ip}\n${visitor.userAgent}`)
    .digest('base64url');

/** A mark is kept until the end of the day after its own (UTC): long enough to cover its day, then DynamoDB's TTL drops it. */
export const markExpiry = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 2));

/** Counts `count` only for a visitor's first time today: the mark's conditional write decides. */
export const countOnce = async (
  marks: VisitMarks,
  thing: string,
  visitor: VisitorSeen,
  now: Date,
): Promise<boolean> => marks.markFirst(visitMark(thing, visitor, now), markExpiry(now));
