import { RotateCw } from 'lucide-react';
import { Button } from './button.tsx';

/** A part of a screen that could not be loaded: says which, and offers to load it again. */
export function LoadFailed({ message, onRetry, retrying = false, retryLabel = 'Try again' }: { message: string; onRetry: () => void; retrying?: boolean; retryLabel?: string }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border px-4 py-10 text-center">
      <p className="font-medium">{message}</p>
      <Button variant="outline" loading={retrying} onClick={onRetry}>
        {!retrying && <RotateCw aria-hidden="true" />}
        {retryLabel}
      </Button>
    </div>
  );
}
