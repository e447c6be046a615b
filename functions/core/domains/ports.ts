import type { DomainStatus } from '#contracts/domains.ts';
import type { Clock } from '#core/ports.ts';

/** A claimed hostname as stored (functions/data/domains.ts): one item per hostname, so one creator holds it. */
export interface StoredDomain {
  readonly hostname: string;
  readonly creatorId: string;
  readonly status: DomainStatus;
  /** The TXT record's value: random per claim, so a record left from someone else's claim proves nothing. */
  readonly token: string;
  readonly createdAt: string;
  /** Every write sets it: the conditional writes compare it (a verify and the job racing write once). */
  readonly updatedAt: string;
  /** When the claim entered its status: a pending claim fails UNVERIFIED_CLAIM_DAYS after it, an issuing one ISSUING_DAYS. */
  readonly statusAt: string;
  readonly checkedAt: string | null;
  readonly activatedAt: string | null;
  /** While pending: what the last check found missing. */
  readonly problem: string | null;
  readonly failureReason: string | null;
  readonly flaggedAt: string | null;
  readonly flagReason: string | null;
  /** When the periodic job looks at it next (the due index); null: never (failed). */
  readonly nextCheckAt: string | null;
  /**
   * Set when the creator removed the domain but the edge could not delete its tenant yet (CloudFront refuses while the
   * disable is still deploying): the claim stays, out of the creator's list and the storefront's lookup, due for the
   * job, which retries the removal and then deletes it. Null otherwise.
   */
  readonly removingAt: string | null;
}

export interface DomainRepository {
  /**
   * Writes a new claim unless the hostname is held: free, or an unverified claim (pending or failed) created before
   * `staleBefore`, which it replaces. 'taken' (nothing written) otherwise, with the holder's id.
   */
  claim(domain: StoredDomain, staleBefore: string): Promise<{ outcome: 'claimed' } | { outcome: 'taken'; creatorId: string; removing: boolean }>;
  /** The claim of a hostname (one consistent read): the storefront's lookup. */
  get(hostname: string): Promise<StoredDomain | undefined>;
  /** The creator's claims, by hostname (one Query). */
  list(creatorId: string): Promise<StoredDomain[]>;
  /** Saves a claim as changed from `before` (same `updatedAt`); 'changed' when another write came first. */
  save(domain: StoredDomain, before: StoredDomain): Promise<'saved' | 'changed'>;
  /** Deletes the creator's claim; false when they hold no such hostname. */
  remove(creatorId: string, hostname: string): Promise<boolean>;
  /** One page of the claims whose `nextCheckAt` is at or before `now` (the due index). */
  due(now: string, limit: number, after: string | undefined): Promise<{ items: StoredDomain[]; nextCursor: string | null }>;
}

/**
 * What DNS says (adapters/dns-resolver.ts: node:dns with configurable servers). An empty list: no such record
 * (NXDOMAIN, no data); an error: the resolver did not answer (nothing is concluded from it).
 */
export interface DnsLookup {
  /** The TXT records at `name`, each one's strings joined. */
  txt(name: string): Promise<string[]>;
  /** The CNAME targets at `name`, without trailing dots. */
  cname(name: string): Promise<string[]>;
}

/**
 * The edge that serves a hostname over https (decision 0055): in AWS a CloudFront distribution tenant of the
 * multi-tenant distribution, with a CloudFront-managed ACM certificate; locally a stand-in that issues at the first
 * status check. `issuing`: the certificate or the deployment is under way; `failed` carries the edge's reason.
 */
export type EdgeTenantState = { readonly status: 'issuing' | 'active' | 'missing' } | { readonly status: 'failed'; readonly reason: string };

export interface EdgeTenants {
  /** Starts serving the hostname (idempotent: a tenant that exists already is reported as it is). */
  create(hostname: string): Promise<EdgeTenantState>;
  status(hostname: string): Promise<EdgeTenantState>;
  /**
   * Stops serving it and removes the tenant: 'removed' (or there was none), or 'disabling' when the tenant is disabled
   * (serving nothing) but its delete was refused while that deploys: to be asked again later.
   */
  remove(hostname: string): Promise<'removed' | 'disabling'>;
}

export interface DomainDeps {
  readonly domains: DomainRepository;
  readonly dns: DnsLookup;
  readonly edge: EdgeTenants;
  readonly clock: Clock;
  /** A new verification token (random, URL- and DNS-safe). */
  readonly randomToken: () => string;
  /** The hostname every custom domain's CNAME must point at (the edge's). */
  readonly cnameTarget: string;
  /** The platform's own hostnames (the app's, the pages', the CNAME target's): neither they nor their subdomains may be claimed. */
  readonly platformHostnames: readonly string[];
}
