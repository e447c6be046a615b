import { describe, expect, it } from 'vitest';
import { work as issuerWork } from '#functions/jobs/certificate-issuer.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { demoShop } from '#lib/local/demo-business.ts';
import { DEMO_LEARNER_PASSWORD, demoLearnerEmail } from '#lib/local/demo-catalogue.ts';
import { demoSession, seed, seedAccounts } from '#lib/local/seed.ts';
import { api, eventually, outputs, signIn, useLocalCloudEnv } from './support.ts';

/**
 * The demo seed as the local cloud ran it at start (global-setup.ts seeds): every role signs in to real figures. Then the
 * seed runs again, as a restart does, and adds nothing.
 */
const creatorToken = () => signIn(seedAccounts.creator.email, seedAccounts.creator.password);
const leaderToken = () => signIn(seedAccounts.leader.email, seedAccounts.leader.password);
const adminToken = () => signIn(seedAccounts.admin.email, seedAccounts.admin.password);

type Sale = { id: string; courseTitle: string; buyerEmail: string; status: string; couponCode: string | null; affiliateId: string | null; discount: number; amount: number };

/** What every screen of the demo shows, read through the API as the screens read it. */
const figures = async () => {
  const creator = await creatorToken();
  const leader = await leaderToken();
  const licences = (await api('GET', '/api/leader/licenses', { token: leader })).body.items as { id: string; courseTitle: string; seatsTotal: number; seatsUsed: number }[];
  return {
    plan: (await api('GET', '/api/me/subscription', { token: creator })).body as { status: string; tier: string },
    courses: ((await api('GET', '/api/courses', { token: creator })).body.items as { title: string }[]).map((c) => c.title).sort(),
    sales: (await api('GET', '/api/sales', { token: creator })).body.items as Sale[],
    coupons: ((await api('GET', '/api/coupons', { token: creator })).body.items as { code: string }[]).map((c) => c.code),
    affiliates: (await api('GET', '/api/affiliates', { token: creator })).body.items as { id: string; email: string; sales: number; pending: number }[],
    licences,
    seats: licences[0] ? ((await api('GET', `/api/leader/licenses/${licences[0].id}/seats`, { token: leader })).body.items as { email: string; status: string; progress: number }[]) : [],
    leaderSummary: (await api('GET', '/api/leader/summary', { token: leader })).body as Record<string, unknown>,
    stats: (await api('GET', '/api/creator/stats', { token: creator })).body as Record<string, unknown>,
    zoom: ((await api('GET', '/api/integrations', { token: creator })).body as { zoom: Record<string, unknown> }).zoom,
    sessions: (await api('GET', '/api/learner/sessions', { token: await signIn(demoLearnerEmail, DEMO_LEARNER_PASSWORD) })).body.items as LearnerSession[],
    reports: await Promise.all(
      ((await api('GET', '/api/courses', { token: creator })).body.items as { id: string }[]).map(
        async (c) => (await api('GET', `/api/creator/reports/courses/${c.id}`, { token: creator })).body as Report,
      ),
    ),
  };
};

type LearnerSession = { id: string; courseTitle: string; title: string; startsAt: string; durationMinutes: number; provider: string; joinUrl: string };

type Report = { title: string; enrolled: number; started: number; completed: number; lessons: { reached: number; completed: number }[] };

