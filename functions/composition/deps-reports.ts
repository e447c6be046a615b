import { dynamoCertificates } from '#data/certificates.ts';
import { readSubscription } from '#data/billing.ts';
import { dynamoCourseReports } from '#data/course-reports.ts';
import type { ExportDeps } from '#core/reports/exports.ts';
import { clock, courseReader, courseRepository, crmRepository, exportFiles, ids, orderRepository } from '#functions/composition/deps.ts';

/**
 * The composition of the detailed reports (issue 29 point 3): the course report reads the course, its figures and the
 * creator's plan; the exports read the creator's listings a page at a time and write to the export store (S3).
 */
export const courseReportDeps = () => ({ courses: courseReader(), reports: dynamoCourseReports(), billing: { getSubscription: readSubscription } });

export const exportDeps = (): ExportDeps => ({
  orders: orderRepository(),
  crm: crmRepository(),
  courses: courseRepository(),
  certificates: dynamoCertificates(),
  billing: { getSubscription: readSubscription },
  exports: exportFiles(),
  ids,
  clock,
});
