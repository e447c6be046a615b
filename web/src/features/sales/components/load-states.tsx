import { RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { salesMessages as m } from '../sales-messages.ts';

/** A part of the screen that could not be loaded: says which, and offers to load it again. */
export function LoadFailed({ message, onRetry, retrying = false }: { message: string; onRetry: () => void; retrying?: boolean }) {
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
