import { beforeAll, describe, expect, it } from 'vitest';
import { bundleSource } from '#core/access/access.ts';
import type { NewEnrollment, StoredBundle } from '#core/ports.ts';
import { dynamoBundles } from '#data/bundles.ts';
import { dynamoCourses } from '#data/courses.ts';
import { dynamoEnrollments, enrollmentKeys } from '#data/enrollments.ts';
import { courseRecord } from '#test/functions/fakes/courses.ts';
import { useLocalCloudEnv } from '../support.ts';
import { rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute)).toISOString();

const bundle = (creatorId: string, over: Partial<StoredBundle> = {}): StoredBundle => ({
  id: unique('bundle'),
  creatorId,
  title: 'Kitchen basics',
  description: '',
  courseIds: ['c1', 'c2'],
  priceAmount: 3000,
  active: true,
  createdAt: at(0),
  updatedAt: at(0),
  ...over,
});

describe('bundles (DynamoDB Local)', () => {
  it('keeps a creator’s bundles by id, newest first, once each; changed and deleted only by their creator', async () => {
    const bundles = dynamoBundles();
    const creatorId = unique('bundler');
    const older = bundle(creatorId);
    const newer = bundle(creatorId, { createdAt: at(5), title: 'Newer' });
    expect(await bundles.create(older)).toBe(true);
    expect(await bundles.create(older)).toBe(false);
    await bundles.create(newer);
    await bundles.create(bundle(unique('other-bundler')));
    expect(await bundles.get(older.id)).toEqual(older);
    expect((await bundles.listByCreator(creatorId)).map((b) => b.id)).toEqual([newer.id, older.id]);
    expect(await bundles.update(creatorId, older.id, { priceAmount: 2500, active: false, updatedAt: at(9) })).toEqual({ ...older, priceAmount: 2500, active: false, updatedAt: at(9) });
    expect(await bundles.update('someone-else', older.id, { title: 'Mine' })).toBeUndefined();
    expect(await bundles.update(creatorId, 'no-such-bundle', { title: 'New' })).toBeUndefined();
    expect(await bundles.get('no-such-bundle')).toBeUndefined();
    expect(await bundles.delete('someone-else', older.id)).toBe(false);
    expect(await bundles.delete(creatorId, older.id)).toBe(true);
    expect(await bundles.get(older.id)).toBeUndefined();
    expect((await bundles.listByCreator(creatorId)).map((b) => b.id)).toEqual([newer.id]);
  });
});

describe('an enrolment’s sources (DynamoDB Local)', () => {
  const enrolment = async (tag: string) => {
    const creatorId = unique(`${tag}-creator`);
    const courseId = unique(`${tag}-course`);
    await dynamoCourses().create(courseRecord({ id: courseId, creatorId, status: 'published', createdAt: at(0), updatedAt: at(0) }));
    const input: NewEnrollment = { courseId, learnerId: unique('learner'), creatorId, learnerEmail: 'ann@example.com', learnerJoinedAt: at(0), courseTitle: 'Knife skills', enrolledAt: at(1) };
    return input;
  };

  it('a bundle’s enrolment holds its order; the order’s refund removes it; enrolled again, it is the learner’s own', async () => {
    const enrollments = dynamoEnrollments();
    const input = await enrolment('bundle-only');
    expect((await enrollments.enroll({ ...input, source: bundleSource('o1') })).status).toBe('enrolled');
    expect(await enrollments.get(input.courseId, input.learnerId)).toMatchObject({ status: 'active', sources: ['order:o1'] });
    expect((await enrollments.enroll({ ...input, source: bundleSource('o1') })).status).toBe('already');
    expect(await enrollments.revokeSource(input.courseId, input.learnerId, bundleSource('o2'))).toBe('missing');
    expect(await enrollments.revokeSource(input.courseId, input.learnerId, bundleSource('o1'))).toBe('removed');
    expect(await enrollments.revokeSource(input.courseId, input.learnerId, bundleSource('o1'))).toBe('missing');
    expect(await enrollments.get(input.courseId, input.learnerId)).toMatchObject({ status: 'removed' });
    // Among the courses the learner left (what the course keeps about them stays reachable from them).
    expect(await rawItem(enrollmentKeys.enrollment(input.courseId, input.learnerId))).toMatchObject(enrollmentKeys.left(input.learnerId, input.courseId));
    expect((await enrollments.enroll(input)).status).toBe('restored');
    expect((await enrollments.get(input.courseId, input.learnerId))?.sources).toBeUndefined();
  });

  it('a course held by the learner’s own means and two bundles keeps its enrolment until its last source goes', async () => {
    const enrollments = dynamoEnrollments();
    const input = await enrolment('held-three-ways');
    await enrollments.enroll(input);
    expect((await enrollments.enroll({ ...input, source: bundleSource('o1') })).status).toBe('added');
    expect((await enrollments.enroll({ ...input, source: bundleSource('o2') })).status).toBe('added');
    expect((await enrollments.get(input.courseId, input.learnerId))?.sources).toEqual(['own', 'order:o1', 'order:o2']);
    expect(await enrollments.revokeSource(input.courseId, input.learnerId, bundleSource('o1'))).toBe('kept');
    expect(await enrollments.revokeSource(input.courseId, input.learnerId, 'own')).toBe('kept');
    expect(await enrollments.get(input.courseId, input.learnerId)).toMatchObject({ status: 'active', sources: ['order:o2'] });
    expect(await enrollments.revokeSource(input.courseId, input.learnerId, bundleSource('o2'))).toBe('removed');
  });

  it('concurrent bundles on one course each add their source once', async () => {
    const enrollments = dynamoEnrollments();
    const input = await enrolment('concurrent');
    await enrollments.enroll(input);
    await Promise.all(['o1', 'o2', 'o3', 'o4'].map((o) => enrollments.enroll({ ...input, source: bundleSource(o) })));
    expect((await enrollments.get(input.courseId, input.learnerId))?.sources?.sort()).toEqual(['order:o1', 'order:o2', 'order:o3', 'order:o4', 'own']);
  });
});
