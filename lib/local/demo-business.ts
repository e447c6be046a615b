import { DEMO_LEARNER_PASSWORD } from './demo-catalogue.ts';
import { apiCaller, buyCourse, connectPayouts, followReferral, listSales, signInAs, type Call } from './demo-flows.ts';
import type { Outputs } from './outputs.ts';

/**
 * The demo creator's business, made the way people make it (lib/local/demo-flows.ts: the API, the Stripe stand-in's
 * onboarding and Pay pages, its signed webhooks to the real handlers), so every screen shows real figures on first
 * sign-in: a public profile, two courses on sale (what 'My Learning' recommends to the demo learner), a coupon, an affiliate, four sales
 * (one with the coupon, one through the affiliate's link, which earns a commission; one refunded), and a team licence
 * for the demo group leader, who has given three seats to learners, two of them under way.
 * Buyers and members are demo learners who have not finished a course and have no note (the CRM keeps its dozen
 * learners, two finished, one noted), never the demo learner (whose recommendations these courses are). Idempotent: each step looks first (a course by title, a
 * coupon by code, an affiliate by email, a sale by buyer and course, a licence by leader, a seat by email) and a
 * restart adds nothing twice.
 */
const DAY_TEXT = (title: string, body: string) => ({ title, kind: 'text', body });

export const demoShop = {
  courses: [
    {
      key: 'knives',
      title: 'Knife Skills for Home Cooks',
      description: 'Hold, sharpen and use a chef’s knife safely and fast: three short lessons and you will dice an onion in a minute.',
      priceAmount: 2900,
      lessons: [
        DAY_TEXT('Holding the knife', '<h2>The pinch grip</h2><p>Pinch the blade where it meets the handle; curl the fingers of the other hand into a <strong>claw</strong>.</p>'),
        DAY_TEXT('Keeping it sharp', '<p>Hone before each use; sharpen on a stone when honing stops working, about every few months.</p>'),
        DAY_TEXT('Dice an onion', '<ol><li>Halve it through the root</li><li>Slice towards the root, not through it</li><li>Cut across</li></ol>'),
      ],
    },
    {
      key: 'sourdough2',
      title: 'Sourdough Beyond the Basics',
      description: 'Rye, spelt and enriched doughs, scoring patterns and a baking schedule that fits a working week.',
      priceAmount: 3900,
      lessons: [
        DAY_TEXT('Other flours', '<p>Rye ferments faster and holds less gas: use more starter and shorter proofs.</p>'),
        DAY_TEXT('Scoring', '<p>One confident cut at 30 degrees gives the classic ear.</p>'),
        DAY_TEXT('A weekday schedule', '<ul><li>Mix in the evening</li><li>Shape in the morning</li><li>Bake after work</li></ul>'),
      ],
    },
  ],
  /** The name buyers and learners see instead of 'Course creator', and the public page's address. */
  profile: { displayName: 'Sam Baker', slug: 'sam-baker', bio: 'Home baker and cook. Short, practical courses for busy kitchens.' },
  coupon: { code: 'WELCOME20', kind: 'percent', value: 20, courseIds: null },
  affiliate: { email: 'ali.baker@example.com', name: 'Ali Baker', commissionPercent: 20, holdDays: 14 },
  /** Who bought what: `coupon`, `viaAffiliate` and `refunded` say how. */
  sales: [
    { buyer: 'sofia.rossi@example.com', course: 'knives' },
    { buyer: 'jonas.berg@example.com', course: 'knives', coupon: true },
    { buyer: 'priya.sharma@example.com', course: 'knives', viaAffiliate: true },
    { buyer: 'emma.dubois@example.com', course: 'sourdough2', refunded: true },
  ],
  licence: { course: 'knives', seats: 5 },
  /** Seats the leader gives, and how many of the course's lessons each member has completed since. */
  members: [
    { email: 'chen.wei@example.com', lessonsDone: 1 },
    { email: 'liam.oconnor@example.com', lessonsDone: 2 },
    { email: 'noah.kim@example.com', lessonsDone: 0 },
  ],
} as const;

type ShopKey = (typeof demoShop.courses)[number]['key'];

export interface DemoBusinessInput {
  outputs: Outputs;
  creator: { email: string; password: string };
  leader: { email: string; password: string };
  log: (line: string) => void;
}

