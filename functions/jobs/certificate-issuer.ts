import type { Context, ScheduledEvent } from 'aws-lambda';
import { issueDueCertificates } from '#core/certificates/certificates.ts';
import { issueDeps } from '#functions/composition/deps-certificates.ts';
import { invocation } from '#middleware/invocation.ts';

/**
 * Every minute, by EventBridge Scheduler: each course completed since gets its certificate, signed, stored and
 * emailed, once however often it runs (a run near its timeout stops; the next goes on).
 */
export const handler = (event: Partial<ScheduledEvent> = {}, context?: Pick<Context, 'getRemainingTimeInMillis'>) =>
  invocation({ job: 'certificate-issuer' }, async (log) => {
    const result = await issueDueCertificates(issueDeps(() => context?.getRemainingTimeInMillis() ?? 25_000, (message, fields) => log.warn(message, fields)));
    if (result.issued + result.cleared > 0) log.info('certificates issued', { scheduledAt: event.time, ...result });
    return result;
  });
