import { runDomainChecks, type DomainCheckDeps } from '#core/domains/check.ts';
import { domainCheckDeps } from '#functions/composition/deps-domains.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { scopedLog } from '#middleware/logger.ts';

/**
 * Every 5 minutes, by EventBridge Scheduler, then on its own queue (decision 0032): the custom domains whose check is
 * due (core/domains/check.ts): pending ones verified when their records appear, issuing ones made active when the
 * edge has their certificate, active ones flagged when their CNAME no longer points at the platform.
 */
const log = scopedLog({ job: 'domains-check' });

/** The job's work; tests replace some of its dependencies (the clock, DNS, the edge). */
export const work = (_remainingMs: () => number, replaced: Partial<DomainCheckDeps> = {}) =>
  runDomainChecks({ ...domainCheckDeps((message, fields) => log.warn(message, fields)), ...replaced });

export const handler = slicedJob('domains-check', (remainingMs) => work(remainingMs));
