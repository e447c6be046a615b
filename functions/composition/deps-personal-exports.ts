import { randomUUID } from 'node:crypto';
import { s3ExportLink } from '#adapters/s3-export-link.ts';
import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import type { Slice } from '#core/jobs/ports.ts';
import { dynamoPersonalExports } from '#data/personal-exports.ts';
import { clock } from '#functions/composition/deps.ts';

/**
 * "Download my data" (issue 37 point 1). The routes hold the export items, the job queue and the presigner (a link
 * made afresh); the S3 client and the readers of every record are the job's alone (functions/jobs/personal-export.ts: the
 * routes' bundles' budget).
 */
export const requestExportDeps = () => ({
  exports: dynamoPersonalExports(),
  clock,
  ids: { newId: randomUUID },
  start: (slice: Slice) => sqsSliceQueue().send([slice]),
});

export const exportStatusDeps = () => ({ exports: dynamoPersonalExports(), clock, link: s3ExportLink });
