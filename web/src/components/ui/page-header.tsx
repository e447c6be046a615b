import { useEffect, type ReactNode } from 'react';
import { cn } from '@/lib/utils.ts';

/** The h1 of a dashboard screen, with an optional line under it and actions on the right. */
export function PageHeader({
  title,
  description,
  actions,
  className,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  // The tab's title follows the screen, so history, bookmarks and screen readers name the page.
  useEffect(() => {
    document.title = `${title} · Course Platform`;
  }, [title]);

  return (
    <div className={cn('flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between', className)}>
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}
