import type { License } from '@contracts/licenses.ts';
import { formatDay } from '@/lib/format-date.ts';
import { leaderMessages as m } from './leader-messages.ts';

/** Whether a licence gives no access any more: ended, or past its end date (before the daily job marks it ended). */
export const isEnded = (license: Pick<License, 'status' | 'expiresAt'>, now: Date = new Date()): boolean =>
  license.status === 'ended' || (license.expiresAt !== null && Date.parse(license.expiresAt) <= now.getTime());

/** '3 of 10 seats used', '0 of 1 seat used'. */
export const seatsUsedLabel = (license: Pick<License, 'seatsUsed' | 'seatsTotal'>): string =>
  `${license.seatsUsed.toLocaleString('en-GB')} of ${license.seatsTotal.toLocaleString('en-GB')} ${license.seatsTotal === 1 ? 'seat' : 'seats'} used`;

/** Seats in use as a percentage, for a bar. */
export const seatsPercent = (license: Pick<License, 'seatsUsed' | 'seatsTotal'>): number =>
  license.seatsTotal === 0 ? 0 : Math.round((license.seatsUsed / license.seatsTotal) * 100);

/** The licence's last day ('31 Dec 2026'), or 'No end date'. */
export const endDateLabel = (license: Pick<License, 'expiresAt'>): string => (license.expiresAt === null ? m.licenses.noEndDate : formatDay(license.expiresAt));

/** 'Bought 20 Nov 2026' (on the course's page) or 'Granted 20 Nov 2026' (by the creator). */
export const sourceLabel = (license: Pick<License, 'source' | 'createdAt'>): string =>
  `${license.source === 'purchased' ? 'Bought' : 'Granted'} ${formatDay(license.createdAt)}`;

/**
 * How the group picker names a licence: its course; two licences of one course are told apart by their start day,
 * and an ended one says so.
 */
export const licenseName = (license: License, all: License[], now: Date = new Date()): string => {
  const twin = all.some((other) => other.id !== license.id && other.courseTitle === license.courseTitle);
  return `${license.courseTitle}${twin ? ` (${sourceLabel(license).toLowerCase()})` : ''}${isEnded(license, now) ? ' · Ended' : ''}`;
};
