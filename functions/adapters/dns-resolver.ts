import { Resolver } from 'node:dns/promises';
import type { DnsLookup } from '#core/domains/ports.ts';

/**
 * DNS as the custom domains' checks read it (decision 0055): node:dns's Resolver (c-ares, real DNS queries, not the
 * system's getaddrinfo), on the servers given (`DNS_RESOLVER`: `host:port[,host:port]`, the local cloud's DNS
 * stand-in), or the system's servers when none are (AWS: the VPC-less Lambda's resolver). A name without the record
 * (NXDOMAIN, no data) is an empty list; any other failure (a timeout, a refused query) is thrown, so nothing is
 * concluded from a resolver that did not answer.
 */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

const orNone = async <T>(query: () => Promise<T[]>): Promise<T[]> => {
  try {
    return await query();
  } catch (error) {
    if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
};

export const dnsResolver = (servers: string | undefined): DnsLookup => {
  // A query is tried once, 2 s at most: a Verify answers in time, and the job comes back anyway.
  const resolver = new Resolver({ timeout: 2_000, tries: 1 });
  if (servers) resolver.setServers(servers.split(',').map((s) => s.trim()).filter((s) => s !== ''));
  return {
    txt: async (name) => (await orNone(() => resolver.resolveTxt(name))).map((chunks) => chunks.join('')),
    cname: async (name) => (await orNone(() => resolver.resolveCname(name))).map((target) => target.replace(/\.$/, '').toLowerCase()),
  };
};
