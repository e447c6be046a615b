import { Zap } from 'lucide-react';
import type { SupportPriority, SupportStatus } from '@contracts/support.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { supportMessages as m } from '../support-messages.ts';

/** 'Priority' on a Pro creator's request (everywhere it shows); nothing on a standard one unless `showStandard`. */
export function PriorityBadge({ priority, showStandard = false }: { priority: SupportPriority; showStandard?: boolean }) {
  if (priority === 'priority') {
    return (
      <Badge className="bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100">
        <Zap aria-hidden="true" />
        {m.priority}
      </Badge>
    );
  }
  return showStandard ? <Badge variant="outline">{m.standard}</Badge> : null;
}

export function StatusBadge({ status }: { status: SupportStatus }) {
  return <Badge variant={status === 'open' ? 'secondary' : 'outline'}>{m.status[status]}</Badge>;
}
