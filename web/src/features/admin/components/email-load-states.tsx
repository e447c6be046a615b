import { RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
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

/** A part that could not be loaded: says which, and offers to load it again. */
export function EmailLoadFailed({ message, onRetry, retrying = false }: { message: string; onRetry: () => void; retrying?: boolean }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border px-4 py-10 text-center">
      <p className="font-medium">{message}</p>
      <Button variant="outline" loading={retrying} onClick={onRetry}>
        {!retrying && <RotateCw aria-hidden="true" />}
        {m.retry}
      </Button>
    </div>
  );
}
