import type { License } from '@contracts/licenses.ts';
import { Progress } from '@/components/ui/progress.tsx';
import { cn } from '@/lib/utils.ts';
import { seatsPercent, seatsUsedLabel } from '../license-format.ts';

/** '3 of 10 seats used' over a small bar of the same (the bar is named after the course for screen readers). */
export function SeatsUsage({ license, className }: { license: License; className?: string }) {
  const label = seatsUsedLabel(license);
  return (
    <div className={cn('grid min-w-0 gap-1.5', className)}>
      <span className="text-sm tabular-nums">{label}</span>
      <Progress value={seatsPercent(license)} aria-label={`${license.courseTitle}: ${label}`} />
    </div>
  );
}
