import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { accountWithRole, api, apiAsClientRetries, cognito, dynamo, eventually, outputs, signIn, uniqueEmail, useLocalCloudEnv } from './support.ts';
import { payoutKeys } from '#data/payouts.ts';
import { work as expiryWork } from '#functions/jobs/license-expiry.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { work as weeklyWork } from '#functions/jobs/leader-weekly-report.ts';
import { header, mailsTo } from './mail-support.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import { getDeps } from '#functions/composition/deps.ts';

/**
 * Team licences on the local cloud: a creator grants a licence to a new leader (made and invited), the leader assigns
 * seats (never more than the licence holds, even 50 at once), revokes one and gives it back with the progress kept;
 * leaders and creators see only their own.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let creator: Account;
let courseId: string;
let lessonIds: string[];

/** A leader's account as an admin makes one (the real Cognito), signed in: the token of the licence's leader. */
const leaderAccount = async (tag: string) => {
  const email = uniqueEmail(tag);
  await createAccount(getDeps(), { email, role: 'leader', password: 'Str0ngPassword' });
  return { email, token: await signIn(email, 'Str0ngPassword') };
};

beforeAll(async () => {
  creator = await accountWithRole('creator', 'licence-creator');
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Safety at work' } })).body.id as string;
  lessonIds = [];
  for (const title of ['Hazards', 'Reporting']) {
    lessonIds.push((await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title, kind: 'text', body: `<p>${title}.</p>` } })).body.id as string);
  }
  await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } });
});

