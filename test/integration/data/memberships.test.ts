import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredMembership } from '#core/ports.ts';
import { dynamoMemberships } from '#data/memberships.ts';
import { useLocalCloudEnv } from '../support.ts';
import { unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute)).toISOString();

const membership = (creatorId: string, over: Partial<StoredMembership> = {}): StoredMembership => ({
  id: unique('membership'),
  creatorId,
  title: 'Kitchen club',
  description: '',
  interval: 'month',
  priceAmount: 1200,
  courseIds: 'all',
  active: true,
  createdAt: at(0),
  updatedAt: at(0),
  ...over,
});

describe('memberships (DynamoDB Local)', () => {
  it('keeps a creator’s memberships, changed and deleted only by their creator', async () => {
    const memberships = dynamoMemberships();
    const creatorId = unique('club-creator');
    const older = membership(creatorId);
    const newer = membership(creatorId, { createdAt: at(5), courseIds: ['c1'] });
    expect(await memberships.create(older)).toBe(true);
    expect(await memberships.create(older)).toBe(false);
    await memberships.create(newer);
    expect(await memberships.get(older.id)).toEqual(older);
    expect((await memberships.listByCreator(creatorId)).map((m) => m.id)).toEqual([newer.id, older.id]);
    expect(await memberships.update('someone-else', older.id, { title: 'Taken' })).toBeUndefined();
    expect(await memberships.update(creatorId, older.id, { title: 'Bakers', active: false, updatedAt: at(9) })).toEqual({ ...older, title: 'Bakers', active: false, updatedAt: at(9) });
    expect(await memberships.delete('someone-else', older.id)).toBe(false);
    expect(await memberships.delete(creatorId, older.id)).toBe(true);
    expect(await memberships.get(older.id)).toBeUndefined();
  });

  it('applies a subscription’s states once and in order, never after it was cancelled, and binds its buyer', async () => {
    const memberships = dynamoMemberships();
    const club = membership(unique('club-creator'));
    await memberships.create(club);
    const identity = { creatorId: club.creatorId, accountId: 'acct_1', createdAt: at(0) };
    const sub = unique('sub');
    const active = { status: 'active' as const, currentPeriodEnd: at(60), cancelAtPeriodEnd: false, customerId: 'cus_1' };
    expect(await memberships.applyState({ membershipId: club.id, subscriptionId: sub, identity, state: active, eventKey: 2 })).toBe(true);
    // An older event changes nothing.
    expect(await memberships.applyState({ membershipId: club.id, subscriptionId: sub, identity, state: { ...active, status: 'incomplete' }, eventKey: 1 })).toBe(false);
    const bound = await memberships.bindLearner({ membershipId: club.id, subscriptionId: sub, identity, email: 'ann@example.com', learnerId: 'learner-ann' });
    expect(bound).toMatchObject({ status: 'active', email: 'ann@example.com', learnerId: 'learner-ann' });
    expect(await memberships.applyState({ membershipId: club.id, subscriptionId: sub, identity, state: { ...active, status: 'canceled' }, eventKey: 3 })).toBe(true);
    // Cancelled for good: a late 'active' does not bring it back.
    expect(await memberships.applyState({ membershipId: club.id, subscriptionId: sub, identity, state: active, eventKey: 4 })).toBe(false);
    expect((await memberships.member(club.id, sub))?.status).toBe('canceled');
    expect((await memberships.membersOfLearner(club.id, 'learner-ann')).map((m) => m.subscriptionId)).toEqual([sub]);

    const second = unique('sub');
    await memberships.bindLearner({ membershipId: club.id, subscriptionId: second, identity: { ...identity, createdAt: at(30) }, email: 'bob@example.com', learnerId: 'learner-bob' });
    const first = await memberships.members(club.id, { limit: 1 });
    expect(first.items).toHaveLength(1);
    const rest = await memberships.members(club.id, { cursor: first.nextCursor ?? undefined, limit: 10 });
    expect([...first.items, ...rest.items].map((m) => m.subscriptionId).sort()).toEqual([sub, second].sort());
    // The figures went with each change: paying once, then ended on its period's last day; not moved by the refusals.
    expect(await memberships.figures(club.id, '2026-11-01')).toEqual({ paying: 0, ended: 1 });
    expect(await memberships.figures(club.id, '2026-11-02')).toEqual({ paying: 0, ended: 0 });
  });

  it('keeps its figures right under concurrent and reordered events: every subscription counted once, in its last state', async () => {
    const memberships = dynamoMemberships();
    const club = membership(unique('club-creator'));
    await memberships.create(club);
    const identity = { creatorId: club.creatorId, accountId: 'acct_1', createdAt: at(0) };
    const state = (status: 'incomplete' | 'active' | 'past_due' | 'canceled') => ({ status, currentPeriodEnd: at(60), cancelAtPeriodEnd: false, customerId: 'cus_1' });
    const subs = Array.from({ length: 6 }, () => unique('sub'));
    // Each subscription's history: incomplete, active, past due, and (for the last two) deleted; every event three
    // times, all at once and newest first, with the buyer's binding among them.
    const history = (sub: string, i: number) => [
      { sub, state: state('incomplete'), eventKey: 1 },
      { sub, state: state('active'), eventKey: 2 },
      { sub, state: state('past_due'), eventKey: 3 },
      ...(i >= 4 ? [{ sub, state: state('canceled'), eventKey: 4 }] : []),
    ];
    const events = subs.flatMap(history).reverse();
    const applied = await Promise.all([
      ...[...events, ...events, ...events].map((e) => memberships.applyState({ membershipId: club.id, subscriptionId: e.sub, identity, state: e.state, eventKey: e.eventKey })),
      ...subs.map((sub, i) => memberships.bindLearner({ membershipId: club.id, subscriptionId: sub, identity, email: `m${i}@example.com`, learnerId: `learner-${i}` })),
    ]);
    expect(applied.length).toBe(events.length * 3 + subs.length);
    const rows = await memberships.members(club.id, { limit: 20 });
    expect(rows.items.map((m) => m.status).sort()).toEqual(['canceled', 'canceled', 'past_due', 'past_due', 'past_due', 'past_due']);
    expect(await memberships.figures(club.id, '2026-11-01')).toEqual({ paying: 4, ended: 2 });
    // A redelivery of the last state changes nothing.
    await memberships.applyState({ membershipId: club.id, subscriptionId: subs[0]!, identity, state: state('past_due'), eventKey: 3 });
    expect(await memberships.figures(club.id, '2026-11-01')).toEqual({ paying: 4, ended: 2 });
  });
});
