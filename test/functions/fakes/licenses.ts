import type { LicenseRepository, StoredLicense, StoredSeat } from '#core/ports.ts';
import { pageOf } from './paging.ts';
import { withHooks } from './hooks.ts';

/** Licences and seats in memory, with the conditions of functions/data/licenses.ts (a seat only under seatsUsed < seatsTotal). */
export const memoryLicenses = () => {
  const licenses = new Map<string, StoredLicense>();
  const seats = new Map<string, StoredSeat>();
  const key = (licenseId: string, email: string) => `${licenseId}/${email.toLowerCase()}`;
  const newestFirst = (a: StoredLicense, b: StoredLicense) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);
  const repo = withHooks<LicenseRepository>({
    async create(license) {
      if (licenses.has(license.id)) return false;
      licenses.set(license.id, structuredClone(license));
      return true;
    },
    async get(licenseId) {
      const found = licenses.get(licenseId);
      return found && structuredClone(found);
    },
    async listByCourse(courseId) {
      return structuredClone([...licenses.values()].filter((l) => l.courseId === courseId).sort(newestFirst));
    },
    async listByLeader(leaderId) {
      return structuredClone([...licenses.values()].filter((l) => l.leaderId === leaderId).sort(newestFirst));
    },
    async pageByCourse(courseId, page) {
      return structuredClone(pageOf([...licenses.values()].filter((l) => l.courseId === courseId).sort(newestFirst), page));
    },
    async pageByLeader(leaderId, page) {
      return structuredClone(pageOf([...licenses.values()].filter((l) => l.leaderId === leaderId).sort(newestFirst), page));
    },
    async seats(licenseId) {
      return structuredClone([...seats.values()].filter((s) => s.licenseId === licenseId));
    },
    async seatsAfter(licenseId, { after, limit, status, q }) {
      // As DynamoDB reads them: in key (byte) order, `limit` evaluated, the filters applied to those.
      const read = [...seats.values()]
        .filter((s) => s.licenseId === licenseId && (after === undefined || s.email > after.toLowerCase()))
        .sort((a, b) => (a.email < b.email ? -1 : 1));
      const evaluated = read.slice(0, limit);
      const more = read.length > limit;
      return {
        seats: structuredClone(evaluated.filter((s) => (!status || s.status === status) && (!q || s.email.includes(q.toLowerCase())))),
        more,
        last: more ? evaluated.at(-1)?.email : undefined,
      };
    },
    async seat(licenseId, email) {
      const found = seats.get(key(licenseId, email));
      return found && structuredClone(found);
    },
    async assign(seat) {
      const license = licenses.get(seat.licenseId);
      if (seats.get(key(seat.licenseId, seat.email))?.status === 'active') return 'already';
      if (license?.status !== 'active') return 'ended';
      if (license.seatsUsed >= license.seatsTotal) return 'full';
      license.seatsUsed++;
      seats.set(key(seat.licenseId, seat.email), { ...structuredClone(seat), email: seat.email.toLowerCase() });
      return 'assigned';
    },
    async update(licenseId, changes) {
      const license = licenses.get(licenseId);
      if (license?.status !== 'active') return undefined;
      if (changes.seatsTotal !== undefined && license.seatsUsed > changes.seatsTotal) return 'too-few';
      Object.assign(license, changes);
      return structuredClone(license);
    },
    async endingBy(now, limit, after) {
      const place = (l: Pick<StoredLicense, 'expiresAt' | 'id'>) => `${l.expiresAt}#${l.id}`;
      const due = [...licenses.values()]
        .filter((l) => l.status === 'active' && l.expiresAt !== null && l.expiresAt <= now && (!after || place(l) > place(after)))
        .sort((a, b) => place(a).localeCompare(place(b)));
      const read = structuredClone(due.slice(0, limit));
      const last = read.at(-1);
      return { items: read, ...(due.length > limit && last ? { next: { expiresAt: last.expiresAt!, id: last.id } } : {}) };
    },
    async end(licenseId) {
      const license = licenses.get(licenseId);
      if (license?.status !== 'active') return false;
      license.status = 'ended';
      return true;
    },
    async revoke(licenseId, email) {
      const seat = seats.get(key(licenseId, email));
      if (seat?.status !== 'active') return false;
      seat.status = 'revoked';
      licenses.get(licenseId)!.seatsUsed--;
      return true;
    },
  });
  return Object.assign(repo, { stored: licenses });
};