describe('team licences', () => {
  it("a creator grants a licence to a new leader's email: the leader is made, invited and sees it", async () => {
    const leaderEmail = uniqueEmail('new-leader');
    const granted = await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail, seats: 3 } });
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({ courseId, seatsTotal: 3, seatsUsed: 0, leaderEmail });
    expect((await api('GET', `/api/courses/${courseId}/licenses`, { token: creator.token })).body.items.map((l: { id: string }) => l.id)).toContain(granted.body.id);
    expect((await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: creator.email, seats: 3 } })).status).toBe(409);
    expect((await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail, seats: 0 } })).status).toBe(400);
  });

  it('50 concurrent assignments on a 10-seat licence: exactly 10 seats taken, the rest 409 NO_SEATS_LEFT', async () => {
    const leader = await leaderAccount('busy-leader');
    const license = (await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: leader.email, seats: 10 } })).body as { id: string };
    // Each leader's browser retries the route throttle's 429 and a 503 (50 at once queue behind DynamoDB Local on a
    // loaded machine): the same email again answers the same seat, so the count of seats is what is checked.
    const assign = (email: string) => apiAsClientRetries('POST', `/api/leader/licenses/${license.id}/seats`, { token: leader.token, body: { email } });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => assign(uniqueEmail(`seat-${i}`))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect(r.body.error.code).toBe('NO_SEATS_LEFT');
    const summary = (await api('GET', '/api/leader/summary', { token: leader.token })).body;
    expect(summary).toMatchObject({ members: 10, activeLicenses: 1, seatsTotal: 10, completionRate: 0, completed: 0, certificates: 0, groups: 1 });
    expect(summary.recent).toHaveLength(6);
    const listed = (await api('GET', '/api/leader/licenses', { token: leader.token })).body.items as { id: string; seatsUsed: number; seatsTotal: number }[];
    expect(listed.find((l) => l.id === license.id)).toMatchObject({ seatsUsed: 10, seatsTotal: 10 });
    expect((await api('GET', `/api/leader/licenses/${license.id}/seats`, { token: leader.token })).body.items.filter((m: { status: string }) => m.status === 'active')).toHaveLength(10);
  });

  it('a full licence refuses a new email with 409 NO_SEATS_LEFT before any account is made or mail sent', async () => {
    const leader = await leaderAccount('full-leader');
    const license = (await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: leader.email, seats: 1 } })).body as { id: string };
    expect((await api('POST', `/api/leader/licenses/${license.id}/seats`, { token: leader.token, body: { email: uniqueEmail('first-seat') } })).status).toBe(201);
    const newcomer = uniqueEmail('no-seat').toLowerCase();
    const refused = await api('POST', `/api/leader/licenses/${license.id}/seats`, { token: leader.token, body: { email: newcomer } });
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'NO_SEATS_LEFT' } } });
    await expect(cognito().send(new AdminGetUserCommand({ UserPoolId: outputs().UserPoolId, Username: newcomer }))).rejects.toMatchObject({ name: 'UserNotFoundException' });
    expect(await mailsTo(newcomer)).toEqual([]);
  });

  it('revoking a seat ends access and frees it; the learner assigned again picks up where they left off', async () => {
    const leader = await leaderAccount('team-leader');
    const learner = await accountWithRole('learner', 'team-member');
    const license = (await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: leader.email, seats: 1 } })).body as { id: string };
    expect((await api('POST', `/api/leader/licenses/${license.id}/seats`, { token: leader.token, body: { email: learner.email } })).body).toEqual({ email: learner.email, status: 'active' });
    expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${lessonIds[0]!}/complete`, { token: learner.token, body: {} })).status).toBe(200);

    const seatPath = `/api/leader/licenses/${license.id}/seats/${encodeURIComponent(learner.email)}`;
    expect((await api('DELETE', seatPath, { token: leader.token })).status).toBe(204);
    expect((await api('GET', `/api/learner/courses/${courseId}`, { token: learner.token })).status).toBe(404);
    expect((await api('DELETE', seatPath, { token: leader.token })).status).toBe(404);

    // The one seat is taken again: another email finds none left; the creator adds one, then cannot go below the two in use.
    expect((await api('POST', `/api/leader/licenses/${license.id}/seats`, { token: leader.token, body: { email: learner.email } })).status).toBe(201);
    expect((await api('POST', `/api/leader/licenses/${license.id}/seats`, { token: leader.token, body: { email: uniqueEmail('other') } })).body.error.code).toBe('NO_SEATS_LEFT');
    expect((await api('PATCH', `/api/courses/${courseId}/licenses/${license.id}`, { token: creator.token, body: { seatsTotal: 2 } })).body).toMatchObject({ seatsTotal: 2 });
    expect((await api('POST', `/api/leader/licenses/${license.id}/seats`, { token: leader.token, body: { email: uniqueEmail('other') } })).status).toBe(201);
    expect((await api('PATCH', `/api/courses/${courseId}/licenses/${license.id}`, { token: creator.token, body: { seatsTotal: 1 } })).status).toBe(409);
    const report = (await api('GET', `/api/leader/reports?licenseId=${license.id}`, { token: leader.token })).body.items as { email: string; progress: number }[];
    expect(report.find((r) => r.email === learner.email)).toMatchObject({ progress: 50, courseId, status: 'active' });
    // The CSV is written to S3 a page at a time (issue 28) and answered as a redirect to the file: a client that
    // follows redirects gets the CSV itself.
    const csvAnswer = await fetch(`${outputs().ApiUrl}/api/leader/reports?format=csv`, { headers: { authorization: `Bearer ${leader.token}` } });
    expect(csvAnswer.redirected).toBe(true);
    expect(csvAnswer.headers.get('content-type')).toContain('text/csv');
    expect(await csvAnswer.text()).toContain(`${learner.email},Safety at work,${license.id},active,50,`);
    expect((await api('GET', '/api/leader/reports?format=xml', { token: leader.token })).status).toBe(400);
    const members = (await api('GET', `/api/leader/licenses/${license.id}/seats`, { token: leader.token })).body.items;
    expect(members.find((m: { email: string }) => m.email === learner.email)).toMatchObject({ status: 'active', progress: 50 });
    expect((await api('GET', `/api/learner/courses/${courseId}`, { token: learner.token })).status).toBe(200);
  });

  it('leaders and creators see only their own: 404 on every licence route of another', async () => {
    const [mine, theirs] = [await leaderAccount('leader-a'), await leaderAccount('leader-b')];
    const license = (await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: mine.email, seats: 2 } })).body as { id: string };
    expect((await api('GET', '/api/leader/licenses', { token: theirs.token })).body.items).toEqual([]);
    expect((await api('GET', `/api/leader/licenses/${license.id}/seats`, { token: theirs.token })).status).toBe(404);
    expect((await api('GET', `/api/leader/reports?licenseId=${license.id}`, { token: theirs.token })).status).toBe(404);
    expect((await api('GET', '/api/leader/reports', { token: theirs.token })).body.items).toEqual([]);
    expect((await api('POST', `/api/leader/licenses/${license.id}/seats`, { token: theirs.token, body: { email: uniqueEmail('x') } })).status).toBe(404);
    expect((await api('DELETE', `/api/leader/licenses/${license.id}/seats/a%40example.com`, { token: theirs.token })).status).toBe(404);
    const otherCreator = await accountWithRole('creator', 'licence-other');
    expect((await api('GET', `/api/courses/${courseId}/licenses`, { token: otherCreator.token })).status).toBe(404);
    expect((await api('POST', `/api/courses/${courseId}/licenses`, { token: otherCreator.token, body: { leaderEmail: uniqueEmail('y'), seats: 1 } })).status).toBe(404);
    expect((await api('PATCH', `/api/courses/${courseId}/licenses/${license.id}`, { token: otherCreator.token, body: { seatsTotal: 5 } })).status).toBe(404);
  });

  it("a team bought on the course's public page: paid on the creator's account, the buyer's licence of the seats bought; a refund ends it", async () => {
    const origin = outputs().WebUrl;
    await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { priceAmount: 2900, seatPriceAmount: 1500 } });
    await api('POST', '/api/creator/payouts/connect', { token: creator.token, body: { returnUrl: `${origin}/r`, refreshUrl: `${origin}/f` } });
    const { Item } = await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: payoutKeys.account(creator.id), ConsistentRead: true }));
    await fetch(`${outputs().StripeApiUrl}/_stand-in/accounts/${Item!['accountId'] as string}/ready`, { method: 'POST' });
    await eventually(() => api('GET', '/api/creator/payouts', { token: creator.token }), (r) => r.body.status === 'enabled');

    const buyer = await leaderAccount('team-buyer');
    const started = await api('POST', `/api/public/courses/${courseId}/checkout`, { body: { successUrl: `${origin}/c/${courseId}?purchase=success`, cancelUrl: `${origin}/c/${courseId}`, email: buyer.email, seats: 4 } });
    expect(started.status).toBe(200);
    expect((await fetch(`${started.body.url as string}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    const licenses = await eventually(
      async () => (await api('GET', '/api/leader/licenses', { token: buyer.token })).body.items as { id: string; seatsTotal: number; source: string; courseId: string }[],
      (items) => items.length > 0,
    );
    expect(licenses).toEqual([expect.objectContaining({ courseId, seatsTotal: 4, source: 'purchased', status: 'active' })]);
    const sale = ((await api('GET', '/api/sales', { token: creator.token })).body.items as { id: string; seats: number; amount: number; buyerEmail: string }[]).find((s) => s.buyerEmail === buyer.email);
    expect(sale).toMatchObject({ seats: 4, amount: 6000 });

    const member = await accountWithRole('learner', 'bought-seat');
    expect((await api('POST', `/api/leader/licenses/${licenses[0]!.id}/seats`, { token: buyer.token, body: { email: member.email } })).status).toBe(201);
    expect((await api('POST', `/api/sales/${sale!.id}/refund`, { token: creator.token })).status).toBe(200);
    expect((await api('GET', '/api/leader/licenses', { token: buyer.token })).body.items[0]).toMatchObject({ status: 'ended' });
    expect((await api('GET', `/api/learner/courses/${courseId}`, { token: member.token })).status).toBe(404);
  });

  it('a licence past its end date is ended by the daily job: its members lose the course, and no seat can be assigned', async () => {
    const leader = await leaderAccount('ending-leader');
    const member = await accountWithRole('learner', 'ending-member');
    const expiresAt = new Date(Date.now() + 3000).toISOString();
    const license = (await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: leader.email, seats: 2, expiresAt } })).body as { id: string };
    expect((await api('POST', `/api/leader/licenses/${license.id}/seats`, { token: leader.token, body: { email: member.email } })).status).toBe(201);
    expect((await api('GET', `/api/learner/courses/${courseId}`, { token: member.token })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 100));
    // Checked on access: the course is closed at once, before the daily job ran.
    const closed = await api('GET', `/api/learner/courses/${courseId}`, { token: member.token });
    expect(closed.status).toBe(403);
    expect(closed.body.error.message).toBe("Your team's licence for this course has ended. Ask your group leader for access.");
    useLocalCloudEnv();
    expect((await runToEnd('license-expiry', expiryWork)).counts['ended']).toBeGreaterThanOrEqual(1);
    expect((await api('GET', '/api/leader/licenses', { token: leader.token })).body.items[0]).toMatchObject({ id: license.id, status: 'ended' });
    expect((await api('GET', `/api/learner/courses/${courseId}`, { token: member.token })).status).toBe(404);
    expect((await api('POST', `/api/leader/licenses/${license.id}/seats`, { token: leader.token, body: { email: uniqueEmail('late') } })).status).toBe(409);
  });

  it("the leader's report comes a page at a time in order, filtered by progress, status and email, and as a CSV of every matching row", async () => {
    const leader = await leaderAccount('report-leader');
    const license = (await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: leader.email, seats: 5 } })).body as { id: string };
    const members = await Promise.all(['ann', 'bob', 'cy', 'dee'].map((tag) => accountWithRole('learner', `report-${tag}`)));
    for (const m of members) expect((await api('POST', `/api/leader/licenses/${license.id}/seats`, { token: leader.token, body: { email: m.email } })).status).toBe(201);
    expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${lessonIds[0]!}/complete`, { token: members[1]!.token, body: {} })).status).toBe(200);
    await api('DELETE', `/api/leader/licenses/${license.id}/seats/${encodeURIComponent(members[3]!.email)}`, { token: leader.token });
    const sorted = members.map((m) => m.email).sort();

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await api('GET', `/api/leader/reports?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: leader.token });
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...(page.body.items as { email: string }[]).map((r) => r.email));
      cursor = page.body.nextCursor as string | null;
    } while (cursor);
    expect(seen).toEqual(sorted);

    const only = async (query: string) => ((await api('GET', `/api/leader/reports?${query}`, { token: leader.token })).body.items as { email: string }[]).map((r) => r.email);
    expect(await only('progress=in-progress')).toEqual([members[1]!.email]);
    expect(await only('status=revoked')).toEqual([members[3]!.email]);
    expect(await only(`q=${encodeURIComponent(members[2]!.email.slice(0, 12).toUpperCase())}&licenseId=${license.id}`)).toEqual([members[2]!.email]);

    const exported = await api('GET', '/api/leader/reports?format=csv&delivery=link&status=active', { token: leader.token });
    expect(exported.status).toBe(200);
    const csv = await fetch((exported.body as { url: string }).url);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="team-report.csv"');
    const lines = (await csv.text()).trim().split('\n');
    expect((exported.body as { rows: number }).rows).toBe(lines.length - 1);
    expect(lines[0]).toBe('email,course,licence,status,progress,last_activity,completed_at,certificate');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(sorted.filter((e) => e !== members[3]!.email));
    expect(lines.find((l) => l.startsWith(members[1]!.email))).toContain(`,Safety at work,${license.id},active,50,`);

    for (const bad of ['cursor=not-a-cursor', 'limit=0', 'limit=201', 'progress=halfway', 'format=xml']) {
      const refused = await api('GET', `/api/leader/reports?${bad}`, { token: leader.token });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it("a leader's settings: the weekly email on until turned off, the profile saved, bad input refused, other roles kept out", async () => {
    const leader = await leaderAccount('settings-leader');
    expect((await api('GET', '/api/leader/settings', { token: leader.token })).body).toEqual({ email: leader.email, name: '', organization: '', weeklyReport: true, updatedAt: null });
    const saved = await api('PUT', '/api/leader/settings', { token: leader.token, body: { name: '  Dana Lee ', organization: 'Acme Ltd', weeklyReport: false } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ email: leader.email, name: 'Dana Lee', organization: 'Acme Ltd', weeklyReport: false });
    expect((await api('GET', '/api/leader/settings', { token: leader.token })).body).toEqual(saved.body);
    for (const body of [{ name: 'x'.repeat(101), organization: '', weeklyReport: true }, { name: '', organization: '', weeklyReport: 'yes' }, { name: '', organization: '' }]) {
      expect((await api('PUT', '/api/leader/settings', { token: leader.token, body })).status).toBe(400);
    }
    expect((await api('GET', '/api/leader/settings', { token: creator.token })).status).toBe(403);
  });

  it('the weekly team email reaches a leader with members once a week, and its one-click unsubscribe turns off that email only', async () => {
    const leader = await leaderAccount('weekly-leader');
    await api('PUT', '/api/leader/settings', { token: leader.token, body: { name: 'Dana', organization: 'Weekly Co', weeklyReport: true } });
    const license = (await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: leader.email, seats: 2 } })).body as { id: string };
    const member = await accountWithRole('learner', 'weekly-member');
    await api('POST', `/api/leader/licenses/${license.id}/seats`, { token: leader.token, body: { email: member.email } });
    await api('POST', `/api/learner/courses/${courseId}/lessons/${lessonIds[0]!}/complete`, { token: member.token, body: {} });
    await api('POST', `/api/learner/courses/${courseId}/lessons/${lessonIds[1]!}/complete`, { token: member.token, body: {} });

    const weekly = async () => {
      useLocalCloudEnv();
      return runToEnd('leader-weekly-report', weeklyWork);
    };
    expect((await weekly()).counts['sent']).toBeGreaterThanOrEqual(1);
    const mail = (await mailsTo(leader.email)).filter((m) => m.subject.startsWith('Weekly Co'));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe("Weekly Co's team this week: 1 completion, 0 stalled");
    expect(mail[0]!.body.text).toContain(`- ${member.email}: Safety at work`);
    expect(header(mail[0]!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const link = /^<(https?:\/\/[^>]+)>$/.exec(header(mail[0]!, 'List-Unsubscribe') ?? '')?.[1];
    expect(mail[0]!.body.text).toContain(link!);

    // Again the same week: nothing twice.
    await weekly();
    expect((await mailsTo(leader.email)).filter((m) => m.subject.startsWith('Weekly Co'))).toHaveLength(1);

    const path = new URL(link!).pathname + new URL(link!).search;
    expect(await (await fetch(`${outputs().ApiUrl}${path}`)).text()).toContain('Stop the weekly team report?');
    const oneClick = await fetch(`${outputs().ApiUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(await oneClick.json()).toEqual({ unsubscribed: true });
    expect((await api('GET', '/api/leader/settings', { token: leader.token })).body).toMatchObject({ weeklyReport: false, name: 'Dana' });
  });
});
