import type { Paged } from '#contracts/common.ts';
import { EXPORT_HEADERS, exportKind, type CreatorExport, type ExportKind } from '#contracts/reports.ts';
import { saleTitle } from '#contracts/sales.ts';
import { exportCsvPages } from '#core/csv.ts';
import { ValidationError } from '#core/errors.ts';
import type { BillingRepository, CertificateRepository, Clock, CourseRepository, ExportFiles, Ids, Order, OrderRepository, StoredCertificate } from '#core/ports.ts';
import type { CreatorLearners, LearnerRow } from '#core/reports/ports.ts';
import { requireFeature } from '#core/reports/course-report.ts';

/**
 * The creator's CSV exports (issue 29 point 3, Pro): every sale, every enrolment, every certificate, read a page at a
 * time from the creator's own listings (never a scan) and written to the export store as it goes (core/csv.ts
 * exportCsvPages: the function holds one page, whatever the size), formula-safe. Answered as a download link.
 */

/** Rows read per page (one Query each; certificates: per course, the courses a page at a time too). */
export const EXPORT_PAGE = 500;
const COURSE_PAGE = 100;

export interface ExportDeps {
  orders: Pick<OrderRepository, 'listSales'>;
  crm: CreatorLearners;
  courses: Pick<CourseRepository, 'pageByCreator'>;
  certificates: Pick<CertificateRepository, 'listByCourse'>;
  billing: Pick<BillingRepository, 'getSubscription'>;
  exports: ExportFiles;
  ids: Ids;
  clock: Clock;
  pageSize?: number;
}

const money = (pence: number): string => (pence / 100).toFixed(2);

const saleRow = (o: Order): string[] => [
  o.id,
  o.paidAt ?? '',
  o.status,
  o.courseId,
  // A bundle's sale is named as one ('Bundle: <title>'); its courseId is the bundle's.
  saleTitle(o),
  o.buyerEmail ?? '',
  money(o.price),
  money(o.discount),
  money(o.amount),
  o.currency,
  o.couponCode ?? '',
  o.affiliateId ?? '',
  o.seats === null ? '' : String(o.seats),
];

const learnerRow = (e: LearnerRow): string[] => [
  e.learnerId,
  e.learnerEmail ?? '',
  e.courseId,
  e.courseTitle ?? '',
  e.enrolledAt,
  String(e.progress ?? 0),
  e.lastActivity ?? '',
  e.completedAt ?? '',
];

const certificateRow = (c: StoredCertificate): string[] => [c.id, c.courseId, c.courseTitle, c.learnerId, c.learnerEmail, c.learnerName ?? '', c.issuedAt, c.status, c.revokedAt ?? ''];

/**
 * The certificates of every course of the creator, as pages: the creator's courses a page at a time, and each course's
 * certificates a page at a time. The cursor carries both places (opaque to the client: it never leaves the function).
 */
const certificatePages = (deps: ExportDeps, creatorId: string, limit: number) => {
  type Place = { courses: string | null; queue: string[]; certs: string | null };
  const coursesFrom = async (cursor: string | undefined): Promise<Place> => {
    const courses = await deps.courses.pageByCreator(creatorId, { cursor, limit: COURSE_PAGE });
    return { courses: courses.nextCursor, queue: courses.items.map((c) => c.id), certs: null };
  };
  return async (cursor: string | undefined): Promise<Paged<StoredCertificate>> => {
    let place = cursor ? (JSON.parse(cursor) as Place) : await coursesFrom(undefined);
    while (place.queue.length === 0) {
      if (place.courses === null) return { items: [], nextCursor: null };
      place = await coursesFrom(place.courses);
    }
    const [courseId, ...rest] = place.queue;
    const page = await deps.certificates.listByCourse(courseId!, { cursor: place.certs ?? undefined, limit });
    const next: Place = page.nextCursor ? { ...place, certs: page.nextCursor } : { courses: place.courses, queue: rest, certs: null };
    return { items: page.items, nextCursor: next.queue.length > 0 || next.courses !== null ? JSON.stringify(next) : null };
  };
};

/** The export's rows, page by page, and how each becomes a CSV row. */
const source = (deps: ExportDeps, creatorId: string, kind: ExportKind, limit: number) => {
  switch (kind) {
    case 'sales':
      return { page: (cursor: string | undefined) => deps.orders.listSales(creatorId, cursor, limit), row: saleRow };
    case 'learners':
      return {
        page: async (cursor: string | undefined) => {
          const page = await deps.crm.learnersPage({ creatorId, limit, ...(cursor ? { cursor } : {}) });
          return { items: page.items, nextCursor: page.cursor ?? null };
        },
        row: learnerRow,
      };
    case 'certificates':
      return { page: certificatePages(deps, creatorId, limit), row: certificateRow };
  }
};

/**
 * GET /api/creator/exports/{kind}?format=csv: every row of the kind (`sales` newest first, `learners` active
 * enrolments newest first, `certificates` course by course, newest first), written to a new file. An unknown kind is
 * 400; a plan without detailed reports is 403 PLAN_REQUIRED (Pro).
 */
export const creatorExport = async (deps: ExportDeps, input: { creatorId: string; kind: string }): Promise<CreatorExport> => {
  const parsed = exportKind.safeParse(input.kind);
  if (!parsed.success) throw new ValidationError('The export is one of sales, learners or certificates.', [{ path: ['kind'], message: 'sales, learners or certificates' }]);
  await requireFeature(deps, input.creatorId, 'detailedReports');
  const kind = parsed.data;
  const { page, row } = source(deps, input.creatorId, kind, deps.pageSize ?? EXPORT_PAGE) as {
    page: (cursor: string | undefined) => Promise<Paged<unknown>>;
    row: (item: unknown) => readonly string[];
  };
  const day = deps.clock.now().toISOString().slice(0, 10);
  return exportCsvPages(deps.exports, { key: `creator-exports/${input.creatorId}/${kind}/${deps.ids.newId()}.csv`, fileName: `${kind}-${day}.csv` }, EXPORT_HEADERS[kind], page, row);
};