describe('the demo seed: every role alive', () => {
  it('puts the demo creator on the Pro plan, selling two courses with a coupon and an affiliate: four sales, one refunded', async () => {
    const seen = await figures();
    expect(seen.plan).toMatchObject({ status: 'active', tier: 'pro' });
    expect(seen.courses).toEqual(expect.arrayContaining(demoShop.courses.map((c) => c.title)));
    expect(seen.coupons).toContain(demoShop.coupon.code);

    const buyers = Object.fromEntries(seen.sales.map((s) => [s.buyerEmail, s]));
    expect(Object.keys(buyers).sort()).toEqual(demoShop.sales.map((s) => s.buyer).sort());
    expect(seen.sales.filter((s) => s.status === 'refunded').map((s) => s.buyerEmail)).toEqual(['emma.dubois@example.com']);
    expect(buyers['jonas.berg@example.com']).toMatchObject({ status: 'paid', couponCode: demoShop.coupon.code, discount: 580, amount: 2320 });
    const affiliate = seen.affiliates.find((a) => a.email === demoShop.affiliate.email);
    expect(buyers['priya.sharma@example.com']).toMatchObject({ status: 'paid', affiliateId: affiliate?.id });
    expect(affiliate).toMatchObject({ sales: 1, pending: 580 });
    const commissions = (await api('GET', `/api/affiliates/${affiliate!.id}/commissions`, { token: await creatorToken() })).body.items as { amount: number; status: string }[];
    expect(commissions).toEqual([expect.objectContaining({ amount: 580, status: 'pending' })]);
  });

  it('gives the demo leader a team licence with three members under way', async () => {
    const seen = await figures();
    expect(seen.licences).toEqual([expect.objectContaining({ courseTitle: 'Knife Skills for Home Cooks', seatsTotal: demoShop.licence.seats, seatsUsed: 3 })]);
    expect(seen.seats.map((s) => [s.email, s.status]).sort()).toEqual(demoShop.members.map((m) => [m.email, 'active']).sort());
    expect(seen.seats.find((s) => s.email === 'liam.oconnor@example.com')?.progress).toBe(67);
    const member = await signIn('chen.wei@example.com', DEMO_LEARNER_PASSWORD);
    const mine = (await api('GET', '/api/learner/courses', { token: member })).body.items as { title: string; progress: number }[];
    expect(mine).toContainEqual(expect.objectContaining({ title: 'Knife Skills for Home Cooks', progress: 33 }));
  });

  it("recommends the courses on sale to the demo learner, and issues the certificates of the learners who finished", async () => {
    const learner = await signIn(demoLearnerEmail, DEMO_LEARNER_PASSWORD);
    const browse = (await api('GET', '/api/learner/browse', { token: learner })).body.items as { title: string; creatorName: string; creatorSlug: string }[];
    expect(browse.map((c) => c.title).sort()).toEqual(demoShop.courses.map((c) => c.title).sort());
    expect(browse.map((c) => [c.creatorName, c.creatorSlug])).toEqual(browse.map(() => [demoShop.profile.displayName, demoShop.profile.slug]));

    // The scheduler issues them at start; the job run here as it runs it makes the test independent of its timing.
    const finished = await signIn('maya.patel@example.com', DEMO_LEARNER_PASSWORD);
    const issued = await eventually(
      async () => {
        useLocalCloudEnv();
        await runToEnd('certificate-issuer', issuerWork);
        return (await api('GET', '/api/learner/certificates', { token: finished })).body.items as { courseTitle: string; status: string }[];
      },
      (items) => items.length > 0,
    );
    expect(issued).toContainEqual(expect.objectContaining({ courseTitle: 'Sourdough Baking Basics', status: 'valid' }));
    const admin = (await api('GET', '/api/admin/stats', { token: await adminToken() })).body as { courses: { published: number; enrollments: number }; certificates: { issued: number }; affiliates: { sales: number } };
    expect(admin.courses.published).toBeGreaterThanOrEqual(4);
    expect(admin.certificates.issued).toBeGreaterThanOrEqual(1);
    expect(admin.affiliates.sales).toBeGreaterThanOrEqual(1);
  });

  it("shows the seeded learners' progress in the demo creator's course reports (Pro)", async () => {
    const { reports } = await figures();
    const sourdough = reports.find((r) => r.title === 'Sourdough Baking Basics');
    expect(sourdough?.completed).toBeGreaterThanOrEqual(1);
    expect(sourdough!.started).toBeGreaterThanOrEqual(sourdough!.completed);
    expect(sourdough!.enrolled).toBeGreaterThanOrEqual(sourdough!.started);
    // Every lesson reached by at least as many as completed it, and the first by every learner who started.
    for (const lesson of sourdough!.lessons) expect(lesson.reached).toBeGreaterThanOrEqual(lesson.completed);
    expect(sourdough!.lessons[0]!.reached).toBe(sourdough!.started);
  });

  it("connects the demo creator's Zoom with the stand-in's demo app", async () => {
    const { zoom } = await figures();
    expect(zoom).toEqual({ enabled: true, apiKey: outputs().ZoomClientId, apiSecretSet: true, accountId: outputs().ZoomAccountId, status: 'connected' });
  });

  it("gives the demo learner an upcoming live session in the demo creator's Zoom, a few days ahead, whose meeting is at the Zoom stand-in", async () => {
    const { sessions } = await figures();
    const seeded = sessions.filter((s) => s.title === demoSession.title);
    expect(seeded).toEqual([expect.objectContaining({ courseTitle: demoSession.courseTitle, durationMinutes: demoSession.durationMinutes, provider: 'zoom' })]);
    const ahead = Date.parse(seeded[0]!.startsAt) - Date.now();
    expect(ahead).toBeGreaterThan(1 * 86_400_000);
    expect(ahead).toBeLessThan((demoSession.daysAhead + 1) * 86_400_000);
    const meetings = ((await (await fetch(`${outputs().ZoomOAuthUrl}/_stand-in/meetings`)).json()) as { meetings: { topic: string; join_url: string; start_time: string }[] }).meetings;
    const meeting = meetings.find((m) => m.join_url === seeded[0]!.joinUrl);
    expect(meeting).toMatchObject({ topic: demoSession.title });
    expect(Date.parse(meeting!.start_time)).toBe(Date.parse(seeded[0]!.startsAt));
  });

  // The seed's backfills each scan the whole table, which by now holds what the whole integration suite wrote: on a
  // loaded machine (CI runs this beside the browser tests) that takes more than the default minute.
  it('adds nothing when it runs again, as on a restart', async () => {
    const before = await figures();
    useLocalCloudEnv();
    const lines: string[] = [];
    expect(await seed({ outputs: outputs(), stripe: 'stand-in', log: (line) => lines.push(line) })).toEqual({ demoPlan: 'pro' });
    expect(lines.filter((line) => line.includes('WARNING'))).toEqual([]);
    expect(lines.filter((line) => line.includes('demo business') || line.includes('created'))).toEqual([]);
    const after = await figures();
    expect(after).toEqual(before);
  }, 180_000);
});
