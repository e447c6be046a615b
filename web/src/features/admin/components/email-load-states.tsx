import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { emailMessages as m } from '../admin-messages.ts';

/** A part of the Email Campaigns screen that is still loading: announced, with what it is waiting for. */
export function EmailLoading({ label }: { label: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-2 rounded-xl border py-12 text-sm text-muted-foreground">
      <Spinner className="size-5" />
      {label}
    </div>
  );
}

/** A part that could not be loaded: says which, and offers to load it again (the design system's LoadFailed). */
export function EmailLoadFailed(props: { message: string; onRetry: () => void; retrying?: boolean }) {
  return <LoadFailed {...props} retryLabel={m.retry} />;
}