export const seedDemoBusiness = async ({ outputs, creator, leader, log }: DemoBusinessInput): Promise<void> => {
  const call = apiCaller(outputs);
  const token = await signInAs(outputs, creator.email, creator.password);
  const made: string[] = [];

  await connectPayouts(call, outputs, token);
  if ((await call<unknown>('GET', '/api/creator/public-profile', { token })) === null) {
    await call('PUT', '/api/creator/public-profile', { token, body: demoShop.profile });
    made.push(`public profile ${demoShop.profile.slug}`);
  }
  const courseIds = await shopCourses(call, token, made);

  const coupons = await call<{ items: { code: string }[] }>('GET', '/api/coupons', { token });
  if (!coupons.items.some((c) => c.code === demoShop.coupon.code)) {
    await call('POST', '/api/coupons', { token, body: demoShop.coupon });
    made.push(`coupon ${demoShop.coupon.code}`);
  }

  const affiliates = await call<{ items: { email: string; code: string }[] }>('GET', '/api/affiliates', { token });
  let affiliate = affiliates.items.find((a) => a.email === demoShop.affiliate.email);
  if (!affiliate) {
    affiliate = await call<{ email: string; code: string }>('POST', '/api/affiliates', { token, body: demoShop.affiliate });
    made.push(`affiliate ${demoShop.affiliate.name}`);
  }

  const sales = await listSales(call, token);
  for (const sale of demoShop.sales) {
    const courseId = courseIds[sale.course];
    let line = sales.find((s) => s.courseId === courseId && s.buyerEmail === sale.buyer);
    if (!line) {
      const ref = 'viaAffiliate' in sale ? await followReferral(outputs, affiliate.code, `/c/${courseId}`) : undefined;
      line = await buyCourse(call, outputs, {
        creatorToken: token,
        courseId,
        email: sale.buyer,
        ...('coupon' in sale ? { couponCode: demoShop.coupon.code } : {}),
        ...(ref ? { ref } : {}),
      });
      made.push(`sale to ${sale.buyer}`);
    }
    if ('refunded' in sale && line.status === 'paid') {
      await call('POST', `/api/sales/${line.id}/refund`, { token });
      made.push(`refund to ${sale.buyer}`);
    }
  }

  const licenceCourse = courseIds[demoShop.licence.course];
  const licences = await call<{ items: { id: string; leaderEmail: string }[] }>('GET', `/api/courses/${licenceCourse}/licenses`, { token });
  let licenceId = licences.items.find((l) => l.leaderEmail === leader.email)?.id;
  if (!licenceId) {
    licenceId = (await call<{ id: string }>('POST', `/api/courses/${licenceCourse}/licenses`, { token, body: { leaderEmail: leader.email, seats: demoShop.licence.seats } })).id;
    made.push(`licence of ${demoShop.licence.seats} seats for ${leader.email}`);
  }

  const leaderToken = await signInAs(outputs, leader.email, leader.password);
  const seats = await call<{ items: { email: string; status: string }[] }>('GET', `/api/leader/licenses/${licenceId}/seats`, { token: leaderToken });
  const lessonIds = (await call<{ lessons: { id: string }[] }>('GET', `/api/courses/${licenceCourse}`, { token })).lessons.map((l) => l.id);
  for (const member of demoShop.members) {
    // A seat the developer revoked since is left revoked.
    if (seats.items.some((s) => s.email === member.email)) continue;
    await call('POST', `/api/leader/licenses/${licenceId}/seats`, { token: leaderToken, body: { email: member.email } });
    const learnerToken = await signInAs(outputs, member.email, DEMO_LEARNER_PASSWORD);
    for (const lessonId of lessonIds.slice(0, member.lessonsDone)) {
      await call('POST', `/api/learner/courses/${licenceCourse}/lessons/${lessonId}/complete`, { token: learnerToken });
    }
    made.push(`seat for ${member.email}`);
  }

  if (made.length > 0) log(`[seed] demo business: ${made.join(', ')}`);
};

/** The demo creator's courses on sale: made, given lessons, priced and published once (found by title after that). */
const shopCourses = async (call: Call, token: string, made: string[]): Promise<Record<ShopKey, string>> => {
  const existing = await call<{ items: { id: string; title: string }[] }>('GET', '/api/courses', { token });
  const ids = {} as Record<ShopKey, string>;
  for (const course of demoShop.courses) {
    const found = existing.items.find((c) => c.title === course.title);
    if (found) {
      ids[course.key] = found.id;
      continue;
    }
    const { id } = await call<{ id: string }>('POST', '/api/courses', { token, body: { title: course.title, description: course.description } });
    for (const lesson of course.lessons) await call('POST', `/api/courses/${id}/lessons`, { token, body: lesson });
    await call('PATCH', `/api/courses/${id}`, { token, body: { status: 'published', priceAmount: course.priceAmount } });
    ids[course.key] = id;
    made.push(`course "${course.title}"`);
  }
  return ids;
};
