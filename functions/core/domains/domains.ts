import {
  challengeName,
  DOMAINS_PER_CREATOR_MAX,
  UNVERIFIED_CLAIM_DAYS,
  type AddDomainBody,
  type DomainList,
  type DomainView,
  type PublicDomain,
} from '#contracts/domains.ts';
import { ConflictError, NotFoundError, UpstreamError, ValidationError } from '#core/errors.ts';
import { checkHostname } from '#core/domains/hostnames.ts';
import type { DnsLookup, DomainDeps, EdgeTenants, StoredDomain } from '#core/domains/ports.ts';

/**
 * Custom domains (issue 32 points 2 and 4; decision 0055): the use cases of the creator's routes and the state
 * machine the Verify button and the periodic 'domains-check' job share (`advance`):
 *   pending_verification --TXT and CNAME found--> issuing_certificate --edge active--> active
 *   pending_verification --UNVERIFIED_CLAIM_DAYS without the records--> failed
 *   issuing_certificate --the edge fails, or ISSUING_DAYS pass--> failed
 *   active --CNAME no longer at the platform--> active, flagged (cleared when it points back)
 *   failed --Verify--> checked again as pending (a creator who fixed the records need not remove and re-add)
 *   any --removed, the edge's delete refused while its disable deploys--> `removingAt` set: gone for the creator and
 *     the storefront, the job retries the edge's delete (`retryRemoval`) and then deletes the claim
 * A hostname is one item (the claim), so one creator holds it; every write after the claim is conditional on the
 * claim as read, so a Verify and the job racing apply one transition.
 */

export const DAY_MS = 24 * 3600_000;
/** How long the edge may take to issue the certificate and deploy before the domain fails. */
export const ISSUING_DAYS = 3;
/** When the job looks again: a pending claim every 5 minutes, an issuing one every minute, an active one every 6 hours. */
export const CHECK_EVERY_MS = { pending_verification: 5 * 60_000, issuing_certificate: 60_000, active: 6 * 3600_000 } as const;
/** When the job asks the edge again to delete a tenant it refused to delete (CloudFront deploys a disable in minutes). */
export const REMOVAL_RETRY_MS = 5 * 60_000;

export const domainTakenMessage = 'That hostname is already claimed by another account.';
export const domainYoursMessage = 'You have already added that hostname.';
export const domainLimitMessage = `You can have at most ${DOMAINS_PER_CREATOR_MAX} domains. Remove one you no longer use first.`;
export const domainRemovingMessage = 'That hostname is still being taken off the platform. Try again in a few minutes.';
const noSuchDomain = 'No such domain.';

export const toDomainView = (d: StoredDomain, cnameTarget: string): DomainView => ({
  hostname: d.hostname,
  status: d.status,
  verification: { type: 'TXT', name: challengeName(d.hostname), value: d.token },
  target: { type: 'CNAME', value: cnameTarget },
  problem: d.problem,
  failureReason: d.failureReason,
  flaggedAt: d.flaggedAt,
  flagReason: d.flagReason,
  createdAt: d.createdAt,
  checkedAt: d.checkedAt,
  activatedAt: d.activatedAt,
});

const later = (now: Date, ms: number): string => new Date(now.getTime() + ms).toISOString();

/** Use case: claim a hostname for the creator (201 pending_verification, its records to set). */
export const addDomain = async (deps: DomainDeps, input: { creatorId: string; body: AddDomainBody }): Promise<DomainView> => {
  const checked = checkHostname(input.body.hostname, [...deps.platformHostnames, deps.cnameTarget]);
  if ('problem' in checked) throw new ValidationError(checked.problem, [{ path: ['hostname'], message: checked.problem }]);
  const { hostname } = checked;
  const held = (await deps.domains.list(input.creatorId)).filter((d) => d.removingAt === null);
  if (held.some((d) => d.hostname === hostname)) throw new ConflictError(domainYoursMessage);
  // A soft cap (a Query, then the claim): two adds at once may pass it by one; the claim itself is the hard rule.
  if (held.length >= DOMAINS_PER_CREATOR_MAX) throw new ConflictError(domainLimitMessage);
  const now = deps.clock.now();
  const at = now.toISOString();
  const domain: StoredDomain = {
    hostname,
    creatorId: input.creatorId,
    status: 'pending_verification',
    token: deps.randomToken(),
    createdAt: at,
    updatedAt: at,
    statusAt: at,
    checkedAt: null,
    activatedAt: null,
    problem: null,
    failureReason: null,
    flaggedAt: null,
    flagReason: null,
    nextCheckAt: later(now, CHECK_EVERY_MS.pending_verification),
    removingAt: null,
  };
  const claimed = await deps.domains.claim(domain, new Date(now.getTime() - UNVERIFIED_CLAIM_DAYS * DAY_MS).toISOString());
  if (claimed.outcome === 'taken') {
    if (claimed.removing) throw new ConflictError(domainRemovingMessage);
    throw new ConflictError(claimed.creatorId === input.creatorId ? domainYoursMessage : domainTakenMessage);
  }
  return toDomainView(domain, deps.cnameTarget);
};

