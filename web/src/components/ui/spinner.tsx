import { LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/utils.ts';

/** Decorative spinner; the surrounding text or aria-busy says what is loading. */
export function Spinner({ className }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={cn('size-4 animate-spin', className)} />;
}
