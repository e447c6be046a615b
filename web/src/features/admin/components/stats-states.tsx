import { RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { adminMessages as m } from '../admin-messages.ts';

export function StatsLoading() {
  return (
    <div role="status" className="flex items-center justify-center gap-2 rounded-xl border py-16 text-sm text-muted-foreground">
      <Spinner className="size-5" />
      {m.loading}
    </div>
  );
}

export function StatsFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border py-12 text-center">
      <p className="font-medium">{m.loadFailed.description}</p>
      <Button variant="outline" onClick={onRetry}>
        <RotateCw aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}