/** Use case: the creator's domains (one being taken off the edge is removed already, as far as they are concerned). */
export const listDomains = async (deps: Pick<DomainDeps, 'domains' | 'cnameTarget'>, creatorId: string): Promise<DomainList> => ({
  items: (await deps.domains.list(creatorId)).filter((d) => d.removingAt === null).map((d) => toDomainView(d, deps.cnameTarget)),
});

const sameName = (a: string, b: string): boolean => a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

/** What is missing for the claim to be verified (null: both records are there). */
export const recordsProblem = async (dns: DnsLookup, d: Pick<StoredDomain, 'hostname' | 'token'>, cnameTarget: string): Promise<string | null> => {
  const [txt, cname] = await Promise.all([dns.txt(challengeName(d.hostname)), dns.cname(d.hostname)]);
  const problems = [
    ...(txt.includes(d.token) ? [] : [`No TXT record ${challengeName(d.hostname)} with the value shown yet.`]),
    ...(cname.some((c) => sameName(c, cnameTarget)) ? [] : [`No CNAME record from ${d.hostname} to ${cnameTarget} yet.`]),
  ];
  return problems.length === 0 ? null : problems.join(' ');
};

/** The CNAME of an active domain, checked again: the reason it is flagged, or null while it points at the platform. */
export const pointingProblem = async (dns: DnsLookup, hostname: string, cnameTarget: string): Promise<string | null> =>
  (await dns.cname(hostname)).some((c) => sameName(c, cnameTarget)) ? null : `${hostname} no longer points at ${cnameTarget}: its CNAME record was changed or removed.`;

const edgeFailed = (reason: string) => `The certificate could not be issued: ${reason}`;

/**
 * The claim's next state, checked now (pure but for DNS and the edge): what the Verify button and the job both do.
 * Returns the claim unchanged when nothing moved (no write then).
 */
export const nextState = async (deps: Pick<DomainDeps, 'dns' | 'edge' | 'cnameTarget'> & { now: Date }, d: StoredDomain, options: { retryFailed?: boolean } = {}): Promise<StoredDomain> => {
  const { now } = deps;
  const at = now.toISOString();
  const retried = d.status === 'failed' && options.retryFailed === true;
  const checked = { ...d, checkedAt: at, updatedAt: at, ...(retried ? { statusAt: at } : {}) };
  const status = retried ? 'pending_verification' : d.status;
  switch (status) {
    case 'pending_verification': {
      const problem = await recordsProblem(deps.dns, d, deps.cnameTarget);
      if (problem !== null) {
        if (now.getTime() - Date.parse(checked.statusAt) >= UNVERIFIED_CLAIM_DAYS * DAY_MS) {
          return { ...checked, status: 'failed', statusAt: at, problem, failureReason: `Not verified within ${UNVERIFIED_CLAIM_DAYS} days: ${problem}`, nextCheckAt: null };
        }
        return { ...checked, status, problem, failureReason: null, nextCheckAt: later(now, CHECK_EVERY_MS.pending_verification) };
      }
      return afterEdge({ ...checked, problem: null, failureReason: null }, await deps.edge.create(d.hostname), now);
    }
    case 'issuing_certificate': {
      const state = await deps.edge.status(d.hostname);
      // The tenant vanished (removed by hand): asked for again.
      if (state.status === 'missing') return afterEdge(checked, await deps.edge.create(d.hostname), now);
      if (state.status === 'issuing' && now.getTime() - Date.parse(d.statusAt) >= ISSUING_DAYS * DAY_MS) {
        return { ...checked, status: 'failed', statusAt: at, failureReason: edgeFailed(`not issued within ${ISSUING_DAYS} days.`), nextCheckAt: null };
      }
      return afterEdge(checked, state, now);
    }
    case 'active': {
      const flag = await pointingProblem(deps.dns, d.hostname, deps.cnameTarget);
      const next = later(now, CHECK_EVERY_MS.active);
      if (flag === null) return { ...checked, flaggedAt: null, flagReason: null, nextCheckAt: next };
      return { ...checked, flaggedAt: d.flaggedAt ?? at, flagReason: flag, nextCheckAt: next };
    }
    case 'failed':
      return d;
  }
};

/** Where the edge's answer takes the claim. */
const afterEdge = (d: StoredDomain, state: Awaited<ReturnType<EdgeTenants['status']>>, now: Date): StoredDomain => {
  const at = now.toISOString();
  const since = (status: StoredDomain['status']) => (d.status === status ? d.statusAt : at);
  switch (state.status) {
    case 'active':
      return { ...d, status: 'active', statusAt: since('active'), activatedAt: d.activatedAt ?? now.toISOString(), flaggedAt: null, flagReason: null, nextCheckAt: later(now, CHECK_EVERY_MS.active) };
    case 'failed':
      return { ...d, status: 'failed', statusAt: at, failureReason: edgeFailed(state.reason), nextCheckAt: null };
    case 'issuing':
    case 'missing':
      return { ...d, status: 'issuing_certificate', statusAt: since('issuing_certificate'), nextCheckAt: later(now, CHECK_EVERY_MS.issuing_certificate) };
  }
};

