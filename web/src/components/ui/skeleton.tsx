import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

/** A placeholder block; decorative, so the loading region itself carries aria-busy and a text for screen readers. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden="true" className={cn('animate-shimmer rounded-md bg-muted', className)} {...props} />;
}

/** A table's shape while its rows load: `rows` bars in a bordered box, `label` for screen readers (role=status). */
export function TableSkeleton({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <div role="status" className="grid gap-3 rounded-xl border p-4 sm:p-6">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, n) => (
        <Skeleton key={n} className="h-10 w-full" />
      ))}
    </div>
  );
}
