import { CircleCheck, Clock, RotateCcw } from 'lucide-react';
import type { SubmissionStatus } from '@contracts/submissions.ts';
import { cn } from '@/lib/utils.ts';

/** A submission's status in words, the same for the learner and the creator (SPEC's British English, no codes). */
export const statusLabels: Record<SubmissionStatus, string> = {
  submitted: 'Waiting for review',
  passed: 'Passed',
  needs_revision: 'Needs revision',
};

const tones: Record<SubmissionStatus, { icon: typeof Clock; className: string }> = {
  submitted: { icon: Clock, className: 'border-transparent bg-muted text-foreground' },
  passed: { icon: CircleCheck, className: 'border-transparent bg-emerald-100 text-emerald-900' },
  needs_revision: { icon: RotateCcw, className: 'border-transparent bg-amber-100 text-amber-950' },
};

/** The status as a small badge with an icon (the words carry it; colour only helps). */
export function SubmissionStatusBadge({ status, className }: { status: SubmissionStatus; className?: string }) {
  const { icon: Icon, className: tone } = tones[status];
  return (
    <span className={cn('inline-flex w-fit shrink-0 items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-medium whitespace-nowrap', tone, className)} data-testid="submission-status">
      <Icon aria-hidden="true" className="size-3" />
      {statusLabels[status]}
    </span>
  );
}
