import { nextState, retryRemoval } from '#core/domains/domains.ts';
import type { DomainDeps, StoredDomain } from '#core/domains/ports.ts';
import { throughPages, type SliceWork } from '#core/jobs/slices.ts';

/**
 * The 'domains-check' job's work (issue 32 points 2 and 4), every 5 minutes: the claims whose check is due (their
 * index, a page at a time), each moved as Verify would (core/domains/domains.ts `nextState`): a pending claim whose
 * records appeared starts issuing, one that never verified fails after UNVERIFIED_CLAIM_DAYS; an issuing one becomes
 * active when the edge says so; an active one whose CNAME no longer points at the platform is flagged (and unflagged
 * when it points back). Each write is conditional on the claim as read: a Verify meanwhile wins, nothing is applied
 * twice. A failure of one claim (DNS or the edge not answering) is counted and leaves it due: the next run tries again.
 * A claim its creator removed while the edge still refused to delete its tenant (`removingAt`) is taken off the edge
 * again, then deleted: no tenant is left behind.
 */

export const DUE_DOMAINS_PAGE = 25;
/** Claims checked at once (each waits on DNS, and on the edge's API for an issuing one). */
export const DUE_DOMAINS_CONCURRENCY = 4;

export interface DomainCheckDeps extends Pick<DomainDeps, 'domains' | 'dns' | 'edge' | 'clock' | 'cnameTarget'> {
  warn: (message: string, fields: Record<string, unknown>) => void;
}

export interface DomainCheckCounts extends Record<string, number> {
  checked: number;
  issuing: number;
  activated: number;
  failed: number;
  flagged: number;
  /** Removed claims whose tenant the edge deleted at last (the claim went with it). */
  removed: number;
  /** A Verify (or another run) wrote first. */
  superseded: number;
  errors: number;
}

/** One due claim: checked, and its new state written if it moved. */
export const checkDomain = async (deps: DomainCheckDeps, read: StoredDomain, counts: DomainCheckCounts): Promise<void> => {
  const before = await deps.domains.get(read.hostname);
  if (!before || before.updatedAt !== read.updatedAt) {
    counts.superseded++;
    return;
  }
  if (before.removingAt !== null) {
    const outcome = await retryRemoval({ ...deps, now: deps.clock.now() }, before);
    if (outcome === 'removed') counts.removed++;
    if (outcome === 'changed') counts.superseded++;
    return;
  }
  const after = await nextState({ ...deps, now: deps.clock.now() }, before);
  counts.checked++;
  if (after === before) return;
  if ((await deps.domains.save(after, before)) === 'changed') {
    counts.superseded++;
    return;
  }
  if (after.status !== before.status) {
    if (after.status === 'issuing_certificate') counts.issuing++;
    if (after.status === 'active') counts.activated++;
    if (after.status === 'failed') counts.failed++;
  }
  if (after.flaggedAt !== null && before.flaggedAt === null) counts.flagged++;
};

export const runDomainChecks =
  (deps: DomainCheckDeps): SliceWork<DomainCheckCounts> =>
  async (slice, timeUp) => {
    const now = deps.clock.now().toISOString();
    const counts: DomainCheckCounts = { checked: 0, issuing: 0, activated: 0, failed: 0, flagged: 0, removed: 0, superseded: 0, errors: 0 };
    const { cursor } = await throughPages({
      cursor: slice.cursor,
      timeUp,
      concurrency: DUE_DOMAINS_CONCURRENCY,
      page: (after) => deps.domains.due(now, DUE_DOMAINS_PAGE, after),
      handle: async (domain) => {
        try {
          await checkDomain(deps, domain, counts);
        } catch (error) {
          counts.errors++;
          deps.warn('a domain check failed', { hostname: domain.hostname, error: error instanceof Error ? error.message : String(error) });
        }
      },
    });
    return { cursor, counts };
  };
