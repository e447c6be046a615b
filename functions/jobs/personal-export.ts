import { randomUUID } from 'node:crypto';
import { s3ArchiveParts } from '#adapters/s3-archive-parts.ts';
import { EXPORT_PART_BYTES } from '#adapters/s3-export-files.ts';
import { s3UploadedFiles } from '#adapters/s3-uploaded-files.ts';
import { personalExportWork } from '#core/personal-exports/personal-exports.ts';
import { PERSONAL_EXPORT_JOB, type PersonalExportDeps } from '#core/personal-exports/ports.ts';
import { dynamoPersonalExports, dynamoPersonalRecords } from '#data/personal-exports.ts';
import { appOrigin, clock } from '#functions/composition/deps.ts';
import { startMailSender } from '#functions/composition/mail-sender-runs.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';

/**
 * The job's reads (every record about the person, by key or index), their uploads' bytes, the ZIP's multipart upload
 * (a part at a time across slices, S3's 5 MiB each), the email's queue.
 */
export const personalExportDeps = (): PersonalExportDeps => ({
  exports: dynamoPersonalExports(),
  records: dynamoPersonalRecords(),
  files: s3ArchiveParts(),
  partBytes: EXPORT_PART_BYTES,
  uploads: s3UploadedFiles(),
  clock,
  ids: { newId: randomUUID },
  startSender: startMailSender,
  appOrigin: appOrigin(),
});

/** One person's data as one ZIP in S3, its link emailed (core/personal-exports/personal-exports.ts). */
export const work = (_remainingMs: () => number) => personalExportWork(personalExportDeps());

/** Started only by POST /api/me/exports, through its queue: no schedule. */
export const handler = slicedJob(PERSONAL_EXPORT_JOB, work);
