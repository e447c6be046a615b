import { Users } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { License } from '@contracts/licenses.ts';
import { Button } from '@/components/ui/button.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { paths } from '@/lib/paths.ts';
import { cn } from '@/lib/utils.ts';
import { endDateLabel, sourceLabel } from '../license-format.ts';
import { leaderMessages as m } from '../leader-messages.ts';
import { LicenseStatusBadge } from './license-status-badge.tsx';
import { SeatsUsage } from './seats-usage.tsx';

/** My Groups opened on one licence. */
export const groupPath = (licenseId: string): string => `${paths.leader.groups}?license=${encodeURIComponent(licenseId)}`;

/*
 * Below 1280 px (the page beside the sidebar is narrower than the five columns want) the table folds into cards, as
 * Coupons and Affiliates do: the course and its status on top, then the seats across the card, the end date under its
 * column's name (the cell's data-label, shown by CSS; the header row stays for screen readers), and 'Manage seats'
 * across the card's width. Every track may shrink, so a long title wraps inside its card, never the page.
 */
const folded = {
  table: 'max-xl:block',
  header: 'max-xl:sr-only',
  body: 'max-xl:grid max-xl:gap-3',
  row: 'max-xl:grid max-xl:grid-cols-[minmax(0,1fr)_auto] max-xl:gap-x-4 max-xl:gap-y-3 max-xl:rounded-lg max-xl:border! max-xl:bg-card max-xl:p-4 max-xl:hover:bg-card',
  cell: 'max-xl:block max-xl:min-w-0 max-xl:p-0 max-xl:before:mb-0.5 max-xl:before:block max-xl:before:text-xs max-xl:before:text-muted-foreground max-xl:before:content-[attr(data-label)]',
  unlabelled: 'max-xl:before:hidden',
};

/** The leader's licences: course, seats used of the total (with a bar), end date, status, and 'Manage seats'. */
export function LicensesTable({ licenses }: { licenses: License[] }) {
  return (
    <Table label={m.licenses.title} className={folded.table}>
      <TableHeader className={folded.header}>
        <TableRow>
          <TableHead>Course</TableHead>
          <TableHead>Seats</TableHead>
          <TableHead>Ends</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody className={folded.body}>
        {licenses.map((license) => (
          <LicenseRow key={license.id} license={license} />
        ))}
      </TableBody>
    </Table>
  );
}

function LicenseRow({ license }: { license: License }) {
  return (
    <TableRow className={folded.row}>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'min-w-48')}>
        <span className="block font-medium [overflow-wrap:anywhere] max-xl:text-base">{license.courseTitle}</span>
        <span className="block text-xs text-muted-foreground">{sourceLabel(license)}</span>
      </TableCell>
      <TableCell data-label="Seats" className={cn(folded.cell, 'min-w-40 max-xl:order-3 max-xl:col-span-2 max-xl:before:hidden')}>
        <SeatsUsage license={license} className="max-xl:max-w-md" />
      </TableCell>
      <TableCell data-label="Ends" className={cn(folded.cell, 'whitespace-nowrap max-xl:order-4 max-xl:col-span-2')}>
        <span className={cn(license.expiresAt === null && 'text-muted-foreground')}>{endDateLabel(license)}</span>
      </TableCell>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'max-xl:order-2 max-xl:justify-self-end')}>
        <LicenseStatusBadge license={license} />
      </TableCell>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'text-right max-xl:order-5 max-xl:col-span-2')}>
        <Button asChild variant="outline" size="sm" className="max-xl:h-10 max-sm:w-full">
          <Link to={groupPath(license.id)} aria-label={`${m.licenses.manage} of ${license.courseTitle}`}>
            <Users aria-hidden="true" />
            {m.licenses.manage}
          </Link>
        </Button>
      </TableCell>
    </TableRow>
  );
}
