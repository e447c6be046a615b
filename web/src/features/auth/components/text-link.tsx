import { Link, type LinkProps } from 'react-router-dom';
import { cn } from '@/lib/utils.ts';

/** An in-text link of the auth screens: underlined (not told apart by colour alone), with a visible focus ring. */
export function TextLink({ className, ...props }: LinkProps) {
  return (
    <Link
      className={cn(
        'rounded-sm font-medium text-foreground underline underline-offset-4 hover:text-foreground/80',
        'outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
        className,
      )}
      {...props}
    />
  );
}
