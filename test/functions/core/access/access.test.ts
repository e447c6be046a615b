import { describe, expect, it } from 'vitest';
import { bundleSource, courseAccess, restoredEnrollment } from '#core/access/access.ts';
import type { Enrollment, NewEnrollment, StoredLicense } from '#core/ports.ts';
import { NOW, testClock } from '#test/functions/fakes/clock.ts';
import { memoryEnrollments } from '#test/functions/fakes/enrollments.ts';
import { memoryLicenses } from '#test/functions/fakes/licenses.ts';

const DAY = 24 * 60 * 60 * 1000;

const world = () => ({ enrollments: memoryEnrollments(), licenses: memoryLicenses(), clock: testClock() });

const enrolment = (over: Partial<NewEnrollment> = {}): NewEnrollment => ({
  courseId: 'c1',
  learnerId: 'ann',
  creatorId: 'u1',
  learnerEmail: 'ann@example.com',
  learnerJoinedAt: NOW,
  courseTitle: 'Knife skills',
  enrolledAt: NOW,
  ...over,
});

const licence = (over: Partial<StoredLicense> = {}): StoredLicense => ({
  id: 'lic_1',
  courseId: 'c1',
  courseTitle: 'Knife skills',
  creatorId: 'u1',
  leaderId: 'lead',
  leaderEmail: 'lead@example.com',
  seatsTotal: 5,
  seatsUsed: 1,
  expiresAt: null,
  status: 'active',
  source: 'granted',
  orderId: null,
  createdAt: NOW,
  ...over,
});

describe('access to a course, from its sources', () => {
  it('nobody without a source: not enrolled, or their enrolment removed (refunded, disputed, removed by the creator)', async () => {
    const d = world();
    expect(await courseAccess(d, 'ann', 'c1')).toEqual({ open: false, reason: 'none' });
    await d.enrollments.enroll(enrolment());
    await d.enrollments.remove('c1', 'ann');
    expect(await courseAccess(d, 'ann', 'c1')).toEqual({ open: false, reason: 'none' });
    // Another learner's enrolment, or the learner's in another course, opens nothing here.
    await d.enrollments.enroll(enrolment({ learnerId: 'bob' }));
    await d.enrollments.enroll(enrolment({ courseId: 'c2' }));
    expect((await courseAccess(d, 'ann', 'c1')).open).toBe(false);
  });

  it('their own enrolment (bought, or given by the creator): open, with its progress', async () => {
    const d = world();
    await d.enrollments.enroll(enrolment());
    const access = await courseAccess(d, 'ann', 'c1');
    expect(access).toMatchObject({ open: true, source: 'enrollment', enrollment: { courseId: 'c1', learnerId: 'ann', progress: 0 } });
  });

  it("a team licence's seat: open while the licence gives access, ended the moment it passes its end date or ends", async () => {
    const d = world();
    await d.licenses.create(licence({ expiresAt: new Date(Date.parse(NOW) + DAY).toISOString() }));
    await d.enrollments.enroll(enrolment({ licenseId: 'lic_1' }));
    expect(await courseAccess(d, 'ann', 'c1')).toMatchObject({ open: true, source: 'license' });
    d.clock.advance(DAY + 1);
    expect(await courseAccess(d, 'ann', 'c1')).toMatchObject({ open: false, reason: 'license-ended', enrollment: { licenseId: 'lic_1' } });
  });

  it('a seat on a licence that was ended, or is gone, opens nothing', async () => {
    const d = world();
    await d.licenses.create(licence({ status: 'ended' }));
    await d.enrollments.enroll(enrolment({ licenseId: 'lic_1' }));
    await d.enrollments.enroll(enrolment({ courseId: 'c2', licenseId: 'lic_gone' }));
    expect(await courseAccess(d, 'ann', 'c1')).toMatchObject({ open: false, reason: 'license-ended' });
    expect(await courseAccess(d, 'ann', 'c2')).toMatchObject({ open: false, reason: 'license-ended' });
  });

  it('a removed seat-enrolment is no access, whatever its licence (its licence is not read)', async () => {
    const d = world();
    await d.licenses.create(licence());
    await d.enrollments.enroll(enrolment({ licenseId: 'lic_1' }));
    await d.enrollments.remove('c1', 'ann');
    let reads = 0;
    const counted = { ...d, licenses: { get: (id: string) => ((reads += 1), d.licenses.get(id)) } };
    expect(await courseAccess(counted, 'ann', 'c1')).toEqual({ open: false, reason: 'none' });
    expect(reads).toBe(0);
  });
});

describe('a removed enrolment enrolled again (restoredEnrollment, the repository and its fake alike)', () => {
  const removed: Enrollment = {
    ...enrolment({ learnerEmail: 'old@example.com', courseTitle: 'Old title', licenseId: 'lic_old' }),
    sources: [bundleSource('o1')],
    status: 'removed',
    completedLessonIds: ['l1', 'l2'],
    progress: 50,
    lastActivity: NOW,
    completedAt: null,
  };

  it('keeps the progress and first date, refreshes the email and title, and holds access by the new means only', () => {
    expect(restoredEnrollment(removed, { learnerEmail: 'ann@example.com', courseTitle: 'Knife skills', licenseId: undefined }, undefined)).toEqual({
      ...enrolment(),
      status: 'active',
      completedLessonIds: ['l1', 'l2'],
      progress: 50,
      lastActivity: NOW,
      completedAt: null,
    });
  });

  it("through a licence's seat or a bundle's order: that is its only source", () => {
    const restored = restoredEnrollment(removed, { learnerEmail: 'ann@example.com', courseTitle: 'Knife skills', licenseId: 'lic_1' }, bundleSource('o2'));
    expect(restored).toMatchObject({ status: 'active', licenseId: 'lic_1', sources: [bundleSource('o2')], enrolledAt: NOW, progress: 50 });
  });
});
