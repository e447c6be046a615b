import { useQuery } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useMemo } from 'react';
import type { Coupon } from '@contracts/coupons.ts';
import { Button } from '@/components/ui/button.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { folded } from '@/components/ui/folded-table.ts';
import { courseChoicesQueryOptions } from '@/lib/course-choices.ts';
import { useEntitlements } from '@/lib/entitlements.ts';
import { cn } from '@/lib/utils.ts';
import { useUpdateCoupon } from '../api/coupons-queries.ts';
import { courseTitles, discountLabel, expiresLabel, isExpired, isUsedUp, usedLabel } from '../coupon-format.ts';
import { couponsMessages as m } from '../coupons-messages.ts';

/*
 * Below 640 px the table folds into cards (as the Sales list does): each row a bordered card of two columns, the code
 * and its switch on top, then each cell under its column's name (the cell's data-label, shown by CSS; the header row
 * stays for screen readers), and 'Delete' across the card's width (components/ui/folded-table.ts).
 */

/** The creator's coupons: code, discount, courses, use, last day, the Active switch and 'Delete'. */
export function CouponsTable({ coupons, onDelete }: { coupons: Coupon[]; onDelete: (coupon: Coupon) => void }) {
  const courses = useQuery(courseChoicesQueryOptions());
  const titles = useMemo(() => new Map(courses.data?.items.map((course) => [course.id, course.title])), [courses.data]);
  return (
    <Table label="Coupons" className={folded.table}>
      <TableHeader className={folded.header}>
        <TableRow>
          <TableHead>Code</TableHead>
          <TableHead>Discount</TableHead>
          <TableHead>Courses</TableHead>
          <TableHead className="text-right">Used</TableHead>
          <TableHead>Expires</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody className={folded.body}>
        {coupons.map((coupon) => (
          <CouponRow key={coupon.code} coupon={coupon} titles={courses.data ? titles : undefined} onDelete={() => onDelete(coupon)} />
        ))}
      </TableBody>
    </Table>
  );
}

function CouponRow({ coupon, titles, onDelete }: { coupon: Coupon; titles: ReadonlyMap<string, string> | undefined; onDelete: () => void }) {
  const update = useUpdateCoupon();
  // Without a plan (issue 29) the coupons stay listed, read-only: switching and deleting need a plan.
  const readOnly = useEntitlements().locked('sales');
  // The switch moves at once; the server's answer confirms it, or a refusal puts it back.
  const active = update.isPending ? (update.variables.body.active ?? coupon.active) : coupon.active;
  const expired = isExpired(coupon);
  const usedUp = isUsedUp(coupon);

  const switchTo = (next: boolean) =>
    update.mutate(
      { code: coupon.code, body: { active: next } },
      {
        onSuccess: (changed) =>
          toast.success(changed.active ? m.toggle.on : m.toggle.off, {
            description: changed.active ? `Buyers can use ${changed.code} at checkout.` : `${changed.code} no longer works at checkout.`,
          }),
        onError: (error) => toastError(error, m.toggle.failed),
      },
    );

  return (
    <TableRow className={folded.row}>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'max-sm:order-1 max-sm:self-center')}>
        <span className="font-mono font-semibold [overflow-wrap:anywhere] max-sm:text-base">{coupon.code}</span>
      </TableCell>
      <TableCell data-label="Discount" className={cn(folded.cell, 'whitespace-nowrap max-sm:order-3')}>
        {discountLabel(coupon)}
      </TableCell>
      <TableCell data-label="Courses" className={cn(folded.cell, 'max-w-72 max-sm:order-5 max-sm:max-w-none')}>
        <CoursesOf coupon={coupon} titles={titles} />
      </TableCell>
      <TableCell data-label="Used" className={cn(folded.cell, 'whitespace-nowrap tabular-nums max-sm:order-4 sm:text-right')}>
        {usedLabel(coupon)}
        {usedUp && <span className="block text-xs text-muted-foreground">Used up</span>}
      </TableCell>
      <TableCell data-label="Expires" className={cn(folded.cell, 'whitespace-nowrap max-sm:order-6')}>
        <span className={cn(coupon.expiresAt === null && 'text-muted-foreground')}>{expiresLabel(coupon)}</span>
        {expired && <span className="block text-xs font-medium text-destructive">Expired</span>}
      </TableCell>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'max-sm:order-2 max-sm:justify-self-end')}>
        <div className="flex items-center gap-2">
          <Switch checked={active} disabled={update.isPending || readOnly} onCheckedChange={switchTo} aria-label={`${coupon.code} active`} />
          <span className={cn('text-sm', !active && 'text-muted-foreground')}>
            {active ? 'Active' : 'Inactive'}
          </span>
        </div>
      </TableCell>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'text-right max-sm:order-7 max-sm:col-span-2')}>
        {!readOnly && (
          <Button variant="outline" size="sm" className="max-sm:h-10 max-sm:w-full" aria-label={`Delete ${coupon.code}`} onClick={onDelete}>
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}

/** 'All courses', or the chosen courses' titles (their count until the titles are loaded). */
function CoursesOf({ coupon, titles }: { coupon: Coupon; titles: ReadonlyMap<string, string> | undefined }) {
  if (coupon.courseIds === null) return <>All courses</>;
  if (!titles) return <>{coupon.courseIds.length === 1 ? '1 course' : `${coupon.courseIds.length} courses`}</>;
  return <span className="[overflow-wrap:anywhere]">{courseTitles(coupon.courseIds, titles).join(', ')}</span>;
}
