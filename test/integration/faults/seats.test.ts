import { afterEach, describe, expect, it } from 'vitest';
import { createAccount } from '#core/accounts/create-account.ts';
import { getDeps } from '#functions/composition/deps.ts';
import { accountWithRole, api, signIn, uniqueEmail } from '../support.ts';
import { expectCleanFailures, faults, injectedSince, post, recoveryMs, report, signInFromInvitation, sleep, untilSettled } from './support.ts';

/**
 * Issue 16: a leader fills a 10-seat licence with 25 new people at once while the database fails calls, answers late
 * and stalls, and SES refuses 30% of its sends and answers 10% too late. Each assignment's caller retries until it
 * settles. After recovery: exactly 10 seats taken, each member enrolled, the rest told NO_SEATS_LEFT, and every
 * member's latest invitation holds a password that signs in.
 */
afterEach(() => faults.recover());

const SEATS = 10;
const PEOPLE = 25;

describe('seat assignment while the database and SES fail', () => {
  it('never assigns a seat twice or past the licence, and every member can sign in from their invitation', async () => {
    const creator = await accountWithRole('creator', 'fault-seats-creator');
    const courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Fire drill' } })).body.id as string;
    await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Exits', kind: 'text', body: '<p>Exits.</p>' } });
    await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } });
    const leaderEmail = uniqueEmail('fault-seats-leader');
    await createAccount(getDeps(), { email: leaderEmail, role: 'leader', password: 'Str0ngPassword' });
    const leaderToken = await signIn(leaderEmail, 'Str0ngPassword');
    const license = (await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail, seats: SEATS } })).body as { id: string };

    const before = await faults.state();
    await faults.set('dynamodb', { error: 0.2, slow: 0.05, slowMs: 4_000 });
    await faults.set('ses', { error: 0.3, slow: 0.1, slowMs: 5_000 });
    const people = Array.from({ length: PEOPLE }, (_, i) => uniqueEmail(`fault-seat-${i}`));
    const running = Promise.all(
      people.map((email, i) =>
        sleep(i * 100).then(() => untilSettled(post(`/api/leader/licenses/${license.id}/seats`, { email }, { authorization: `Bearer ${leaderToken}` }))),
      ),
    );
    await sleep(1_500);
    const returnedAt = await faults.outage('pause', 2_000);
    const settled = await running;
    const injected = await injectedSince(before);
    await faults.clear();

    expectCleanFailures(settled, 10_000);
    const assigned = people.filter((_, i) => settled[i]!.status === 201);
    expect(assigned, 'the licence fills exactly').toHaveLength(SEATS);
    for (const s of settled.filter((x) => x.status !== 201)) {
      expect(s.status).toBe(409);
      expect((s.body as { error: { code: string } }).error.code).toBe('NO_SEATS_LEFT');
    }
    const listed = (await api('GET', '/api/leader/licenses', { token: leaderToken })).body.items as { id: string; seatsUsed: number }[];
    expect(listed.find((l) => l.id === license.id)?.seatsUsed, 'seats used as counted').toBe(SEATS);
    const members = (await api('GET', `/api/leader/licenses/${license.id}/seats`, { token: leaderToken })).body.items as { email: string; status: string; learnerId: string }[];
    const active = members.filter((m) => m.status === 'active').length;
    const used = listed.find((l) => l.id === license.id)?.seatsUsed ?? 0;
    report({
      path: `seats (${PEOPLE} people, ${SEATS} seats)`,
      injected,
      database: 'paused 2 s',
      lost: Math.max(0, SEATS - Math.min(active, assigned.length)),
      doubled: Math.max(0, used - SEATS) + Math.max(0, active - SEATS),
      recoveryMs: recoveryMs(settled, returnedAt),
    });
    expect(members.filter((m) => m.status === 'active').map((m) => m.email).sort()).toEqual([...assigned].sort());

    // Each member's newest invitation works: they sign in and see the course.
    for (const email of assigned) {
      const token = await signInFromInvitation(email);
      const courses = (await api('GET', '/api/learner/courses', { token })).body.items as { courseId: string }[];
      expect(courses.map((c) => c.courseId)).toContain(courseId);
    }
  }, 240_000);
});
