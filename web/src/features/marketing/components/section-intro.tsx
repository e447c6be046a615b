import type { ReactNode } from 'react';
import { cn } from '@/lib/utils.ts';

/** The eyebrow, heading and lead paragraph every section of the landing page opens with. */
export function SectionIntro({
  id,
  eyebrow,
  title,
  children,
  className,
  tone = 'light',
}: {
  id: string;
  eyebrow: string;
  title: string;
  children?: ReactNode;
  className?: string;
  tone?: 'light' | 'dark';
}) {
  return (
    <div className={cn('mx-auto max-w-2xl text-center', className)}>
      <p className={cn('text-sm font-semibold tracking-wide uppercase', tone === 'light' ? 'text-primary' : 'text-background/80')}>
        {eyebrow}
      </p>
      <h2 id={id} className="mt-3 text-3xl font-bold tracking-tight text-balance sm:text-4xl">
        {title}
      </h2>
      {children && (
        <p className={cn('mt-4 text-lg text-pretty', tone === 'light' ? 'text-muted-foreground' : 'text-background/80')}>
          {children}
        </p>
      )}
    </div>
  );
}
