import type { DnsLookup, DomainDeps, DomainRepository, EdgeTenants, EdgeTenantState, StoredDomain } from '#core/domains/ports.ts';

/** An in-memory claim table with the data module's conditions (one creator per hostname, writes on the claim as read). */
export const memoryDomains = (): DomainRepository & { items: Map<string, StoredDomain> } => {
  const items = new Map<string, StoredDomain>();
  return {
    items,
    claim(domain, staleBefore) {
      const held = items.get(domain.hostname);
      if (held && !((held.status === 'pending_verification' || held.status === 'failed') && held.statusAt < staleBefore && held.removingAt === null)) {
        return Promise.resolve({ outcome: 'taken', creatorId: held.creatorId, removing: held.removingAt !== null });
      }
      items.set(domain.hostname, domain);
      return Promise.resolve({ outcome: 'claimed' });
    },
    get: (hostname) => Promise.resolve(items.get(hostname)),
    list: (creatorId) => Promise.resolve([...items.values()].filter((d) => d.creatorId === creatorId).sort((a, b) => a.hostname.localeCompare(b.hostname))),
    save(domain, before) {
      const now = items.get(domain.hostname);
      if (!now || now.updatedAt !== before.updatedAt || now.creatorId !== before.creatorId) return Promise.resolve('changed');
      items.set(domain.hostname, domain);
      return Promise.resolve('saved');
    },
    remove(creatorId, hostname) {
      if (items.get(hostname)?.creatorId !== creatorId) return Promise.resolve(false);
      items.delete(hostname);
      return Promise.resolve(true);
    },
    due(now) {
      const due = [...items.values()].filter((d) => d.nextCheckAt !== null && d.nextCheckAt <= now).sort((a, b) => a.nextCheckAt!.localeCompare(b.nextCheckAt!));
      return Promise.resolve({ items: due, nextCursor: null });
    },
  };
};

/** DNS from a record table (`TXT name`, `CNAME name`). */
export const fakeDns = (): DnsLookup & { records: Map<string, string[]> } => {
  const records = new Map<string, string[]>();
  return {
    records,
    txt: (name) => Promise.resolve(records.get(`TXT ${name}`) ?? []),
    cname: (name) => Promise.resolve(records.get(`CNAME ${name}`) ?? []),
  };
};

/** An edge whose answers the test sets; it remembers what it was asked. */
export const fakeEdge = (): EdgeTenants & { next: EdgeTenantState; created: string[]; removed: string[]; failRemove: boolean; refuseDelete: boolean } => {
  const edge = {
    next: { status: 'issuing' } as EdgeTenantState,
    created: [] as string[],
    removed: [] as string[],
    failRemove: false,
    /** Disabled, but its delete refused (CloudFront still deploying the disable). */
    refuseDelete: false,
    create(hostname: string) {
      edge.created.push(hostname);
      return Promise.resolve<EdgeTenantState>({ status: 'issuing' });
    },
    status: () => Promise.resolve(edge.next),
    remove(hostname: string) {
      if (edge.failRemove) return Promise.reject(new Error('CloudFront 503'));
      if (edge.refuseDelete) return Promise.resolve<'removed' | 'disabling'>('disabling');
      edge.removed.push(hostname);
      return Promise.resolve<'removed' | 'disabling'>('removed');
    },
  };
  return edge;
};

export const TARGET = 'tenants.platform.example';

export const domainDepsFor = (now: { at: Date }) => {
  const domains = memoryDomains();
  const dns = fakeDns();
  const edge = fakeEdge();
  let n = 0;
  const deps: DomainDeps = {
    domains,
    dns,
    edge,
    clock: { now: () => now.at },
    randomToken: () => `token-${++n}`,
    cnameTarget: TARGET,
    platformHostnames: ['app.platform.example', 'pages.platform.example'],
  };
  return { deps, domains, dns, edge };
};
