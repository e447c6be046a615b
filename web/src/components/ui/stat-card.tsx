import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/utils.ts';
import { Badge } from './badge.tsx';
import { Card } from './card.tsx';

/** Marks hard-coded figures, so nobody mistakes a placeholder for real data. */
export function SampleDataBadge({ className }: { className?: string }) {
  return (
    <Badge variant="outline" className={cn('font-normal text-muted-foreground', className)} title="Placeholder figures until live data arrives">
      Sample data
    </Badge>
  );
}

/** One figure of a dashboard: a label, the value, a line of context. */
export function StatCard({
  label,
  value,
  detail,
  icon: Icon,
  className,
}: {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  icon?: LucideIcon;
  className?: string;
}) {
  return (
    <Card className={cn('p-5', className)}>
      <div className="flex items-start justify-between gap-3">
        <h2 className="text-sm font-medium text-muted-foreground">{label}</h2>
        {Icon && <Icon aria-hidden="true" className="size-4 text-muted-foreground" />}
      </div>
      <p className="mt-2 text-2xl font-semibold tracking-tight tabular-nums">{value}</p>
      {detail && <p className="mt-1 text-xs text-muted-foreground">{detail}</p>}
    </Card>
  );
}