/**
 * Use case: Verify (POST /api/domains/{hostname}/verify): the claim checked at once and moved as far as it goes; a
 * failed one is checked again from the start. Another creator's hostname is 404, as one nobody holds.
 */
export const verifyDomain = async (deps: DomainDeps, input: { creatorId: string; hostname: string }): Promise<DomainView> => {
  const before = await deps.domains.get(input.hostname.toLowerCase());
  if (!before || before.creatorId !== input.creatorId || before.removingAt !== null) throw new NotFoundError(noSuchDomain);
  const after = await nextState({ ...deps, now: deps.clock.now() }, before, { retryFailed: true });
  if (after === before) return toDomainView(before, deps.cnameTarget);
  if ((await deps.domains.save(after, before)) === 'changed') {
    // The job moved it meanwhile: what it wrote stands.
    const now = await deps.domains.get(before.hostname);
    if (!now || now.creatorId !== input.creatorId || now.removingAt !== null) throw new NotFoundError(noSuchDomain);
    return toDomainView(now, deps.cnameTarget);
  }
  return toDomainView(after, deps.cnameTarget);
};

/**
 * Use case: remove a domain (204). The edge stops serving it first (a failure there is 502 and the claim stays, so the
 * creator can try again and no tenant is left serving a hostname nobody holds); then the claim goes, and with it the
 * storefront's lookup. When the edge disabled the tenant but refused to delete it yet (CloudFront deploys a disable
 * in minutes), the claim is kept, marked `removingAt` and due: it is gone for the creator and the storefront at once,
 * and the 'domains-check' job deletes the tenant, then the claim (`retryRemoval`), so no tenant is left behind.
 */
export const removeDomain = async (deps: Pick<DomainDeps, 'domains' | 'edge' | 'clock'>, input: { creatorId: string; hostname: string }): Promise<void> => {
  const domain = await deps.domains.get(input.hostname.toLowerCase());
  if (!domain || domain.creatorId !== input.creatorId || domain.removingAt !== null) throw new NotFoundError(noSuchDomain);
  if (domain.status === 'issuing_certificate' || domain.status === 'active' || domain.status === 'failed') {
    let outcome: 'removed' | 'disabling';
    try {
      outcome = await deps.edge.remove(domain.hostname);
    } catch (error) {
      throw new UpstreamError(`The domain could not be taken off the edge just now (${error instanceof Error ? error.message : String(error)}). Try again in a minute.`);
    }
    if (outcome === 'disabling') {
      const now = deps.clock.now();
      const at = now.toISOString();
      const removing: StoredDomain = { ...domain, removingAt: at, updatedAt: at, nextCheckAt: later(now, REMOVAL_RETRY_MS) };
      // 'changed': Verify or the job wrote meanwhile; the creator's Remove stands all the same, so once more on that.
      if ((await deps.domains.save(removing, domain)) === 'changed') {
        const again = await deps.domains.get(domain.hostname);
        if (!again || again.creatorId !== input.creatorId) return;
        if ((await deps.domains.save({ ...again, removingAt: at, updatedAt: at, nextCheckAt: later(now, REMOVAL_RETRY_MS) }, again)) === 'changed') {
          throw new UpstreamError('The domain changed while it was being removed. Try again.');
        }
      }
      return;
    }
  }
  if (!(await deps.domains.remove(input.creatorId, domain.hostname))) throw new NotFoundError(noSuchDomain);
};

/**
 * The job's step for a claim marked `removingAt`: the edge asked again to delete the tenant; once it is gone, the
 * claim is deleted ('removed'); still refused, the claim is due again later ('retry'). 'changed': another write came
 * first (nothing done).
 */
export const retryRemoval = async (deps: Pick<DomainDeps, 'domains' | 'edge'> & { now: Date }, d: StoredDomain): Promise<'removed' | 'retry' | 'changed'> => {
  if ((await deps.edge.remove(d.hostname)) === 'removed') {
    return (await deps.domains.remove(d.creatorId, d.hostname)) ? 'removed' : 'changed';
  }
  const at = deps.now.toISOString();
  return (await deps.domains.save({ ...d, updatedAt: at, checkedAt: at, nextCheckAt: later(deps.now, REMOVAL_RETRY_MS) }, d)) === 'saved' ? 'retry' : 'changed';
};

/**
 * Use case: the storefront's lookup (GET /api/public/domains/{hostname}): the creator an active domain serves, 404
 * for anything else (pending, failed, unknown). A flagged domain still serves: its creator is told, not cut off.
 */
export const publicDomainOf = async (
  deps: { domains: Pick<DomainDeps['domains'], 'get'>; slugOf: (creatorId: string) => Promise<string | null> },
  hostname: string,
): Promise<PublicDomain> => {
  const domain = await deps.domains.get(hostname.toLowerCase().replace(/\.$/, ''));
  if (domain?.status !== 'active' || domain.removingAt !== null) throw new NotFoundError('No storefront at this address.');
  return { hostname: domain.hostname, creatorSlug: await deps.slugOf(domain.creatorId) };
};
