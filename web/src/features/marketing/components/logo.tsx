import { cn } from '@/lib/utils.ts';

export const PRODUCT_NAME = 'Course Platform';

/** The product's mark (the favicon's shape), decorative: the product name next to it is the text. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className={cn('size-8 shrink-0', className)}>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path
        d="M9 21V11l7 4 7-4v10"
        fill="none"
        strokeWidth="2.5"
        strokeLinejoin="round"
        strokeLinecap="round"
        className="stroke-primary-foreground"
      />
    </svg>
  );
}
