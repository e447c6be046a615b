import { CreditCard, Mail, UserPlus } from 'lucide-react';
import type { PlatformActivity } from '@contracts/admin.ts';
import { adminMessages as m } from '../admin-messages.ts';

const icons = { 'sign-up': UserPlus, subscription: CreditCard, campaign: Mail } as const;
const when = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

/** The newest platform events (sign-ups, subscriptions, campaigns), as recorded when they happened. */
export function RecentActivityList({ items }: { items: PlatformActivity[] }) {
  if (items.length === 0) return <p className="text-sm text-muted-foreground">{m.noActivity}</p>;
  return (
    <ul className="divide-y">
      {items.map((item) => {
        const Icon = icons[item.kind];
        return (
          <li key={`${item.at}-${item.text}`} className="flex items-start gap-3 py-3 first:pt-0 last:pb-0">
            <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
            <p className="min-w-0 flex-1 text-sm break-words">{item.text}</p>
            <time dateTime={item.at} className="shrink-0 text-xs whitespace-nowrap text-muted-foreground">
              {when.format(new Date(item.at))}
            </time>
          </li>
        );
      })}
    </ul>
  );
}
