import { isPayingStatus } from '#contracts/memberships.ts';
import type { MembershipRepository, StoredMember, StoredMembership } from '#core/ports.ts';

/**
 * Memberships in memory, with the table module's rules where they matter: a creator's own, and a subscription's
 * state replaced only by an event not older than the one applied, never after its deletion.
 */
export const memoryMemberships = () => {
  const memberships = new Map<string, StoredMembership>();
  const members = new Map<string, StoredMember>();
  const key = (membershipId: string, subscriptionId: string) => `${membershipId}/${subscriptionId}`;
  const fresh = (membershipId: string, subscriptionId: string, identity: Pick<StoredMember, 'creatorId' | 'accountId' | 'createdAt'>): StoredMember =>
    members.get(key(membershipId, subscriptionId)) ?? {
      membershipId,
      subscriptionId,
      ...identity,
      customerId: null,
      email: null,
      learnerId: null,
      status: 'incomplete',
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      eventKey: 0,
    };
  const repo: MembershipRepository = {
    get: async (id) => structuredClone(memberships.get(id)),
    listByCreator: async (creatorId) => [...memberships.values()].filter((m) => m.creatorId === creatorId).reverse(),
    async create(membership) {
      if (memberships.has(membership.id)) return false;
      memberships.set(membership.id, structuredClone(membership));
      return true;
    },
    async update(creatorId, id, changes) {
      const found = memberships.get(id);
      if (found?.creatorId !== creatorId) return undefined;
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      const saved = { ...found, ...defined };
      memberships.set(id, saved);
      return structuredClone(saved);
    },
    async delete(creatorId, id) {
      if (memberships.get(id)?.creatorId !== creatorId) return false;
      return memberships.delete(id);
    },
    member: async (membershipId, subscriptionId) => structuredClone(members.get(key(membershipId, subscriptionId))),
    async members(membershipId, { cursor, limit }) {
      const all = [...members.values()].filter((m) => m.membershipId === membershipId);
      const start = cursor ? Number(cursor) : 0;
      const items = all.slice(start, start + limit);
      return { items: structuredClone(items), nextCursor: start + limit < all.length ? String(start + limit) : null };
    },
    membersOfLearner: async (membershipId, learnerId) => structuredClone([...members.values()].filter((m) => m.membershipId === membershipId && m.learnerId === learnerId)),
    async applyState({ membershipId, subscriptionId, identity, state, eventKey }) {
      const row = fresh(membershipId, subscriptionId, identity);
      if (row.eventKey > eventKey || row.status === 'canceled') return false;
      members.set(key(membershipId, subscriptionId), { ...row, ...state, eventKey });
      return true;
    },
    // Counted from the rows, as the table's figures items add up their changes.
    async figures(membershipId, sinceDay) {
      const rows = [...members.values()].filter((m) => m.membershipId === membershipId);
      return {
        paying: rows.filter((m) => isPayingStatus(m.status)).length,
        ended: rows.filter((m) => m.status === 'canceled' && (m.currentPeriodEnd ?? '').slice(0, 10) >= sinceDay).length,
      };
    },
    async bindLearner({ membershipId, subscriptionId, identity, email, learnerId }) {
      const row = { ...fresh(membershipId, subscriptionId, identity), email, learnerId };
      members.set(key(membershipId, subscriptionId), row);
      return structuredClone(row);
    },
  };
  return Object.assign(repo, { memberships, rows: members });
};
