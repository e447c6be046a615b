import { beforeAll, describe, expect, it } from 'vitest';
import { DELETED_USER_NAME } from '#contracts/account-deletion.ts';
import { counterDeltas } from '#core/billing/subscription-state.ts';
import type { StoredSubscription, User } from '#core/ports.ts';
import { deletionKeys, dynamoAccountDeletionRequests, dynamoAccountDeletions } from '#data/account-deletion.ts';
import { deletedAccountEmails } from '#data/deleted-recipients.ts';
import { adminStatsKeys } from '#data/admin-stats.ts';
import { affiliateKeys } from '#data/affiliates.ts';
import { auditKeys } from '#data/audit.ts';
import { billingKeys, dynamoBilling } from '#data/billing.ts';
import { campaignKeys } from '#data/campaigns.ts';
import { certificateKeys } from '#data/certificates.ts';
import { commentKeys } from '#data/comments.ts';
import { couponKeys } from '#data/coupons.ts';
import { courseKeys } from '#data/courses.ts';
import { crmKeys } from '#data/crm.ts';
import { dripKeys } from '#data/drip.ts';
import { enrollmentKeys } from '#data/enrollments.ts';
import { licenseKeys } from '#data/licenses.ts';
import { sessionKeys } from '#data/live-sessions.ts';
import { membershipKeys } from '#data/memberships.ts';
import { orderKeys } from '#data/orders.ts';
import { sequenceKeys } from '#data/sequences.ts';
import { sessionMailKeys } from '#data/session-mail.ts';
import { submissionKeys } from '#data/submissions.ts';
import { supportKeys } from '#data/support.ts';
import { dynamoUsers, userKeys } from '#data/users.ts';
import { counters } from '../billing-support.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const at = (minute: number) => new Date(Date.UTC(2019, 2, 4, 12, minute)).toISOString();

/** A learner made through the users adapter (profile, email reservation, counters, the sign-up's activity line). */
const newLearner = async (): Promise<User> => {
  const id = unique('erase-learner');
  const user: User = { id, email: `${id}@example.com`.toLowerCase(), role: 'learner', createdAt: at(0) };
  await dynamoUsers().createUser(user);
  return user;
};

/** A course of `creatorId` the learner is actively enrolled on (the course item exists: the removal checks it). */
const enrol = async (user: User, creatorId: string, extra: Record<string, unknown> = {}): Promise<string> => {
  const courseId = unique('erase-course');
  await putRaw({ ...courseKeys.course(courseId), type: 'Course', id: courseId, creatorId, title: 'Bread', status: 'published', enrolledCount: 1 });
  await putRaw({
    ...enrollmentKeys.enrollment(courseId, user.id),
    ...enrollmentKeys.byCreator(creatorId, at(1), courseId, user.id),
    ...enrollmentKeys.byLearner(user.id, courseId),
    type: 'Enrollment',
    courseId,
    creatorId,
    learnerId: user.id,
    learnerEmail: user.email,
    learnerJoinedAt: user.createdAt,
    courseTitle: 'Bread',
    status: 'active',
    enrolledAt: at(1),
    completedLessonIds: [],
    progress: 0,
    lastActivity: at(1),
    completedAt: null,
    sources: ['purchase'],
    ...extra,
  });
  return courseId;
};

