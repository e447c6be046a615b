import { CircleAlert, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/utils.ts';

const tones = {
  destructive: { box: 'border-destructive/40 bg-destructive/5', icon: 'text-destructive' },
  warning: { box: 'border-amber-200 bg-amber-50 text-amber-950', icon: 'text-amber-800' },
} as const;

/**
 * Why the server said no, in its own words, where the person acted (a form, a dialog): an icon, an optional title,
 * the message (long words such as addresses wrap) and an optional way forward (`action`, e.g. a link to a plan).
 * `tone="warning"` is for a refusal the person fixes elsewhere first (e.g. connect payouts), not a mistake.
 */
export function RefusalAlert({
  title,
  children,
  action,
  tone = 'destructive',
  icon: Icon = CircleAlert,
}: {
  title?: ReactNode;
  children: ReactNode;
  action?: ReactNode;
  tone?: keyof typeof tones;
  icon?: LucideIcon;
}) {
  const message = <p className="min-w-0 [overflow-wrap:anywhere]">{children}</p>;
  return (
    <div role="alert" className={cn('flex gap-3 rounded-lg border p-3 text-sm', tones[tone].box)}>
      <Icon aria-hidden="true" className={cn('mt-0.5 size-4 shrink-0', tones[tone].icon)} />
      {title || action ? (
        <div className="grid gap-1">
          {title && <p className="font-semibold">{title}</p>}
          {message}
          {action}
        </div>
      ) : (
        message
      )}
    </div>
  );
}
