import { issueDueCertificates } from '#core/certificates/certificates.ts';
import { issueDeps } from '#functions/composition/deps-certificates.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { scopedLog } from '#middleware/logger.ts';

/**
 * Every minute, by EventBridge Scheduler, then on its own queue (decision 0033): each course completed since gets its
 * certificate, signed, stored and emailed, several at once at the platform's share of SES's rate, once however
 * often it runs; the run goes on slice after slice until none is due.
 */
const log = scopedLog({ job: 'certificate-issuer' });

export const work = (_remainingMs: () => number) => issueDueCertificates(issueDeps((message, fields) => log.warn(message, fields)));

export const handler = slicedJob('certificate-issuer', work);