describe('account deletion (DynamoDB Local)', () => {
  it('marks the request once: the profile’s deletingAt and the deletion item keep their first time; queued is remembered', async () => {
    const requests = dynamoAccountDeletionRequests();
    const deletions = dynamoAccountDeletions();
    const user = await newLearner();
    expect(await requests.requestedAt(user.id)).toBeUndefined();
    expect(await deletions.get(user.id)).toBeUndefined();

    expect(await requests.mark(user, at(10))).toEqual({ requestedAt: at(10), queued: false });
    expect(await requests.mark(user, at(20))).toEqual({ requestedAt: at(10), queued: false });
    expect((await rawItem(userKeys.profile(user.id)))?.['deletingAt']).toBe(at(10));
    expect(await requests.requestedAt(user.id)).toBe(at(10));
    expect(await deletions.get(user.id)).toEqual({ userId: user.id, email: user.email, role: 'learner', requestedAt: at(10), step: 'sign-in' });

    await requests.markQueued(user.id);
    const queuedAt = (await rawItem(deletionKeys.deletion(user.id)))?.['queuedAt'];
    expect(typeof queuedAt).toBe('string');
    await requests.markQueued(user.id);
    expect((await rawItem(deletionKeys.deletion(user.id)))?.['queuedAt']).toBe(queuedAt);
    expect(await requests.mark(user, at(30))).toEqual({ requestedAt: at(10), queued: true });

    // No profile, no mark (and no deletion item).
    const ghost: User = { id: unique('erase-ghost'), email: 'ghost@example.com', role: 'learner', createdAt: at(0) };
    await expect(requests.mark(ghost, at(10))).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(await rawItem(deletionKeys.deletion(ghost.id))).toBeUndefined();
  });

  it('finds an active enrolment on a course at once, past a page of removed ones; none on an empty or emptied course', async () => {
    const requests = dynamoAccountDeletionRequests();
    const courseId = unique('erase-blocking');
    expect(await requests.hasActiveEnrolment(courseId)).toBe(false);
    // Removed enrolments keep their item (and progress): more of them than one page, sorting before the active one.
    const enrolment = (learnerId: string, status: 'active' | 'removed') =>
      putRaw({ ...enrollmentKeys.enrollment(courseId, learnerId), type: 'Enrollment', courseId, creatorId: 'c', learnerId, status, enrolledAt: at(1) });
    for (let i = 0; i < 12; i++) await enrolment(`a-removed-${String(i).padStart(2, '0')}`, 'removed');
    expect(await requests.hasActiveEnrolment(courseId)).toBe(false);
    // Written and asked straight after: no counter in between (the request must not wait for the stream aggregator).
    await enrolment('z-active', 'active');
    expect(await requests.hasActiveEnrolment(courseId)).toBe(true);
    await enrolment('z-active', 'removed');
    expect(await requests.hasActiveEnrolment(courseId)).toBe(false);
  });

  it('moves the step only from the step it was at', async () => {
    const requests = dynamoAccountDeletionRequests();
    const deletions = dynamoAccountDeletions();
    const user = await newLearner();
    await requests.mark(user, at(10));
    await deletions.advance(user.id, 'sign-in', 'enrolments');
    expect((await deletions.get(user.id))?.step).toBe('enrolments');
    // A stale advance (a second run that read the old step) changes nothing and does not throw.
    await deletions.advance(user.id, 'sign-in', 'enrolments');
    await deletions.advance(user.id, 'own-items', 'email-keys');
    expect((await deletions.get(user.id))?.step).toBe('enrolments');
  });

  it('erases an enrolment: quiz attempts, drip plan, session invitation claims, CRM deleted; certificate and comments pseudonymised; a rerun changes nothing', async () => {
    const deletions = dynamoAccountDeletions();
    const user = await newLearner();
    const other = await newLearner();
    const creatorId = unique('erase-creator');
    const courseId = await enrol(user, creatorId);
    const otherCourse = await enrol(user, creatorId);
    const otherCreatorCourse = await enrol(user, unique('erase-creator'));
    const pseudonym = `deleted-${user.id}@deleted.invalid`;

    expect((await deletions.enrolments(user.id, 2)).length).toBe(2);
    expect(await deletions.enrolments(user.id, 25)).toContainEqual({ courseId, creatorId });
    expect((await deletions.enrolments(user.id, 25)).map((e) => e.courseId).sort()).toEqual([courseId, otherCourse, otherCreatorCourse].sort());

    // The course's records about them (and another learner's, kept).
    const coursePk = `COURSE#${courseId}`;
    const quizKeys = [{ pk: coursePk, sk: `QUIZ#${user.id}#lesson-1#1` }, { pk: coursePk, sk: `QUIZ#${user.id}#lesson-1#2` }];
    for (const key of quizKeys) await putRaw({ ...key, type: 'QuizAttempt', score: 50 });
    const othersQuiz = { pk: coursePk, sk: `QUIZ#${other.id}#lesson-1#1` };
    await putRaw({ ...othersQuiz, type: 'QuizAttempt', score: 100 });
    await putRaw({ ...dripKeys.plan(courseId, user.id), type: 'DripPlan' });
    const certificateId = unique('erase-cert');
    await putRaw({ ...certificateKeys.guard(courseId, user.id), certificateId });
    await putRaw({ ...certificateKeys.certificate(certificateId), type: 'Certificate', id: certificateId, courseId, learnerId: user.id, learnerName: 'Ann Baker', learnerEmail: user.email });
    // A live session of the course: their invitation claim (and another learner's, kept).
    const sessionId = unique('erase-session');
    await putRaw({ ...sessionKeys.session(sessionId), ...sessionKeys.all({ courseId, startsAt: at(30), id: sessionId }), type: 'LiveSession', id: sessionId, courseId });
    await putRaw({ ...sessionMailKeys.claim(sessionId, user.id), type: 'SessionMailClaim', learnerId: user.id, invitedSequence: 0 });
    await putRaw({ ...sessionMailKeys.claim(sessionId, other.id), type: 'SessionMailClaim', learnerId: other.id, invitedSequence: 0 });
    // The creator's CRM.
    await putRaw({ ...crmKeys.note(creatorId, user.id), type: 'CrmNote', text: 'Likes rye.' });
    const timeline = crmKeys.timeline(creatorId, user.id, at(3), 'e1');
    await putRaw({ ...timeline, type: 'CrmTimeline', to: user.email });
    const othersNote = crmKeys.note(creatorId, other.id);
    await putRaw({ ...othersNote, type: 'CrmNote', text: 'Keep.' });
    // Comments to the creator: theirs and another's.
    const mine = unique('erase-comment');
    const theirs = unique('erase-comment');
    await putRaw({ ...commentKeys.comment(mine), ...commentKeys.byCreator(creatorId, at(4), mine), type: 'Comment', authorId: user.id, authorName: 'Ann Baker', body: 'How warm?' });
    await putRaw({ ...commentKeys.comment(theirs), ...commentKeys.byCreator(creatorId, at(5), theirs), type: 'Comment', authorId: other.id, authorName: 'Bob', body: 'Warm.' });

    // Their submissions: a superseded one (named by no pointer), the latest (a pointer names it), a file handed in,
    // the pending count; and another learner's, kept.
    const lessonId = 'lesson-a';
    const submission = (id: string, learner: User, at2: string) => ({
      ...submissionKeys.submission(id),
      ...submissionKeys.ofCourse({ courseId, learnerId: learner.id, submittedAt: at2, id }),
      type: 'Submission',
      id,
      courseId,
      lessonId,
      learnerId: learner.id,
      learnerEmail: learner.email,
      text: 'My loaf.',
    });
    const superseded = unique('erase-sub');
    const latest = unique('erase-sub');
    const othersSubmission = unique('erase-sub');
    await putRaw({ ...submission(superseded, user, at(10)), supersededBy: latest });
    await putRaw(submission(latest, user, at(11)));
    await putRaw(submission(othersSubmission, other, at(12)));
    await putRaw({ ...submissionKeys.latest(courseId, lessonId, user.id), type: 'LatestSubmission', submissionId: latest });
    // One from before the index (no gsi2 keys): found through its pointer.
    const unindexed = unique('erase-sub');
    await putRaw({ ...submissionKeys.submission(unindexed), type: 'Submission', id: unindexed, courseId, lessonId: 'lesson-b', learnerId: user.id, learnerEmail: user.email });
    await putRaw({ ...submissionKeys.latest(courseId, 'lesson-b', user.id), type: 'LatestSubmission', submissionId: unindexed });
    const file = submissionKeys.file(courseId, lessonId, user.id, 'file-1');
    await putRaw({ ...file, type: 'SubmissionFile', id: 'file-1', name: 'loaf.jpg', contentType: 'image/jpeg', size: 10, courseId, lessonId, learnerId: user.id, createdAt: at(10) });
    await putRaw({ ...submissionKeys.pending(courseId, user.id), type: 'PendingSubmissions', pending: 1 });
    expect(await deletions.submissionUploads(user.id, courseId)).toEqual([{ courseId, lessonId, learnerId: user.id, id: 'file-1' }]);
    // Their entry in one of the creator's sequences (and another learner's, kept).
    const sequenceId = unique('erase-seq');
    await putRaw({ ...sequenceKeys.sequence(creatorId, sequenceId), type: 'Sequence', id: sequenceId });
    const entry = sequenceKeys.entry({ sequenceId, courseId, learnerId: user.id, event: 'enrolled' });
    const othersEntry = sequenceKeys.entry({ sequenceId, courseId, learnerId: other.id, event: 'enrolled' });
    await putRaw({ ...entry, type: 'SequenceEntry', email: user.email });
    await putRaw({ ...othersEntry, type: 'SequenceEntry', email: other.email });

    const erase = () => deletions.eraseEnrolment({ userId: user.id, email: user.email }, { courseId, creatorId }, pseudonym);
    await erase();

    for (const id of [superseded, latest, unindexed]) expect(await rawItem(submissionKeys.submission(id))).toBeUndefined();
    expect(await rawItem(submissionKeys.submission(othersSubmission))).toMatchObject({ learnerEmail: other.email });
    expect(await rawItem(submissionKeys.latest(courseId, lessonId, user.id))).toBeUndefined();
    expect(await rawItem(file)).toBeUndefined();
    expect(await rawItem(submissionKeys.pending(courseId, user.id))).toBeUndefined();
    expect(await deletions.submissionUploads(user.id, courseId)).toEqual([]);
    expect(await rawItem(entry)).toBeUndefined();
    expect(await rawItem(othersEntry)).toMatchObject({ email: other.email });

    for (const key of quizKeys) expect(await rawItem(key)).toBeUndefined();
    expect(await rawItem(othersQuiz)).toBeDefined();
    expect(await rawItem(dripKeys.plan(courseId, user.id))).toBeUndefined();
    expect(await rawItem(sessionMailKeys.claim(sessionId, user.id))).toBeUndefined();
    expect(await rawItem(sessionMailKeys.claim(sessionId, other.id))).toMatchObject({ learnerId: other.id });
    expect(await rawItem(sessionKeys.session(sessionId))).toBeDefined();
    expect(await rawItem(certificateKeys.certificate(certificateId))).toMatchObject({ learnerName: null, learnerEmail: pseudonym, courseId });
    expect(await rawItem(crmKeys.note(creatorId, user.id))).toBeUndefined();
    expect(await rawItem(timeline)).toBeUndefined();
    expect(await rawItem(othersNote)).toBeDefined();
    expect(await rawItem(commentKeys.comment(mine))).toMatchObject({ authorName: DELETED_USER_NAME, body: 'How warm?' });
    expect(await rawItem(commentKeys.comment(theirs))).toMatchObject({ authorName: 'Bob' });
    expect(await rawItem(enrollmentKeys.enrollment(courseId, user.id))).toBeUndefined();
    // The other enrolments are untouched; the erased one is no longer listed.
    expect(await rawItem(enrollmentKeys.enrollment(otherCourse, user.id))).toMatchObject({ status: 'active', learnerEmail: user.email });
    expect((await deletions.enrolments(user.id, 25)).map((e) => e.courseId).sort()).toEqual([otherCourse, otherCreatorCourse].sort());

    // Rerun (a killed run's retry): nothing left to change, nothing comes back, no error.
    await erase();
    expect(await rawItem(enrollmentKeys.enrollment(courseId, user.id))).toBeUndefined();
    expect(await rawItem(certificateKeys.certificate(certificateId))).toMatchObject({ learnerName: null, learnerEmail: pseudonym });

    // An enrolment with no certificate, CRM or comments: only the enrolment goes.
    await deletions.eraseEnrolment({ userId: user.id, email: user.email }, { courseId: otherCourse, creatorId }, pseudonym);
    expect(await rawItem(enrollmentKeys.enrollment(otherCourse, user.id))).toBeUndefined();
  });

  it('walks the courses a person left after their active ones, and erases one as an active one: its records, a membership row bound to them, the enrolment', async () => {
    const deletions = dynamoAccountDeletions();
    const user = await newLearner();
    const creatorId = unique('erase-creator');
    const pseudonym = `deleted-${user.id}@deleted.invalid`;
    const active = await enrol(user, creatorId);
    // Removed before (its sources dropped, out of the learner's courses, among the courses they left).
    const left = await enrol(user, creatorId);
    const { gsi1pk: _crm, gsi1sk: _crmOrder, sources: _sources, ...kept } = (await rawItem(enrollmentKeys.enrollment(left, user.id)))!;
    await putRaw({ ...kept, status: 'removed', ...enrollmentKeys.left(user.id, left) });
    expect((await deletions.enrolments(user.id, 25)).map((e) => e.courseId)).toEqual([active]);
    const quiz = { pk: `COURSE#${left}`, sk: `QUIZ#${user.id}#lesson-1#1` };
    await putRaw({ ...quiz, type: 'QuizAttempt', score: 40 });
    await putRaw({ ...crmKeys.note(creatorId, user.id), type: 'CrmNote', text: 'Left after week 2.' });
    // A membership of the creator's whose subscription (ended) is bound to them, no longer named by any enrolment.
    const membershipId = unique('erase-membership');
    await putRaw({ ...membershipKeys.membership(membershipId), ...membershipKeys.listed({ creatorId, createdAt: at(0), id: membershipId }), type: 'Membership', id: membershipId, creatorId });
    const member = membershipKeys.member(membershipId, `sub_${user.id}`);
    await putRaw({ ...member, type: 'Member', email: user.email, learnerId: user.id, status: 'canceled' });
    const othersMember = membershipKeys.member(membershipId, 'sub_other');
    await putRaw({ ...othersMember, type: 'Member', email: 'other@example.com', learnerId: 'other', status: 'active' });

    await deletions.eraseEnrolment({ userId: user.id, email: user.email }, { courseId: active, creatorId }, pseudonym);
    // The active ones done, the page is the courses they left.
    expect(await deletions.enrolments(user.id, 25)).toEqual([{ courseId: left, creatorId }]);
    await deletions.eraseEnrolment({ userId: user.id, email: user.email }, { courseId: left, creatorId }, pseudonym);
    expect(await rawItem(quiz)).toBeUndefined();
    expect(await rawItem(crmKeys.note(creatorId, user.id))).toBeUndefined();
    expect(await rawItem(member)).toMatchObject({ email: pseudonym, status: 'canceled' });
    expect(await rawItem(othersMember)).toMatchObject({ email: 'other@example.com' });
    expect(await rawItem(enrollmentKeys.enrollment(left, user.id))).toBeUndefined();
    expect(await deletions.enrolments(user.id, 25)).toEqual([]);
  });

  it("pseudonymises every order the person bought through the buyer index (a refunded one with no enrolment left too), deletes their coupon uses, leaves others' orders; a rerun finds none", async () => {
    const deletions = dynamoAccountDeletions();
    const user = await newLearner();
    const other = await newLearner();
    const creatorId = unique('erase-creator');
    const pseudonym = `deleted-${user.id}@deleted.invalid`;
    // One paid with a coupon, one refunded (its enrolment removed long ago), one pending (its checkout open on the
    // creator's account) with another case of the email, and another buyer's: all in their buyer index as the orders
    // module writes it.
    const withCoupon = unique('erase-order');
    const refunded = unique('erase-order');
    const shouted = unique('erase-order');
    const othersOrder = unique('erase-order');
    const orderOf = (id: string, email: string, minute: number, extra: Record<string, unknown>) =>
      putRaw({ ...orderKeys.order(id), ...orderKeys.sales(creatorId, at(minute), id), ...orderKeys.buyer(email, at(minute), id), type: 'Order', id, creatorId, buyerEmail: email, ...extra });
    await orderOf(withCoupon, user.email, 6, { status: 'paid', amount: 2900, couponCode: 'BREAD10' });
    await orderOf(refunded, user.email, 7, { status: 'refunded', amount: 1500, couponCode: null });
    await orderOf(shouted, user.email.toUpperCase(), 8, { status: 'pending', amount: 700, couponCode: '', accountId: 'acct_erase', checkoutSessionId: 'cs_erase' });
    await orderOf(othersOrder, other.email, 9, { status: 'paid', amount: 900, couponCode: 'BREAD10' });
    const couponUse = couponKeys.use(creatorId, 'BREAD10', user.email);
    const othersUse = couponKeys.use(creatorId, 'BREAD10', other.email);
    await putRaw({ ...couponUse, type: 'CouponUse' });
    await putRaw({ ...othersUse, type: 'CouponUse' });

    const first = await deletions.buyerOrders(user.email, undefined, 2);
    expect(first.orders).toEqual([
      { orderId: withCoupon, creatorId, couponCode: 'BREAD10', pendingCheckout: null },
      { orderId: refunded, creatorId, couponCode: null, pendingCheckout: null },
    ]);
    const second = await deletions.buyerOrders(user.email, first.nextCursor, 2);
    expect(second.orders).toEqual([{ orderId: shouted, creatorId, couponCode: null, pendingCheckout: { accountId: 'acct_erase', sessionId: 'cs_erase' } }]);
    for (const order of [...first.orders, ...second.orders]) await deletions.eraseOrder(order, user.email, pseudonym);

    expect(await rawItem(orderKeys.order(withCoupon))).toMatchObject({ amount: 2900, buyerEmail: pseudonym, status: 'paid', gsi1pk: `CREATOR#${creatorId}#SALES` });
    expect(await rawItem(orderKeys.order(refunded))).toMatchObject({ amount: 1500, buyerEmail: pseudonym, status: 'refunded' });
    expect(await rawItem(orderKeys.order(shouted))).toMatchObject({ amount: 700, buyerEmail: pseudonym, status: 'pending' });
    for (const id of [withCoupon, refunded, shouted]) expect(await rawItem(orderKeys.order(id))).not.toHaveProperty('gsi2pk');
    expect(await rawItem(couponUse)).toBeUndefined();
    expect(await rawItem(orderKeys.order(othersOrder))).toMatchObject({ buyerEmail: other.email });
    expect(await rawItem(othersUse)).toBeDefined();
    // Rerun (a killed slice's retry): nothing left to find; erasing one again changes nothing.
    expect(await deletions.buyerOrders(user.email, undefined, 10)).toEqual({ orders: [] });
    await deletions.eraseOrder(first.orders[0]!, user.email, pseudonym);
    expect(await rawItem(orderKeys.order(withCoupon))).toMatchObject({ amount: 2900, buyerEmail: pseudonym });
  });

  it('frees the licence seat an enrolment came through (seatsUsed -1 once), pseudonymises its membership row; a rerun changes nothing', async () => {
    const deletions = dynamoAccountDeletions();
    const user = await newLearner();
    const creatorId = unique('erase-creator');
    const pseudonym = `deleted-${user.id}@deleted.invalid`;
    const licenseId = unique('erase-licence');
    await putRaw({ ...licenseKeys.license(licenseId), type: 'License', id: licenseId, seatsTotal: 5, seatsUsed: 2, status: 'active' });
    await putRaw({ ...licenseKeys.seat(licenseId, user.email), type: 'Seat', licenseId, email: user.email, learnerId: user.id, status: 'active', assignedAt: at(1) });
    const othersSeat = licenseKeys.seat(licenseId, 'other@example.com');
    await putRaw({ ...othersSeat, type: 'Seat', licenseId, email: 'other@example.com', learnerId: 'other', status: 'active', assignedAt: at(1) });
    const membershipId = unique('erase-membership');
    const member = membershipKeys.member(membershipId, 'sub_1');
    await putRaw({ ...member, type: 'Member', membershipId, subscriptionId: 'sub_1', creatorId, email: user.email, learnerId: user.id, status: 'active' });
    const courseId = await enrol(user, creatorId, { licenseId, sources: ['own', `membership:${membershipId}:sub_1`] });

    const erase = () => deletions.eraseEnrolment({ userId: user.id, email: user.email }, { courseId, creatorId }, pseudonym);
    await erase();
    expect(await rawItem(licenseKeys.seat(licenseId, user.email))).toBeUndefined();
    expect(await rawItem(othersSeat)).toBeDefined();
    expect(await rawItem(licenseKeys.license(licenseId))).toMatchObject({ seatsUsed: 1, seatsTotal: 5 });
    expect(await rawItem(member)).toMatchObject({ email: pseudonym, status: 'active', subscriptionId: 'sub_1' });

    // A killed run's retry (the enrolment still there): the seat is not freed twice.
    const again = await enrol(user, creatorId, { licenseId });
    await deletions.eraseEnrolment({ userId: user.id, email: user.email }, { courseId: again, creatorId }, pseudonym);
    expect(await rawItem(licenseKeys.license(licenseId))).toMatchObject({ seatsUsed: 1 });
    // A revoked seat is deleted, the count left alone.
    await putRaw({ ...licenseKeys.seat(licenseId, user.email), type: 'Seat', licenseId, email: user.email, learnerId: user.id, status: 'revoked', assignedAt: at(1) });
    const third = await enrol(user, creatorId, { licenseId });
    await deletions.eraseEnrolment({ userId: user.id, email: user.email }, { courseId: third, creatorId }, pseudonym);
    expect(await rawItem(licenseKeys.seat(licenseId, user.email))).toBeUndefined();
    expect(await rawItem(licenseKeys.license(licenseId))).toMatchObject({ seatsUsed: 1 });
  });

  it("erases the records others keep by their id or email: a leader's licences and every creator's affiliate of the email; a rerun changes nothing", async () => {
    const deletions = dynamoAccountDeletions();
    const user = await newLearner();
    const pseudonym = `deleted-${user.id}@deleted.invalid`;
    const licenseId = unique('erase-licence');
    await putRaw({
      ...licenseKeys.license(licenseId),
      ...licenseKeys.byLeader({ leaderId: user.id, createdAt: at(1), id: licenseId }),
      type: 'License',
      id: licenseId,
      leaderId: user.id,
      leaderEmail: user.email,
      seatsTotal: 5,
      seatsUsed: 1,
    });
    const affiliates = [unique('erase-creator'), unique('erase-creator')].map((creatorId) => ({ creatorId, affiliateId: unique('erase-aff') }));
    for (const { creatorId, affiliateId } of affiliates) {
      await putRaw({ ...affiliateKeys.affiliate(creatorId, affiliateId), type: 'Affiliate', id: affiliateId, creatorId, name: 'Ann Baker', email: user.email, code: 'ANN' });
      await putRaw({ ...affiliateKeys.email(creatorId, user.email), ...affiliateKeys.byEmail(user.email, creatorId), type: 'AffiliateEmail', affiliateId, creatorId });
    }
    const othersAffiliate = affiliateKeys.affiliate(affiliates[0]!.creatorId, 'someone');
    await putRaw({ ...othersAffiliate, type: 'Affiliate', name: 'Bob', email: 'bob@example.com' });

    for (let run = 0; run < 2; run++) {
      await deletions.eraseRecords({ userId: user.id, email: user.email.toUpperCase() }, pseudonym);
      expect(await rawItem(licenseKeys.license(licenseId))).toMatchObject({ leaderEmail: pseudonym, seatsTotal: 5, seatsUsed: 1 });
      for (const { creatorId, affiliateId } of affiliates) {
        expect(await rawItem(affiliateKeys.affiliate(creatorId, affiliateId))).toMatchObject({ email: pseudonym, name: DELETED_USER_NAME, code: 'ANN' });
        expect(await rawItem(affiliateKeys.email(creatorId, user.email))).toBeUndefined();
      }
      expect(await rawItem(othersAffiliate)).toMatchObject({ name: 'Bob', email: 'bob@example.com' });
    }
  });

  it('erases the own partition but the profile and the credit ledger, with the sign-up line, the creator slug and their support requests; a rerun changes nothing', async () => {
    const deletions = dynamoAccountDeletions();
    const user = await newLearner();
    const own = `USER#${user.id}`;
    const slug = unique('erase-slug');
    await putRaw({ pk: own, sk: 'PUBLICPROFILE', type: 'PublicProfile', slug, displayName: 'Ann' });
    await putRaw({ pk: `CREATORSLUG#${slug}`, sk: 'CREATORSLUG', userId: user.id });
    await putRaw({ ...enrollmentKeys.activity(user.id, '2019-03-04'), type: 'Activity', lessons: 2 });
    await putRaw({ pk: own, sk: 'PROGRESS#course-1', type: 'Progress' });
    const customerId = unique('cus');
    await putRaw({ ...billingKeys.customer(user.id), type: 'StripeCustomer', customerId });
    await putRaw({ ...billingKeys.customerUser(customerId), type: 'StripeCustomerUser', userId: user.id });
    const ledger = { pk: own, sk: `CREDITTX#${at(2)}#t1` };
    await putRaw({ ...ledger, type: 'CreditTx', amount: 5 });
    expect(await rawItem(adminStatsKeys.activity(user.createdAt, user.id))).toBeDefined();
    // A support request of theirs (as a creator) and one of someone else's, in the inbox.
    const mine = supportKeys.request(unique('erase-support'));
    const theirs = supportKeys.request(unique('erase-support'));
    await putRaw({ ...mine, ...supportKeys.byCreator(user.id, at(3), mine.pk), type: 'SupportRequest', creatorId: user.id, creatorEmail: user.email, body: 'Help.' });
    await putRaw({ ...theirs, ...supportKeys.byCreator('someone-else', at(3), theirs.pk), type: 'SupportRequest', creatorId: 'someone-else', body: 'Help.' });

    await deletions.eraseOwnItems(user.id);
    expect(await rawItem(mine)).toBeUndefined();
    expect(await rawItem(theirs)).toMatchObject({ creatorId: 'someone-else' });
    expect(await rawItem(billingKeys.customerUser(customerId))).toBeUndefined();
    expect(await rawItem(billingKeys.customer(user.id))).toBeUndefined();
    expect(await rawItem(userKeys.profile(user.id))).toMatchObject({ email: user.email });
    expect(await rawItem(ledger)).toMatchObject({ amount: 5 });
    expect(await rawItem({ pk: own, sk: 'PUBLICPROFILE' })).toBeUndefined();
    expect(await rawItem({ pk: own, sk: 'PROGRESS#course-1' })).toBeUndefined();
    expect(await rawItem(enrollmentKeys.activity(user.id, '2019-03-04'))).toBeUndefined();
    expect(await rawItem({ pk: `CREATORSLUG#${slug}`, sk: 'CREATORSLUG' })).toBeUndefined();
    expect(await rawItem(adminStatsKeys.activity(user.createdAt, user.id))).toBeUndefined();

    await deletions.eraseOwnItems(user.id);
    expect(await rawItem(userKeys.profile(user.id))).toBeDefined();
    expect(await rawItem(ledger)).toBeDefined();

    // A partition without a profile or public profile (a run after the profile step): nothing to find, no error.
    await deletions.eraseOwnItems(unique('erase-nobody'));
  });

  it("takes an erased subscription out of the stats counters it was counted in (no webhook moves them after the deletion); a rerun moves nothing", async () => {
    const deletions = dynamoAccountDeletions();
    const user = await newLearner();
    const after: StoredSubscription = {
      userId: user.id,
      subscriptionId: unique('sub'),
      customerId: unique('cus'),
      status: 'active',
      tier: 'pro',
      trialEnd: null,
      currentPeriodEnd: at(30),
      cancelAtPeriodEnd: false,
      lastEventAt: 1,
      lastEventRank: 2,
      updatedAt: at(5),
      hasSubscribed: true,
    };
    const names = ['subs_active', 'subs_tier_pro', 'subs_paying_pro'];
    const pick = (all: Record<string, number>) => names.map((name) => all[name] ?? 0);
    const before = pick(await counters());
    expect(await dynamoBilling().applySubscriptionEvent({ event: { id: unique('evt'), type: 'customer.subscription.created' }, before: undefined, after, counters: counterDeltas(undefined, after) })).toBe('applied');
    expect(pick(await counters())).toEqual(before.map((n) => n + 1));

    await deletions.eraseOwnItems(user.id);
    expect(await rawItem(billingKeys.subscription(user.id))).toBeUndefined();
    expect(pick(await counters())).toEqual(before);
    await deletions.eraseOwnItems(user.id);
    expect(pick(await counters())).toEqual(before);
  });

  it('releases the email: the reservation deleted, suppressed as deleted once; an earlier reason stays', async () => {
    const deletions = dynamoAccountDeletions();
    const user = await newLearner();
    expect(await rawItem(userKeys.email(user.email))).toMatchObject({ userId: user.id });
    await deletions.releaseEmail(user.email.toUpperCase(), at(40));
    expect(await rawItem(userKeys.email(user.email))).toBeUndefined();
    expect(await rawItem(campaignKeys.suppression(user.email))).toMatchObject({ email: user.email, reason: 'deleted', at: at(40) });
    await deletions.releaseEmail(user.email, at(50));
    expect(await rawItem(campaignKeys.suppression(user.email))).toMatchObject({ reason: 'deleted', at: at(40) });

    const unsubscribed = await newLearner();
    await putRaw({ ...campaignKeys.suppression(unsubscribed.email), email: unsubscribed.email, reason: 'unsubscribed', at: at(1) });
    await deletions.releaseEmail(unsubscribed.email, at(40));
    expect(await rawItem(userKeys.email(unsubscribed.email))).toBeUndefined();
    expect(await rawItem(campaignKeys.suppression(unsubscribed.email))).toMatchObject({ reason: 'unsubscribed', at: at(1) });

    // The mail sender's check: only 'deleted' suppressions count, case-insensitively, each address once.
    const never = `${unique('erase-never')}@example.com`;
    expect(await deletedAccountEmails([])).toEqual(new Set());
    expect(await deletedAccountEmails([user.email.toUpperCase(), user.email, unsubscribed.email, never])).toEqual(new Set([user.email]));
    // Someone signs up again with a deleted account's address: their mail is theirs, it goes.
    const again = await newLearner();
    await deletions.releaseEmail(again.email, at(40));
    expect(await deletedAccountEmails([again.email])).toEqual(new Set([again.email]));
    await dynamoUsers().createUser({ id: unique('erase-again'), email: again.email, role: 'learner', createdAt: at(45) });
    expect(await deletedAccountEmails([again.email, user.email])).toEqual(new Set([user.email]));
    // More addresses than one read takes (two keys each, BatchGetItem's 100): every one is asked.
    const many = Array.from({ length: 60 }, (_, i) => `${unique(`erase-many-${i}`)}@example.com`);
    expect(await deletedAccountEmails([...many, user.email])).toEqual(new Set([user.email]));
  });

  it('deletes the profile once with its audit line, then finishes: step done, the email dropped, the first doneAt kept', async () => {
    const requests = dynamoAccountDeletionRequests();
    const deletions = dynamoAccountDeletions();
    const user = await newLearner();
    await requests.mark(user, at(10));
    const audit = { id: unique('erase-audit'), at: at(60), actor: { id: user.id, email: user.email }, action: 'account-deleted' as const, target: { kind: 'user' as const, id: user.id } };

    expect(await deletions.deleteProfile(user.id, 'learner', audit)).toBe(true);
    expect(await rawItem(userKeys.profile(user.id))).toBeUndefined();
    expect(await rawItem(auditKeys.line(audit.at, audit.id))).toMatchObject({ action: 'account-deleted', actor: { id: user.id, email: user.email } });
    // Gone already: false, and no second audit line.
    const again = { ...audit, id: unique('erase-audit') };
    expect(await deletions.deleteProfile(user.id, 'learner', again)).toBe(false);
    expect(await rawItem(auditKeys.line(again.at, again.id))).toBeUndefined();

    await deletions.finish(user.id, at(61));
    expect(await deletions.get(user.id)).toEqual({ userId: user.id, role: 'learner', requestedAt: at(10), step: 'done' });
    await deletions.finish(user.id, at(70));
    expect(await rawItem(deletionKeys.deletion(user.id))).toMatchObject({ step: 'done', doneAt: at(61) });
    expect((await rawItem(deletionKeys.deletion(user.id)))?.['email']).toBeUndefined();
    // The request's later reads still find the time (the deletion item outlives the profile).
    expect(await requests.requestedAt(user.id)).toBe(at(10));
  });
});
