import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredLicense } from '#core/ports.ts';
import { dynamoEnrollments, enrollmentKeys } from '#data/enrollments.ts';
import { dynamoLicenses, licenseKeys } from '#data/licenses.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const AT = '2026-11-25T10:00:00.000Z';
const license = (over: Partial<StoredLicense> = {}): StoredLicense => ({
  id: unique('lic'),
  courseId: unique('course'),
  courseTitle: 'Safety',
  creatorId: unique('creator'),
  leaderId: unique('leader'),
  leaderEmail: 'lead@example.com',
  seatsTotal: 2,
  seatsUsed: 0,
  expiresAt: null,
  status: 'active',
  source: 'granted',
  orderId: null,
  createdAt: AT,
  ...over,
});
const seat = (licenseId: string, email: string) => ({ licenseId, email, learnerId: unique('learner'), status: 'active' as const, assignedAt: AT });

describe('dynamoLicenses', () => {
  it('lists by course and by leader, takes seats only while some are free, and frees them', async () => {
    const repo = dynamoLicenses();
    const l = license();
    expect(await repo.create(l)).toBe(true);
    expect(await repo.create(l)).toBe(false);
    expect((await repo.listByCourse(l.courseId)).map((x) => x.id)).toEqual([l.id]);
    expect((await repo.listByLeader(l.leaderId)).map((x) => x.id)).toEqual([l.id]);
    expect(await repo.assign(seat(l.id, 'Ann@Example.com'))).toBe('assigned');
    expect(await repo.assign(seat(l.id, 'ann@example.com'))).toBe('already');
    expect(await repo.assign(seat(l.id, 'bob@example.com'))).toBe('assigned');
    expect(await repo.assign(seat(l.id, 'cy@example.com'))).toBe('full');
    expect((await repo.seats(l.id)).map((s) => s.email).sort()).toEqual(['ann@example.com', 'bob@example.com']);
    expect(await repo.revoke(l.id, 'ann@example.com', AT)).toBe(true);
    expect(await repo.revoke(l.id, 'ann@example.com', AT)).toBe(false);
    expect(await repo.seat(l.id, 'ann@example.com')).toMatchObject({ status: 'revoked' });
    expect(await repo.assign(seat(l.id, 'ann@example.com'))).toBe('assigned');
    expect((await repo.get(l.id))?.seatsUsed).toBe(2);
  });

  it('changes seats never below those in use, moves the end date on its index, and ends a licence once', async () => {
    const repo = dynamoLicenses();
    const l = license({ expiresAt: '2026-12-01T00:00:00.000Z' });
    await repo.create(l);
    expect((await rawItem(licenseKeys.license(l.id)))?.['gsi3sk']).toBe(`2026-12-01T00:00:00.000Z#${l.id}`);
    await repo.assign(seat(l.id, 'ann@example.com'));
    await repo.assign(seat(l.id, 'bob@example.com'));
    expect(await repo.update(l.id, { seatsTotal: 1 })).toBe('too-few');
    expect(await repo.update(l.id, { seatsTotal: 5 })).toMatchObject({ seatsTotal: 5, seatsUsed: 2 });
    expect((await repo.endingBy('2026-12-02T00:00:00.000Z', 1000)).items.map((x) => x.id)).toContain(l.id);
    expect(await repo.update(l.id, { expiresAt: null })).toMatchObject({ expiresAt: null });
    expect((await rawItem(licenseKeys.license(l.id)))?.['gsi3pk']).toBeUndefined();
    expect((await repo.endingBy('2026-12-02T00:00:00.000Z', 1000)).items.map((x) => x.id)).not.toContain(l.id);
    expect(await repo.update(l.id, { expiresAt: '2027-01-01T00:00:00.000Z' })).toMatchObject({ expiresAt: '2027-01-01T00:00:00.000Z' });
    expect(await repo.end(l.id, AT)).toBe(true);
    expect(await repo.end(l.id, AT)).toBe(false);
    expect(await repo.update(l.id, { seatsTotal: 9 })).toBeUndefined();
    expect(await repo.assign(seat(l.id, 'cy@example.com'))).toBe('ended');
  });
});

describe('dynamoLicenses.seatsAfter', () => {
  it('reads seats in email order a chunk at a time, from where the last read stopped, filtering by status and part of the email', async () => {
    const repo = dynamoLicenses();
    const l = license({ seatsTotal: 10 });
    await repo.create(l);
    for (const email of ['dan@a.example', 'al@b.example', 'cat@a.example', 'bea@b.example', 'eve@a.example']) await repo.assign(seat(l.id, email));
    await repo.revoke(l.id, 'cat@a.example', AT);
    const first = await repo.seatsAfter(l.id, { limit: 2 });
    expect(first).toMatchObject({ more: true, last: 'bea@b.example' });
    expect(first.seats.map((s) => s.email)).toEqual(['al@b.example', 'bea@b.example']);
    const rest = await repo.seatsAfter(l.id, { after: first.last, limit: 10 });
    expect(rest.seats.map((s) => s.email)).toEqual(['cat@a.example', 'dan@a.example', 'eve@a.example']);
    expect(rest.more).toBe(false);
    // The filters apply to the seats read: three read, one left, and the read goes on after the third.
    const filtered = await repo.seatsAfter(l.id, { limit: 3, status: 'active', q: 'A.EXAMPLE' });
    expect(filtered.seats.map((s) => s.email)).toEqual([]);
    expect(filtered).toMatchObject({ more: true, last: 'cat@a.example' });
    expect((await repo.seatsAfter(l.id, { after: filtered.last, limit: 10, status: 'active', q: 'a.example' })).seats.map((s) => s.email)).toEqual([
      'dan@a.example',
      'eve@a.example',
    ]);
    expect((await repo.seatsAfter(l.id, { limit: 10, status: 'revoked' })).seats.map((s) => s.email)).toEqual(['cat@a.example']);
  });
});

describe('dynamoEnrollments.getMany', () => {
  it('reads many learners of a course in batches of 100, leaving out the missing ones', async () => {
    const enrollments = dynamoEnrollments();
    const courseId = unique('course');
    const learners = Array.from({ length: 3 }, () => unique('learner'));
    for (const learnerId of learners) {
      await putRaw({
        ...enrollmentKeys.enrollment(courseId, learnerId),
        type: 'Enrollment',
        courseId,
        learnerId,
        creatorId: 'c',
        learnerEmail: `${learnerId}@example.com`,
        learnerJoinedAt: AT,
        courseTitle: 'T',
        status: 'active',
        enrolledAt: AT,
        completedLessonIds: [],
        progress: 0,
        lastActivity: AT,
        completedAt: null,
      });
    }
    const many = Array.from({ length: 150 }, (_, i) => learners[i] ?? unique('nobody'));
    const found = await enrollments.getMany(courseId, many);
    expect(found.map((e) => e.learnerId).sort()).toEqual([...learners].sort());
    // Only the progress is read: not the lessons done, the emails or the index keys.
    expect(Object.keys(found[0]!).sort()).toEqual(['completedAt', 'enrolledAt', 'lastActivity', 'learnerId', 'progress']);
  });
});
