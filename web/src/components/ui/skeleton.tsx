import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

/** A placeholder block; decorative, so the loading region itself carries aria-busy and a text for screen readers. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden="true" className={cn('animate-shimmer rounded-md bg-muted', className)} {...props} />;
}
