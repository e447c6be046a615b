import { ExternalLink } from 'lucide-react';
import type { ReportRow } from '@contracts/licenses.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { formatDay } from '@/lib/format-date.ts';
import { cn } from '@/lib/utils.ts';
import { leaderMessages } from '../leader-messages.ts';

const m = leaderMessages.reports;

/*
 * Below 1280 px the table folds into cards, as the members' table does: the email and the course across the top,
 * then status, progress, last activity, completion and certificate under their column's names (the cell's
 * data-label, shown by CSS; the header row stays for screen readers): two by two on phones, three across from 640 px,
 * all five in a row from 1024 px. Every track may shrink, so a long email or title wraps inside its card, never the page.
 */
const folded = {
  table: 'max-xl:block',
  header: 'max-xl:sr-only',
  body: 'max-xl:grid max-xl:gap-3',
  row: 'max-xl:grid max-xl:grid-cols-2 sm:max-lg:grid-cols-3 lg:max-xl:grid-cols-5 max-xl:gap-x-4 max-xl:gap-y-3 max-xl:rounded-lg max-xl:border! max-xl:bg-card max-xl:p-4 max-xl:hover:bg-card',
  cell: 'max-xl:block max-xl:min-w-0 max-xl:p-0 max-xl:before:mb-0.5 max-xl:before:block max-xl:before:text-xs max-xl:before:text-muted-foreground max-xl:before:content-[attr(data-label)]',
  unlabelled: 'max-xl:before:hidden',
  across: 'max-xl:col-span-2 sm:max-lg:col-span-3 lg:max-xl:col-span-5',
};

/**
 * One row per seat: the member, the course, the seat's status, progress, last activity, completion and certificate.
 * `busy`: these are the previous filters' rows, dimmed while the new ones load.
 */
export function ReportTable({ rows, busy = false }: { rows: ReportRow[]; busy?: boolean }) {
  return (
    <div aria-busy={busy || undefined} className={cn('transition-opacity', busy && 'opacity-60')}>
      <Table label={m.table} className={folded.table}>
        <TableHeader className={folded.header}>
          <TableRow>
            <TableHead>Member</TableHead>
            <TableHead>Course</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Progress</TableHead>
            <TableHead>Last activity</TableHead>
            <TableHead>Completed</TableHead>
            <TableHead>Certificate</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className={folded.body}>
          {rows.map((row) => (
            <ReportTableRow key={`${row.licenseId}/${row.email}`} row={row} />
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function ReportTableRow({ row }: { row: ReportRow }) {
  return (
    <TableRow className={folded.row}>
      <TableCell className={cn(folded.cell, folded.unlabelled, folded.across, 'min-w-52')}>
        <span className="font-medium [overflow-wrap:anywhere] max-xl:text-base">{row.email}</span>
      </TableCell>
      <TableCell className={cn(folded.cell, folded.unlabelled, folded.across, 'min-w-32 max-xl:-mt-2 max-xl:text-muted-foreground')}>
        <span className="[overflow-wrap:anywhere]">{row.courseTitle}</span>
      </TableCell>
      <TableCell data-label="Status" className={folded.cell}>
        {row.status === 'active' ? (
          <Badge className="border-transparent bg-emerald-100 text-emerald-900">Active</Badge>
        ) : (
          <Badge className="border-transparent bg-muted text-muted-foreground">Removed</Badge>
        )}
      </TableCell>
      <TableCell data-label="Progress" className={folded.cell}>
        <div className="flex items-center gap-2">
          <Progress value={row.progress} aria-label={`${row.email} in ${row.courseTitle}: ${row.progress}% complete`} className="w-20 max-xl:min-w-0 max-xl:flex-1" />
          <span className="w-10 shrink-0 text-right text-xs tabular-nums text-muted-foreground">{row.progress}%</span>
        </div>
      </TableCell>
      <TableCell data-label="Last activity" className={cn(folded.cell, 'whitespace-nowrap')}>
        {row.lastActivity === null ? <span className="text-muted-foreground">{m.notStarted}</span> : <time dateTime={row.lastActivity}>{formatDay(row.lastActivity)}</time>}
      </TableCell>
      <TableCell data-label="Completed" className={cn(folded.cell, 'whitespace-nowrap')}>
        {row.completedAt === null ? <Absent label={m.notCompleted} /> : <time dateTime={row.completedAt}>{formatDay(row.completedAt)}</time>}
      </TableCell>
      <TableCell data-label="Certificate" className={folded.cell}>
        {row.certificate === null ? (
          <Absent label={m.noCertificate} />
        ) : (
          <a
            href={row.certificate}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 font-medium underline underline-offset-4 hover:text-foreground/80"
          >
            {m.viewCertificate}
            <span className="sr-only">
              {' '}
              the certificate of {row.email} for {row.courseTitle} (opens in a new tab)
            </span>
            <ExternalLink aria-hidden="true" className="size-3.5" />
          </a>
        )}
      </TableCell>
    </TableRow>
  );
}

/** A dash to the eye, words to a screen reader. */
function Absent({ label }: { label: string }) {
  return (
    <span className="text-muted-foreground">
      <span aria-hidden="true">—</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}
